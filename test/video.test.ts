/**
 * `xrsim render --video`: a recorded session as WebM or MP4 through Debian's ffmpeg (a system test: CI
 * installs ffmpeg; skipped only with XRSIM_SKIP_SYSTEM=1). ffprobe checks frame count, rate and duration;
 * a decoded frame shows what the CPU renderer draws for its tick.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuViewRenderer, RecordedScene, viewCamera } from '../src/render/view.js';
import { replayModelFromHeader } from '../src/stream/header.js';
import { StreamReader } from '../src/stream/reader.js';
import { tempDir, xrsim } from './helpers/cli.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
let stream: string;

beforeAll(() => {
  stream = join(tempDir(), 'session.xrs');
  // 6 s (fixed here, whatever the task's own duration): the user reaches for the block and places it on the
  // table in front of them.
  const run = xrsim('run', '--task', 'xr/place-on-detected-plane', '--duration', '6', '--out', stream, '--json');
  expect(run.json?.stream, run.stderr).toBe(stream);
});

/** Frames, rate and duration as ffprobe reads them (frames counted by decoding). */
function probe(path: string): { codec: string; frames: number; rate: string; duration: number; width: number; height: number } {
  const out = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,nb_read_frames,r_frame_rate,width,height:format=duration', '-of', 'json', path], { encoding: 'utf8' });
  const { streams, format } = JSON.parse(out);
  return { codec: streams[0].codec_name, frames: Number(streams[0].nb_read_frames), rate: streams[0].r_frame_rate, duration: Number(format.duration), width: streams[0].width, height: streams[0].height };
}

/** Frame `k` of a video as RGB bytes. */
function decodeFrame(path: string, k: number, width: number, height: number): Uint8Array {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-vf', `select=eq(n\\,${k})`, '-vsync', '0', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { maxBuffer: 64 << 20 });
  expect(raw.length).toBe(width * height * 3);
  return new Uint8Array(raw);
}

/** What the CPU renderer draws at `tick` from `camera`. */
function expectedView(tick: number, camera: 'head' | 'overview', width: number, height: number): Uint8Array {
  const reader = StreamReader.open(stream);
  try {
    const model = replayModelFromHeader(reader.header);
    const scene = new RecordedScene(model);
    for (const frame of reader.framesInOrder()) {
      scene.advance(frame);
      if (frame.tick === tick) return new CpuViewRenderer(width, height).render(scene, viewCamera(camera, frame, model, { width, height, fovDeg: 90 })).rgb.slice();
    }
  } finally {
    reader.close();
  }
  throw new Error(`no tick ${tick}`);
}

describe.skipIf(SKIP_SYSTEM)('xrsim render --video (system test: ffmpeg)', () => {
  it('encodes a WebM whose frame count and duration ffprobe confirms, showing the right ticks', () => {
    const out = join(tempDir(), 'session.webm');
    const r = xrsim('render', stream, '--video', out, '--renderer', 'cpu', '--fps', '10', '--json');
    expect(r.code, r.stderr).toBe(0);
    // 6 s at 90 Hz: ticks 0–540; frame k shows tick round(k / 10 · 90) = 9k, k = 0..60.
    expect(r.json).toMatchObject({ video: out, frames: 61, fps: 10, width: 640, height: 480, camera: 'head' });
    const p = probe(out);
    expect(p).toMatchObject({ codec: 'vp9', frames: 61, rate: '10/1', width: 640, height: 480 });
    expect(Math.abs(p.duration - 6.1)).toBeLessThan(0.05);
    // Frame 42 shows tick 378, as the CPU renderer draws it (but for compression), and not its neighbours.
    const decoded = decodeFrame(out, 42, 640, 480);
    const offPixels = (view: Uint8Array) => {
      let off = 0;
      for (let i = 0; i < view.length; i += 3) if (Math.max(Math.abs(view[i] - decoded[i]), Math.abs(view[i + 1] - decoded[i + 1]), Math.abs(view[i + 2] - decoded[i + 2])) > 48) off++;
      return off;
    };
    const own = offPixels(expectedView(378, 'head', 640, 480));
    expect(own).toBeLessThan(640 * 480 * 0.005);
    for (const other of [360, 396]) expect(offPixels(expectedView(other, 'head', 640, 480)), `tick ${other}`).toBeGreaterThan(own + 2000);
  });

  it('encodes an MP4 from the head at another rate and size', () => {
    const out = join(tempDir(), 'session.mp4');
    const r = xrsim('render', stream, '--video', out, '--renderer', 'cpu', '--fps', '10', '--width', '320', '--height', '240', '--json');
    expect(r.code, r.stderr).toBe(0);
    const p = probe(out);
    expect(p).toMatchObject({ codec: 'h264', frames: 61, rate: '10/1', width: 320, height: 240 });
    expect(Math.abs(p.duration - 6.1)).toBeLessThan(0.05);
  });

  it('encodes with headless-gl too', () => {
    const out = join(tempDir(), 'gl.webm');
    const r = xrsim('render', stream, '--video', out, '--fps', '5', '--width', '320', '--height', '240', '--json');
    expect(r.code, `${r.stderr}\n(install gl with npm run test:all, or set XRSIM_SKIP_SYSTEM=1 to skip system tests)`).toBe(0);
    expect(r.json.renderer).toBe('gl');
    expect(probe(out).frames).toBe(31);
  });
});

describe('xrsim render --video without what it needs', () => {
  it('explains how to install ffmpeg and exits 2 when it is missing', () => {
    const env = process.env.XRSIM_FFMPEG;
    process.env.XRSIM_FFMPEG = '/nonexistent/ffmpeg';
    try {
      const r = xrsim('render', stream, '--video', join(tempDir(), 'x.webm'), '--renderer', 'cpu');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/sudo apt-get install -y ffmpeg/);
    } finally {
      if (env === undefined) delete process.env.XRSIM_FFMPEG;
      else process.env.XRSIM_FFMPEG = env;
    }
  });

  it('rejects other containers, odd sizes and mixed modes', () => {
    expect(xrsim('render', stream, '--video', '/tmp/x.avi', '--renderer', 'cpu').code).toBe(2);
    expect(xrsim('render', stream, '--video', '/tmp/x.webm', '--renderer', 'cpu', '--width', '321').code).toBe(2);
    expect(xrsim('render', stream, '--video', '/tmp/x.webm', '--tick', '3', '--out', '/tmp/x.png', '--renderer', 'cpu').code).toBe(2);
    expect(xrsim('render', stream, '--video', '/tmp/x.webm', '--fps', '0', '--renderer', 'cpu').code).toBe(2);
  });
});
