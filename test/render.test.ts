/**
 * Point-of-view rendering from recorded streams: the CPU path everywhere, and headless-gl (a system test:
 * CI installs its build dependencies and Xvfb; it is skipped only with XRSIM_SKIP_SYSTEM=1).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../src/render/png.js';
import { RecordedScene, renderOnCpu, viewCamera } from '../src/render/view.js';
import { modelFromHeader } from '../src/stream/header.js';
import { LABEL_COLOURS } from '../src/render/colours.js';
import { decodeEvents, StreamReader, type RenderedView } from '../src/index.js';
import { recordWithFrames } from './helpers/streams.js';
import { tempDir, xrsim } from './helpers/cli.js';
import { benchTask } from './helpers/user.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
let stream: string;

beforeAll(async () => {
  // A crate appears at 0.3 s; the user looks at the bench with depth and planes on.
  ({ path: stream } = await recordWithFrames({ task: benchTask({ duration: 1 }), seed: 2, sensing: { depth: { noise: 'ideal' }, planes: true } }));
});

/** The CPU view of a stream's frame, from a named camera, for comparison with what the CLI wrote. */
function cpuView(path: string, tick: number, camera: 'head' | 'depth' | 'overview', size: { width: number; height: number; fovDeg: number }): RenderedView {
  const reader = StreamReader.open(path);
  const model = modelFromHeader(reader.header);
  const scene = new RecordedScene(model);
  const mount = reader.header.channels.find((c) => c.kind === 'depth')?.camera?.mount;
  try {
    for (const frame of reader.framesInOrder()) {
      scene.advance(frame);
      if (frame.tick === tick) return renderOnCpu(scene, viewCamera(camera, frame, model, size, mount));
    }
  } finally {
    reader.close();
  }
  throw new Error(`no tick ${tick}`);
}

const near = (a: readonly number[], b: readonly number[], tolerance: number) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

describe('xrsim run with sensing', () => {
  it('records depth frames and plane events with --depth and --planes, and inspect lists the depth channel', () => {
    const out = join(tempDir(), 'seen.xrs');
    const run = xrsim('run', '--task', 'physics/stack-settle', '--duration', '1', '--depth', 'phone-tof', '--planes', '--out', out, '--json');
    expect(run.json.stream, run.stderr).toBe(out);
    const inspect = xrsim('inspect', out, '--json');
    expect(inspect.code).toBe(0);
    expect(inspect.json.channels.map((c: { name: string }) => c.name)).toContain('depth');
    const reader = StreamReader.open(out);
    let images = 0;
    let planes = 0;
    for (const frame of reader.framesInOrder()) {
      if (frame.depthImage) images++;
      planes += decodeEvents(frame.events, frame.eventWords).filter((e) => e.name === 'plane-added').length;
    }
    reader.close();
    expect(images).toBe(31);
    expect(planes).toBeGreaterThan(0);
    expect(xrsim('run', '--task', 'physics/stack-settle', '--depth', 'kinect').code).toBe(2);
  });
});

