/**
 * `xrsim render`: point-of-view PNGs of a recorded stream, one tick or a sequence.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExitCode, XrsimInputError } from '../../errors.js';
import type { Vec3 } from '../../geometry/types.js';
import { GL_INSTALL_HELP, GlRenderer, GlUnavailableError, glModuleName, type RenderedView } from '../../render/gl-renderer.js';
import { primitiveColours } from '../../render/colours.js';
import { sceneMesh } from '../../render/mesh.js';
import { encodePng, PNG_OUTPUT } from '../../render/png.js';
import { RecordedScene, renderOnCpu, viewCamera, VIEW_KINDS, type ViewCamera } from '../../render/view.js';
import { modelFromHeader } from '../../stream/header.js';
import { StreamReader } from '../../stream/reader.js';
import { parseChoiceArg, parseNumberArg, printJson, type Command } from '../command.js';
import { requireOnePath } from './paths.js';
import { checkOutputFile } from '../../output-file.js';
import { checkVideoOutput, encodeVideo, type VideoReport } from '../../export/video.js';
import { SimulationViewSource } from '../../export/video-source.js';
import { defaultRenderThreads, ParallelViewSource } from '../../export/parallel-view-source.js';
import { isBrowserAppStream } from '../../export/app-layer-source.js';
import { encodeAppLayerVideo } from '../../export/app-layer-video.js';
import { DEFAULT_LAYER_SIZE } from '../../browser/protocol.js';

/** Set in the child process the command re-runs itself as under `xvfb-run`. */
const UNDER_XVFB = 'XRSIM_RENDER_UNDER_XVFB';

