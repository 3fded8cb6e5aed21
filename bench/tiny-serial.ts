/**
 * Tiny sessions one after another in the calling thread, as the scale benchmark times them: in its own
 * thread (the serial baseline and the probe) and in its plain processes (`plain-child.ts`). One definition, so
 * all of them run the same sessions as the benchmark's sweeps.
 */
import { runSession } from '../src/index.js';
import { cpuMs } from './stats.js';

/** The rooms the scale benchmark's sessions cycle through (its sweeps' `scenes`). */
export const TINY_SCENES = ['empty-lab', 'living-room', 'kitchen', 'office'];

/** Wall seconds and this process's CPU ms (all threads) for `sessions` sessions of `task` from `firstSeed`. */
export async function runTinySerially(task: string, sessions: number, firstSeed: number): Promise<{ seconds: number; cpuMs: number }> {
  const cpuBefore = cpuMs();
  const start = performance.now();
  for (let i = 0; i < sessions; i++) {
    await runSession({ task, seed: firstSeed + Math.floor(i / TINY_SCENES.length), scene: TINY_SCENES[i % TINY_SCENES.length], dominantHand: 'right' });
  }
  return { seconds: (performance.now() - start) / 1000, cpuMs: cpuMs() - cpuBefore };
}