describe('xrsim render on the CPU', () => {
  it('writes a PNG of the room from its corner, with flat colours per label, and its depth', () => {
    const dir = tempDir();
    const out = join(dir, 'view.png');
    const r = xrsim('render', stream, '--tick', '60', '--out', out, '--renderer', 'cpu', '--depth', '--camera', 'overview', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.images).toEqual([{ tick: 60, rgb: out, depth: join(dir, 'view.depth.png') }]);
    const rgb = decodePng(readFileSync(out));
    expect([rgb.kind, rgb.width, rgb.height]).toEqual(['rgb', 640, 480]);
    const colours = new Set<string>();
    for (let i = 0; i < rgb.width * rgb.height; i++) colours.add(Array.from(rgb.pixels.subarray(i * 3, i * 3 + 3)).join(','));
    expect(colours.size).toBeGreaterThanOrEqual(6);
    // The overview looks down at the floor and across to walls and the ceiling: each label's hue is there.
    const present = (label: keyof typeof LABEL_COLOURS) => [...colours].some((c) => near(c.split(',').map(Number), LABEL_COLOURS[label], 20));
    for (const label of ['floor', 'wall', 'ceiling', 'table'] as const) expect(present(label), label).toBe(true);
    const depth = decodePng(readFileSync(join(dir, 'view.depth.png')));
    const expected = cpuView(stream, 60, 'overview', { width: 640, height: 480, fovDeg: 90 });
    for (const i of [0, 1000, 153_600, 307_199]) expect(depth.pixels[i]).toBe(Math.round(expected.depth[i] * 1000));
  });

  it('writes a numbered sequence with --every, from the depth camera at its own size', () => {
    const dir = tempDir();
    const r = xrsim('render', stream, '--every', '30', '--out-dir', dir, '--renderer', 'cpu', '--camera', 'depth');
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['frame-000000.png', 'frame-000030.png', 'frame-000060.png', 'frame-000090.png']);
    const image = decodePng(readFileSync(join(dir, 'frame-000030.png')));
    expect([image.width, image.height]).toEqual([160, 120]);
  });

  it('explains how to install gl and exits 2 when it is missing', () => {
    const out = join(tempDir(), 'view.png');
    const env = process.env.XRSIM_GL_MODULE;
    process.env.XRSIM_GL_MODULE = 'gl-is-not-installed';
    try {
      const r = xrsim('render', stream, '--tick', '0', '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/apt-get install -y libxi-dev libx11-dev libxext-dev libgl1-mesa-dev pkg-config xvfb/);
      expect(r.stderr).toMatch(/npm install gl/);
      expect(r.stderr).toMatch(/--renderer cpu/);
    } finally {
      if (env === undefined) delete process.env.XRSIM_GL_MODULE;
      else process.env.XRSIM_GL_MODULE = env;
    }
  });

  it('rejects bad arguments with exit 2', () => {
    expect(xrsim('render', stream, '--tick', '99999', '--out', '/tmp/x.png', '--renderer', 'cpu').code).toBe(2);
    expect(xrsim('render', stream, '--out', '/tmp/x.png', '--renderer', 'cpu').code).toBe(2);
    expect(xrsim('render', stream, '--tick', '1', '--out', '/tmp/x.png', '--renderer', 'cpu', '--fov', '180').code).toBe(2);
  });
});

describe.skipIf(SKIP_SYSTEM)('xrsim render with headless-gl (system test)', () => {
  it('agrees with the CPU depth kernel to 1 cm on 99 % of pixels, and its PNG shows the same room', () => {
    const dir = tempDir();
    const out = join(dir, 'gl.png');
    const r = xrsim('render', stream, '--tick', '60', '--out', out, '--depth', '--camera', 'head', '--width', '320', '--height', '240', '--fov', '80', '--json');
    expect(r.code, `${r.stderr}\n(install gl with npm run test:all, or set XRSIM_SKIP_SYSTEM=1 to skip system tests)`).toBe(0);
    expect(r.json.renderer).toBe('gl');
    const depth = decodePng(readFileSync(join(dir, 'gl.depth.png')));
    const rgb = decodePng(readFileSync(out));
    const cpu = cpuView(stream, 60, 'head', { width: 320, height: 240, fovDeg: 80 });
    let agree = 0;
    let sameColour = 0;
    for (let i = 0; i < cpu.depth.length; i++) {
      const gl = depth.pixels[i] / 1000;
      const z = cpu.depth[i];
      if ((z === Infinity && depth.pixels[i] === 0) || Math.abs(gl - z) <= 0.01) agree++;
      if (near(Array.from(rgb.pixels.subarray(i * 3, i * 3 + 3)), Array.from(cpu.rgb.subarray(i * 3, i * 3 + 3)), 2)) sameColour++;
    }
    expect(agree / cpu.depth.length).toBeGreaterThanOrEqual(0.99);
    expect(sameColour / cpu.depth.length).toBeGreaterThanOrEqual(0.98);
  });
});