/** `xrsim render FILE.xrs`. */
export const renderCommand: Command = {
  name: 'render',
  summary: 'render point-of-view PNGs (flat colours per object and label, plus depth) or a video of a recorded stream',
  help: `xrsim render FILE.xrs (--tick N --out VIEW.png | --every K --out-dir DIR | --video OUT.webm|OUT.mp4) [options]

  --tick N              the frame to render
  --out VIEW.png        where to write it
  --every K             render every K-th frame (0, K, 2K, ...) into --out-dir as frame-NNNNNN.png
  --out-dir DIR         where to write the sequence (created if missing)
  --camera NAME         head (default: the eye centre), depth (the recorded depth camera) or overview
                        (a corner of the room, looking at its centre)
  --from X,Y,Z          look from this world point instead ...
  --look-at X,Y,Z       ... toward this one
  --width W, --height H image size (default 640 x 480; the depth camera's own size for --camera depth)
  --fov DEGREES         horizontal field of view (default 90)
  --video OUT.webm|.mp4 encode the whole session as a video with ffmpeg (WebM: VP9, MP4: H.264); frame k
                        shows simulated time k / fps
  --view layer|simulation  what a video shows. layer (the default for a stream of a browser app): what
                        the page rendered into its XR layer, both eyes side by side at the layer's size
                        (256 x 128), from the session run again in Chromium (its hash must match the
                        stream's); simulation (the default otherwise): the simulation's own view, with
                        --camera, --width, --height, --fov and --renderer
  --fps N               video frames per second (default 30)
  --threads N           render threads for a video with the CPU renderer (default: one per core,
                        at most 4)
  --force               replace existing files at --out, in --out-dir or at --video whatever they are
                        (without it, only PNGs and videos xrsim wrote, or empty files, are replaced)
  --depth               also write depth as 16-bit greyscale PNGs in millimetres (VIEW.depth.png,
                        frame-NNNNNN.depth.png), 0 where nothing is in view
  --renderer gl|cpu     headless-gl (default) or the CPU depth kernel (no install needed)
  --json                print { file, renderer, camera, images: [{ tick, rgb, depth }] } (for --video:
                        { file, renderer, camera, video, frames, fps, duration, width, height }; for a
                        layer video { file, view: "layer", video, frames, ... }) as the last line

The gl renderer needs the optional "gl" package and an X display; without DISPLAY the command re-runs
itself under xvfb-run -a. Without gl it explains how to install it and exits 2.
Videos need ffmpeg (sudo apt-get install -y ffmpeg); without it the command says so and exits 2.
Exit codes: 0 written, 2 bad input or no renderer.`,
  options: {
    threads: { type: 'string' },
    tick: { type: 'string' },
    force: { type: 'boolean' },
    out: { type: 'string' },
    every: { type: 'string' },
    'out-dir': { type: 'string' },
    camera: { type: 'string' },
    from: { type: 'string' },
    'look-at': { type: 'string' },
    width: { type: 'string' },
    height: { type: 'string' },
    fov: { type: 'string' },
    depth: { type: 'boolean' },
    renderer: { type: 'string' },
    video: { type: 'string' },
    fps: { type: 'string' },
    view: { type: 'string' },
  },
  positionals: true,
  async run({ values, positionals, json }) {
    const v = values as Record<string, string | undefined>;
    const file = requireOnePath(positionals, 'FILE.xrs');
    const renderer = parseChoiceArg('renderer', v.renderer, ['gl', 'cpu'] as const, 'gl');
    const single = v.tick !== undefined;
    const video = v.video !== undefined;
    if ([single, v.every !== undefined, video].filter(Boolean).length !== 1) {
      throw new XrsimInputError('give one of --tick N, --every K or --video OUT', { expected: '--tick N --out VIEW.png, --every K --out-dir DIR, or --video OUT.webm|OUT.mp4' });
    }
    if (single && !v.out) throw new XrsimInputError('missing --out', { expected: '--out VIEW.png' });
    if (v.every !== undefined && !v['out-dir']) throw new XrsimInputError('missing --out-dir', { expected: '--out-dir DIR' });
    const fps = video ? (parseNumberArg('fps', v.fps, false) ?? 30) : 0;
    const force = values.force === true;
    if (video && layerView(file, v)) {
      checkVideoOutput(v.video!, DEFAULT_LAYER_SIZE, { force });
      return renderLayerVideo(file, v.video!, fps, json);
    }
    if (v.view !== undefined && !video) throw new XrsimInputError('--view is for --video', { expected: '--video OUT.webm|OUT.mp4 with --view' });
    if (video) checkVideoOutput(v.video!, { width: Number(v.width ?? 640), height: Number(v.height ?? 480) }, { force });
    if (renderer === 'gl') {
      const relaunched = relaunchUnderXvfb();
      if (relaunched !== null) return relaunched;
    }
    // What is drawn never needs the recorded depth images.
    const reader = StreamReader.open(file, { depthImages: false });
    try {
      const tick = single ? integerArg('tick', v.tick!, 0, reader.frames - 1) : 0;
      const every = v.every === undefined ? 0 : integerArg('every', v.every, 1, Number.MAX_SAFE_INTEGER);
      const depthChannel = reader.header.channels.find((c) => c.kind === 'depth');
      const camera: ViewCamera = v.from || v['look-at'] ? { position: vec3Arg('from', v.from), lookAt: vec3Arg('look-at', v['look-at']) } : parseChoiceArg('camera', v.camera, ['head', 'depth', 'overview'] as const, 'head');
      if (camera === 'depth' && !depthChannel) throw new XrsimInputError('this stream has no depth camera', { expected: '--camera head or overview, or a stream recorded with --depth' });
      const size =
        camera === 'depth'
          ? { width: depthChannel!.camera!.width, height: depthChannel!.camera!.height, fovDeg: (2 * Math.atan(depthChannel!.camera!.width / 2 / depthChannel!.camera!.fx) * 180) / Math.PI }
          : { width: integerArg('width', v.width ?? '640', 1, 8192), height: integerArg('height', v.height ?? '480', 1, 8192), fovDeg: parseNumberArg('fov', v.fov, false) ?? 90 };
      if (!(size.fovDeg > 0 && size.fovDeg < 180)) throw new XrsimInputError(`--fov must be below 180°, got ${size.fovDeg}`, { expected: 'degrees in (0, 180)' });
      let gl: GlRenderer | null = null;
      if (renderer === 'gl') gl = new GlRenderer(size.width, size.height);
      if (video) {
        // The CPU renderer draws on several threads; headless-gl runs in one thread per process.
        const threads = v.threads === undefined ? defaultRenderThreads() : integerArg('threads', v.threads, 1, 64);
        const source = gl ? new SimulationViewSource(reader, { camera, ...size, gl }) : new ParallelViewSource(file, { camera, ...size }, fps, threads);
        let report: VideoReport;
        try {
          report = await encodeVideo(source, { out: v.video!, fps, progress: videoProgress(v.video!) });
        } finally {
          if (source instanceof ParallelViewSource) await source.close();
          gl?.dispose();
        }
        if (json) printJson({ file, renderer, camera, video: report.out, frames: report.frames, fps: report.fps, duration: report.duration, width: report.width, height: report.height });
        else process.stdout.write(`wrote ${report.out}: ${report.frames} frames at ${report.fps} fps (${report.duration.toFixed(2)} s) with the ${renderer} renderer\n`);
        return ExitCode.ok;
      }
      const model = modelFromHeader(reader.header);
      const scene = new RecordedScene(model);
      const colourOf = primitiveColours(scene);
      const images: { tick: number; rgb: string; depth: string | null }[] = [];
      if (!single) mkdirSync(v['out-dir']!, { recursive: true });
      const rgbPathOf = (t: number) => (single ? v.out! : join(v['out-dir']!, `frame-${String(t).padStart(6, '0')}.png`));
      const depthPathOf = (rgbPath: string) => rgbPath.replace(/\.png$/i, '') + '.depth.png';
      // Every image is checked before the first is written: a refusal leaves the folder as it was.
      for (let t = single ? tick : 0; t <= (single ? tick : reader.frames - 1); t += single ? 1 : every) {
        const option = single ? '--out' : '--out-dir';
        checkOutputFile(rgbPathOf(t), PNG_OUTPUT, { option, force });
        if (values.depth === true) checkOutputFile(depthPathOf(rgbPathOf(t)), PNG_OUTPUT, { option, force });
      }
      for (const frame of reader.framesInOrder()) {
        scene.advance(frame);
        const wanted = single ? frame.tick === tick : frame.tick % every === 0;
        if (wanted) {
          const view = viewCamera(camera, frame, model, size, depthChannel?.camera?.mount);
          const image: RenderedView = gl ? gl.render(sceneMesh(scene.geometry, VIEW_KINDS, colourOf), view) : renderOnCpu(scene, view);
          const rgbPath = rgbPathOf(frame.tick);
          writeFileSync(rgbPath, encodePng({ kind: 'rgb', width: image.width, height: image.height, pixels: image.rgb }));
          let depthPath: string | null = null;
          if (values.depth === true) {
            depthPath = depthPathOf(rgbPath);
            const mm = Uint16Array.from(image.depth, (z) => (z === Infinity ? 0 : Math.min(65535, Math.round(z * 1000))));
            writeFileSync(depthPath, encodePng({ kind: 'gray16', width: image.width, height: image.height, pixels: mm }));
          }
          images.push({ tick: frame.tick, rgb: rgbPath, depth: depthPath });
        }
        if (single && frame.tick >= tick) break;
      }
      gl?.dispose();
      const report = { file, renderer, camera, images };
      if (json) printJson(report);
      else process.stdout.write(`wrote ${images.length} image(s) with the ${renderer} renderer${images.length === 1 ? `: ${images[0].rgb}` : ` to ${v['out-dir']}`}\n`);
      return ExitCode.ok;
    } catch (err) {
      if (err instanceof GlUnavailableError) {
        process.stderr.write(`xrsim render: ${err.message}\n`);
        return ExitCode.badInput;
      }
      throw err;
    } finally {
      reader.close();
    }
  },
};

