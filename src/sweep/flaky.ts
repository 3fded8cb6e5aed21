/**
 * Flakiness studies: every session of a matrix run R times, and the verdicts compared.
 * - Repeat mode runs the identical spec R times: the kernel is deterministic, so nothing may flip, and
 *   the session hashes must agree.
 * - Perturbation mode runs it with R perturbation seeds (tremor, joint jitter, tracking and sensor noise,
 *   actor timing), keeping everything else (initial conditions, the app's random stream) fixed.
 * A candidate (one session of the matrix) flips on a milestone when its runs disagree on it; the flip rate
 * is the share of candidates that flip. The paper's flakiness is a level up: a (task, app) pair's verdict in a
 * run is whether every session of it passed in that run (Pass@1's verdict), and `pairFlipRate` is the share
 * of pairs whose verdict changes across runs.
 */
import { XrsimInputError } from '../errors.js';
import { loadTask } from '../task/load.js';
import type { FlakyRow } from '../report/html.js';
import type { SessionResult } from '../session/result.js';
import { checkTimeLimit, createSessionPool, resolveWorkerCount, type SessionExecutor } from '../session/pool.js';
import type { SessionSpec } from '../session/spec.js';
import { runBounded } from './bounded.js';
import { sessionIdentity } from './compare.js';
import { planMatrix, type SweepOptions } from './matrix.js';

/** Options of {@link runFlaky}. */
export interface FlakyOptions extends SweepOptions {
  /** Runs per session (default 3). */
  runs?: number;
  /** Perturbation mode (default: repeat mode). */
  perturb?: boolean;
  /** Worker processes of the study's own pool (default: one per core). */
  workers?: number;
  /** Runs the sessions instead of a pool of its own (see `runSweep`). */
  executor?: SessionExecutor;
  timeLimitSeconds?: number;
  onProgress?(done: number, total: number): void;
}

/** What a flakiness study found. */
export interface FlakyReport {
  mode: 'repeat' | 'perturbation';
  runs: number;
  candidates: number;
  /** Share of candidates whose overall verdict differs across runs. */
  flipRate: number;
  /** (task, app) pairs, and the share of them whose Pass@1 verdict (every session passed) differs across runs. */
  pairs: number;
  pairFlipRate: number;
  tasks: { task: string; candidates: number; flipped: number; flipRate: number }[];
  /** Milestones that flipped for at least one candidate, with one flipping candidate's runs. */
  milestones: (FlakyRow & { flipRate: number })[];
  /** Candidates whose session hashes differ across runs (only meaningful in repeat mode). */
  hashMismatches: string[];
  /** Every run's result, candidate by candidate. */
  results: SessionResult[][];
}

/** Sessions a flakiness study may run (it holds every result until it summarises them). */
export const MAX_FLAKY_SESSIONS = 1_000_000;

