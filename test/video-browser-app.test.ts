/**
 * Videos of browser apps show what the page rendered into its XR layer (a system test: real Chromium and
 * ffmpeg; skipped only with XRSIM_SKIP_SYSTEM=1). The poke-button page draws a red (0xdd2222) button in
 * front of the user; the simulation's own view draws no such red, so red pixels in both halves of a frame
 * (the two eyes, side by side) can only come from the page's rendering.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SweepResultLine } from '../src/sweep/results.js';
import { tempDir, xrsim } from './helpers/cli.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';

function probe(path: string): { codec: string; frames: number; duration: number; width: number; height: number } {
  const out = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,nb_read_frames,width,height:format=duration', '-of', 'json', path], { encoding: 'utf8' });
  const { streams, format } = JSON.parse(out);
  return { codec: streams[0].codec_name, frames: Number(streams[0].nb_read_frames), duration: Number(format.duration), width: streams[0].width, height: streams[0].height };
}

/** Pixels of frame `k` that show the page's red button, in the left and the right half. */
function redPixels(path: string, k: number, width: number, height: number): [number, number] {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-vf', `select=eq(n\\,${k})`, '-vsync', '0', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { maxBuffer: 64 << 20 });
  expect(raw.length).toBe(width * height * 3);
  const halves: [number, number] = [0, 0];
  for (let i = 0; i < raw.length; i += 3) {
    if (raw[i] > 90 && raw[i + 1] < 60 && raw[i + 2] < 60) halves[(i / 3) % width < width / 2 ? 0 : 1]++;
  }
  return halves;
}

describe.skipIf(SKIP_SYSTEM)('videos of browser apps: the page\'s XR layer (system test: Chromium, ffmpeg)', () => {
  let stream: string;
  beforeAll(() => {
    stream = join(tempDir(), 'poke.xrs');
    const run = xrsim('run', '--task', 'xr/poke-button', '--app', 'web-reference', '--duration', '2', '--out', stream, '--json');
    expect(run.json?.stream, run.stderr).toBe(stream);
  });

  it('xrsim render --video re-runs the session in Chromium and encodes what the page drew, both eyes side by side', () => {
    const out = join(tempDir(), 'poke.webm');
    const r = xrsim('render', stream, '--video', out, '--fps', '10', '--json');
    expect(r.code, r.stderr).toBe(0);
    // 2 s at 10 fps: frames 0..20 of the 256 x 128 layer.
    expect(r.json).toMatchObject({ view: 'layer', video: out, frames: 21, fps: 10, width: 256, height: 128 });
    const p = probe(out);
    expect(p).toMatchObject({ codec: 'vp9', frames: 21, width: 256, height: 128 });
    expect(Math.abs(p.duration - 2.1)).toBeLessThan(0.05);
    const [left, right] = redPixels(out, 15, 256, 128);
    expect(left).toBeGreaterThan(8);
    expect(right).toBeGreaterThan(8);
  });

  it('--view simulation gives the simulation\'s own view of the same stream, without the page\'s button', () => {
    const out = join(tempDir(), 'poke-sim.mp4');
    const r = xrsim('render', stream, '--video', out, '--view', 'simulation', '--renderer', 'cpu', '--fps', '10', '--width', '256', '--height', '128', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ camera: 'head', frames: 21, width: 256, height: 128 });
    expect(redPixels(out, 15, 256, 128)).toEqual([0, 0]);
  });

  it('refuses a layer video of an in-process app, and simulation-view options with a layer video', () => {
    const inProcess = join(tempDir(), 'in-process.xrs');
    // Too short to pass its milestones (exit 1), but recorded.
    expect(xrsim('run', '--task', 'xr/poke-button', '--duration', '0.2', '--out', inProcess, '--json').json?.stream).toBe(inProcess);
    const refused = xrsim('render', inProcess, '--video', join(tempDir(), 'x.webm'), '--view', 'layer');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not recorded from a browser app/);
    const mixed = xrsim('render', stream, '--video', join(tempDir(), 'x.webm'), '--camera', 'overview');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--camera is for the simulation view/);
  });

  it('xrsim sweep --videos all keeps a video of each browser session\'s XR layer', () => {
    const out = join(tempDir(), 'sweep');
    const r = xrsim('sweep', 'xr/poke-button', '--apps', 'web-reference', '--scenes', 'empty-lab', '--seeds', '1', '--hands', 'right', '--workers', '1', '--keep-streams', 'all', '--videos', 'all', '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    const [line] = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SweepResultLine);
    expect(line.videoError).toBeUndefined();
    expect(line.video).toMatch(/\.webm$/);
    // The task's 12 s at the sweep's 15 fps: frames 0..180.
    expect(probe(line.video!)).toMatchObject({ codec: 'vp9', frames: 181, width: 256, height: 128 });
    const [left, right] = redPixels(line.video!, 90, 256, 128);
    expect(left + right).toBeGreaterThan(16);
  });
});
