/**
 * The ranking benchmark (issue 13): `rankSweeps` with 10,000 task-stratified bootstrap resamples on sweeps of
 * the default suite's size (15 tasks × 4 scenes × 3 seeds × 2 hands) and of a fleet's (100 tasks), for 3 and 10
 * candidates. The figure is resampled session-candidate scores per second: the bootstrap's inner loop.
 */
import { rankSweeps, type SessionResult } from '../src/index.js';
import { median, round, seconds } from './stats.js';

/** A candidate's results with scores from a hash of (candidate, task, slot): no Math.random. */
function synthetic(candidate: number, tasks: number, slots: number): SessionResult[] {
  const results: SessionResult[] = [];
  for (let t = 0; t < tasks; t++) {
    for (let s = 0; s < slots; s++) {
      const h = (Math.imul(candidate * 7919 + t * 104729 + s, 2654435761) >>> 0) % 1000;
      const score = h < 700 ? 1 : Math.round((h / 1000) * 4) / 4;
      results.push({ task: `task-${t}`, app: null, scene: `scene-${s % 4}`, seed: (s >> 3) + 1, hand: s & 4 ? 'left' : 'right', ticks: 1, status: score === 1 ? 'passed' : 'failed', score, hash: '', milestones: [], stream: null, modelHash: '', appErrors: 0, firstAppError: null });
    }
  }
  return results;
}

export async function rankBenchmark(progress: (line: string) => void) {
  const cases = [
    { tasks: 15, candidates: 3 },
    { tasks: 15, candidates: 10 },
    { tasks: 100, candidates: 10 },
  ];
  const slots = 4 * 3 * 2;
  const details = [];
  for (const c of cases) {
    const candidates = Array.from({ length: c.candidates }, (_, i) => ({ name: `c${i}`, results: synthetic(i, c.tasks, slots) }));
    const runs: number[] = [];
    for (let trial = 0; trial < 5; trial++) runs.push(await seconds(() => rankSweeps(candidates, { resamples: 10_000, seed: trial + 1 })));
    const s = median(runs);
    const perSecond = (10_000 * c.tasks * slots * c.candidates) / s;
    details.push({ ...c, sessions: c.tasks * slots, resamples: 10_000, ms: round(s * 1000), resampledScoresPerSecond: round(perSecond) });
    progress(`${c.tasks} tasks × ${slots} sessions, ${c.candidates} candidates, 10,000 resamples: ${round(s * 1000)} ms`);
  }
  return {
    details,
    summary: {
      rank_suite_3_candidates_ms: details[0].ms,
      rank_suite_10_candidates_ms: details[1].ms,
      rank_fleet_10_candidates_ms: details[2].ms,
      rank_resampled_scores_per_s: details[2].resampledScoresPerSecond,
    },
  };
}