/** Runs a flakiness study. */
export async function runFlaky(options: FlakyOptions = {}): Promise<FlakyReport> {
  const runs = options.runs ?? 3;
  if (!Number.isInteger(runs) || runs < 2) throw new XrsimInputError(`runs must be an integer of at least 2, got ${runs}`, { expected: 'an integer ≥ 2' });
  const workers = options.executor ? undefined : resolveWorkerCount(options.workers).workers;
  const timeLimitSeconds = checkTimeLimit(options.timeLimitSeconds);
  const plan = planMatrix(options);
  if (plan.size * runs > MAX_FLAKY_SESSIONS) {
    throw new XrsimInputError(`a flakiness study keeps every run's result in memory: at most ${MAX_FLAKY_SESSIONS.toLocaleString('en')} sessions (sessions × runs), and this one has ${(plan.size * runs).toLocaleString('en')}`, {
      expected: 'fewer seeds, tasks, scenes or runs; or xrsim sweep, which runs any number of sessions in flat memory',
    });
  }
  const entries = [...plan.entries()];
  const jobs = function* (): Generator<{ candidate: number; run: number; spec: SessionSpec }> {
    for (let candidate = 0; candidate < entries.length; candidate++) {
      const entry = entries[candidate];
      const perturbation = options.perturb ? (loadTask(entry.spec.task).spec.user?.perturbation ?? true) : undefined;
      for (let run = 0; run < runs; run++) {
        const spec = options.perturb ? { ...entry.spec, user: { perturbation }, perturbationSeed: run + 1 } : entry.spec;
        yield { candidate, run, spec };
      }
    }
  };
  // A pool of its own unless the caller brings an executor (then the caller closes it).
  const ownPool = options.executor ? null : createSessionPool({ workers, timeLimitSeconds });
  const executor = options.executor ?? ownPool!;
  const results: SessionResult[][] = entries.map(() => new Array<SessionResult>(runs));
  let done = 0;
  try {
    const execute = async (job: { candidate: number; run: number; spec: SessionSpec }) => ({ job, result: (await executor.run(job.spec, { timeLimitSeconds })).result });
    for await (const { job, result } of runBounded(jobs(), () => executor.concurrency * 2 * (executor.jobsPerWorker ?? 1), execute)) {
      results[job.candidate][job.run] = result;
      options.onProgress?.(++done, entries.length * runs);
    }
    return summariseFlaky(results, options.perturb ? 'perturbation' : 'repeat');
  } finally {
    await ownPool?.close();
  }
}

/** Flip rates from each candidate's runs. */
export function summariseFlaky(results: SessionResult[][], mode: FlakyReport['mode']): FlakyReport {
  const byTask = new Map<string, { candidates: number; flipped: number }>();
  const byMilestone = new Map<string, FlakyReport['milestones'][number]>();
  let flippedCandidates = 0;
  const hashMismatches: string[] = [];
  /** Per (task, app): per run, whether every session of the pair passed in that run. */
  const pairVerdicts = new Map<string, boolean[]>();
  for (const runs of results) {
    const first = runs[0];
    const pair = `${first.task}\u0000${first.app ?? ''}`;
    const verdicts = pairVerdicts.get(pair) ?? runs.map(() => true);
    runs.forEach((r, run) => (verdicts[run] &&= r.status === 'passed'));
    pairVerdicts.set(pair, verdicts);
    const task = byTask.get(first.task) ?? { candidates: 0, flipped: 0 };
    task.candidates++;
    const verdictFlips = new Set(runs.map((r) => r.status)).size > 1;
    if (verdictFlips) {
      task.flipped++;
      flippedCandidates++;
    }
    byTask.set(first.task, task);
    if (new Set(runs.map((r) => r.hash)).size > 1) hashMismatches.push(sessionIdentity(first));
    for (const m of first.milestones) {
      const key = `${first.task}\u0000${m.id}`;
      const row = byMilestone.get(key) ?? { task: first.task, milestone: m.id, flipped: 0, candidates: 0, flipRate: 0, example: [] };
      row.candidates++;
      const outcomes = runs.map((r) => r.milestones.find((x) => x.id === m.id));
      if (new Set(outcomes.map((o) => o?.passed ?? false)).size > 1) {
        row.flipped++;
        if (row.example.length === 0) row.example = outcomes.map((o, run) => ({ run: run + 1, passed: o?.passed ?? false, metric: o?.metric ?? null, ticks: o?.ticks ?? [] }));
      }
      byMilestone.set(key, row);
    }
  }
  const milestones = [...byMilestone.values()].filter((r) => r.flipped > 0).map((r) => ({ ...r, flipRate: r.flipped / r.candidates }));
  return {
    mode,
    runs: results[0]?.length ?? 0,
    candidates: results.length,
    flipRate: results.length ? flippedCandidates / results.length : 0,
    pairs: pairVerdicts.size,
    pairFlipRate: pairVerdicts.size ? [...pairVerdicts.values()].filter((v) => new Set(v).size > 1).length / pairVerdicts.size : 0,
    tasks: [...byTask].map(([task, t]) => ({ task, ...t, flipRate: t.flipped / t.candidates })),
    milestones,
    hashMismatches,
    results,
  };
}
