/**
 * Flakiness as GenXR-Bench measures it (issue 37, item 2): the share of (task, app) pairs whose Pass@1
 * verdict (every session of the pair passed) changes across runs, beside the per-session flip rate.
 */
import { describe, expect, it } from 'vitest';
import { summariseFlaky } from '../src/sweep/flaky.js';
import type { SessionResult } from '../src/session/result.js';

function result(task: string, app: string, seed: number, passed: boolean): SessionResult {
  const status = passed ? 'passed' : 'failed';
  return { task, app, scene: 'office', seed, hand: 'right', ticks: 1, status, score: passed ? 1 : 0.5, hash: '0', milestones: [], stream: null, modelHash: '', appErrors: 0, firstAppError: null };
}

describe('pair-level flakiness', () => {
  it('counts a pair as flipping only when its every-session verdict differs between runs', () => {
    const runsOf = (task: string, app: string, seed: number, verdicts: boolean[]) => verdicts.map((v) => result(task, app, seed, v));
    const results = [
      // steady: both sessions pass in all three runs.
      runsOf('t1', 'a', 1, [true, true, true]),
      runsOf('t1', 'a', 2, [true, true, true]),
      // flips: its second session fails in run 2 only, so the pair passes, fails, passes.
      runsOf('t2', 'a', 1, [true, true, true]),
      runsOf('t2', 'a', 2, [true, false, true]),
      // two sessions flip, but one of them fails in every run: the pair fails every run, a steady verdict.
      runsOf('t3', 'a', 1, [false, true, false]),
      runsOf('t3', 'a', 2, [true, false, true]),
      // the same task with another app is another pair.
      runsOf('t3', 'b', 1, [true, true, true]),
    ];
    const report = summariseFlaky(results, 'repeat');
    expect(report.candidates).toBe(7);
    expect(report.flipRate).toBeCloseTo(3 / 7, 12);
    expect(report.pairs).toBe(4);
    expect(report.pairFlipRate).toBe(1 / 4);
  });
});