/** Whether a video shows the app's XR layer: `--view`, by default for streams of browser apps. */
function layerView(file: string, v: Record<string, string | undefined>): boolean {
  const reader = StreamReader.open(file);
  const browser = isBrowserAppStream(reader);
  reader.close();
  const view = parseChoiceArg('view', v.view, ['layer', 'simulation'] as const, browser ? 'layer' : 'simulation');
  if (view === 'simulation') return false;
  if (!browser) throw new XrsimInputError(`${file} was not recorded from a browser app: it has no XR layer to show`, { expected: '--view simulation (the default for this stream)' });
  const simulationOnly = ['camera', 'from', 'look-at', 'width', 'height', 'fov', 'renderer', 'threads'].filter((name) => v[name] !== undefined);
  if (simulationOnly.length) throw new XrsimInputError(`--${simulationOnly[0]} is for the simulation view; a layer video shows the page's own rendering at its layer's size`, { expected: '--view simulation, or no --' + simulationOnly[0] });
  return true;
}

/** `render --video` of a browser app's XR layer. */
async function renderLayerVideo(file: string, out: string, fps: number, json: boolean): Promise<number> {
  const reader = StreamReader.open(file);
  try {
    const report = await encodeAppLayerVideo(reader, { out, fps, progress: videoProgress(out) });
    if (json) printJson({ file, view: 'layer', video: report.out, frames: report.frames, fps: report.fps, duration: report.duration, width: report.width, height: report.height });
    else process.stdout.write(`wrote ${report.out}: ${report.frames} frames at ${report.fps} fps (${report.duration.toFixed(2)} s) of the browser app's XR layer\n`);
    return ExitCode.ok;
  } finally {
    reader.close();
  }
}

