/**
 * The simulated user is deterministic: the same seed gives bit-identical head and hand channels in other
 * processes; perturbation mode varies with the seed and only with the seed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { J } from '../kernels/hand-fk.js';
import { StreamReader } from '../src/index.js';
import { ROOT, tempDir } from './helpers/cli.js';
// @ts-expect-error: a plain ES module shared with child processes
import { scriptedRun } from './fixtures/scripted-user.mjs';

type Run = { hash: string; channels: string };
const child = (...args: string[]): Run =>
  JSON.parse(spawnSync(process.execPath, [join(ROOT, 'test/fixtures/scripted-user.mjs'), ...args], { encoding: 'utf8' }).stdout);

describe('user determinism', () => {
  it('the same seed gives bit-identical head and hand channels across processes', async () => {
    const here: Run = await scriptedRun(3);
    expect(child('3')).toEqual(here);
    expect(child('3')).toEqual(here);
  });

  it('without perturbation the seed does not matter to the user', async () => {
    expect((await scriptedRun(1)).channels).toBe((await scriptedRun(2)).channels);
  });

  it('perturbation: two seeds give different streams; the same seed gives identical streams, across processes', async () => {
    const dir = tempDir();
    const path = (name: string) => join(dir, `${name}.xrs`);
    const a = await scriptedRun(1, true, { path: path('a') });
    const b = await scriptedRun(1, true, { path: path('b') });
    const c = await scriptedRun(2, true, { path: path('c') });
    expect(readFileSync(path('a'))).toEqual(readFileSync(path('b')));
    expect(readFileSync(path('a'))).not.toEqual(readFileSync(path('c')));
    expect(a).toEqual(b);
    expect(c.channels).not.toBe(a.channels);
    expect(child('1', 'perturb')).toEqual(a);
  });

  it('tremor is physiological: about 8–12 Hz, sub-millimetre to about 1 mm', async () => {
    const dir = tempDir();
    await scriptedRun(5, false, { path: join(dir, 'calm.xrs') });
    await scriptedRun(5, true, { path: join(dir, 'shaky.xrs') });
    const wrist = (file: string) => {
      const reader = StreamReader.open(join(dir, file));
      const out: number[][] = [];
      for (const frame of reader.framesInOrder()) {
        const c = frame.channel('hand-right')!;
        out.push([0, 1, 2].map((k) => c[J.Wrist * 8 + k]));
      }
      reader.close();
      return out;
    };
    const calm = wrist('calm.xrs');
    const shaky = wrist('shaky.xrs');
    // Tremor and tracking noise are added on top of the same motion; the x offset's zero crossings give
    // its frequency (the tracking noise, 0.5 mm white noise, is far smaller in the low band we count).
    const offset = shaky.map((p, i) => p[0] - calm[i][0]);
    const peak = Math.max(...shaky.map((p, i) => Math.hypot(p[0] - calm[i][0], p[1] - calm[i][1], p[2] - calm[i][2])));
    expect(peak).toBeGreaterThan(0.0003);
    expect(peak).toBeLessThan(0.0035);
    // Smooth the tracking noise with a 3-tick moving average before counting crossings.
    const smooth = offset.map((_, i) => (offset[Math.max(0, i - 1)] + offset[i] + offset[Math.min(offset.length - 1, i + 1)]) / 3);
    const crossings = smooth.slice(1).filter((v, i) => Math.sign(v) !== Math.sign(smooth[i])).length;
    const hz = crossings / 2 / 2; // 2 crossings per cycle, 2 seconds
    expect(hz).toBeGreaterThan(6);
    expect(hz).toBeLessThan(14);
  });
});