/** Progress on stderr for long videos: every 10 %. */
function videoProgress(out: string): (frame: number, frames: number) => void {
  let shown = 0;
  return (frame, frames) => {
    const tenth = Math.floor(((frame + 1) / frames) * 10);
    if (frames >= 600 && tenth > shown) process.stderr.write(`xrsim render: ${out} ${tenth * 10} % (${frame + 1} of ${frames} frames)\n`);
    shown = Math.max(shown, tenth);
  };
}

/**
 * headless-gl needs an X display. Without one, re-runs this command under `xvfb-run -a` and returns its
 * exit code; returns null to render here. Explains and returns 2 when neither gl nor Xvfb is available.
 */
function relaunchUnderXvfb(): number | null {
  const require = createRequire(import.meta.url);
  try {
    require.resolve(glModuleName());
  } catch {
    process.stderr.write(`xrsim render: the optional "gl" package is not installed.\n${GL_INSTALL_HELP}\n`);
    return ExitCode.badInput;
  }
  if (process.env.DISPLAY || process.env[UNDER_XVFB]) return null;
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const child = spawnSync('xvfb-run', ['-a', process.execPath, main, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, [UNDER_XVFB]: '1' } });
  if (child.error) {
    process.stderr.write(`xrsim render: no X display and xvfb-run is not available (${child.error.message}).\n${GL_INSTALL_HELP}\n`);
    return ExitCode.badInput;
  }
  return child.status ?? ExitCode.failed;
}

function integerArg(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new XrsimInputError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`, { expected: `an integer ${min}..${max}` });
  return value;
}

function vec3Arg(name: string, text: string | undefined): Vec3 {
  const parts = (text ?? '').split(',').map(Number);
  if (parts.length !== 3 || parts.some((p) => !Number.isFinite(p))) throw new XrsimInputError(`--${name} must be three numbers X,Y,Z, got ${JSON.stringify(text)}`, { expected: 'X,Y,Z in metres' });
  return parts as Vec3;
}
