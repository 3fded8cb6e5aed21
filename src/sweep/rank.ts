/**
 * Ranking candidates (one sweep folder each: a coding agent, a build) with confidence. Each candidate's score
 * is the mean over tasks of its mean session score in the task (every task weighs the same, as in
 * UnityBench-Mini3D), under partial credit (the fraction of milestones passed) and under binary full pass, and
 * its design score (1–5, `result.design`) over the tasks whose sessions have one (tasks with apps). Pass@1 is
 * as benchmarks define it: a (candidate, task) passes only when every session of it passed (every scene,
 * seed and hand), and a candidate's Pass@1 is the share of tasks it passed, its interval from resampling
 * the tasks themselves (the same draws for every candidate).
 *
 * Confidence comes from a seeded, task-stratified, paired bootstrap: each resample redraws, within every task,
 * that task's sessions (a scene, seed and hand) with replacement, and scores every candidate on the same
 * draws. The 95 % intervals are the resamples' 2.5th and 97.5th percentiles; the win probabilities and how
 * often each candidate ranks first or in the top three are counted over the same resamples.
 *
 * Sessions are matched across candidates by task, scene, seed and hand (not by app: each candidate brings its
 * own). Only sessions every candidate ran are scored; the rest are reported as unmatched. An errored session
 * (the harness could not complete it: an app that hangs, a crash) scores 0 and is counted apart.
 *
 * The bootstrap runs on typed arrays and allocates nothing per resample.
 */
import { stratifiedBootstrap } from '../../kernels/bootstrap.js';
import { Sfc32 } from '../../kernels/prng.js';
import { XrsimInputError } from '../errors.js';
import type { CandidateRank, Estimate, Ranking, RankMetric, TaskMeans } from '../report/rank-section.js';
import type { SessionResult } from '../session/result.js';

/** One candidate: a name and its sweep's results. */
export interface RankCandidate {
  name: string;
  results: readonly SessionResult[];
}

/** Options of {@link rankSweeps}. */
export interface RankOptions {
  /** Bootstrap resamples (at least 10,000; default 10,000). */
  resamples?: number;
  /** Seed of the resampling (default 1): the same inputs and seed give the same ranking. */
  seed?: number;
  /** The metric that orders candidates, wins and ranks: `partial` (default), `full-pass`, `pass@1` or `design`. */
  by?: RankMetric;
}

export type { CandidateRank, Estimate, Ranking, RankMetric, TaskMeans };

const MIN_RESAMPLES = 10_000;

/** A session's value under each metric: errored sessions score 0 (and the lowest design rating, 1). */
const PARTIAL = (r: SessionResult) => (r.status === 'errored' ? 0 : r.score);
const FULL_PASS = (r: SessionResult) => (r.status === 'passed' ? 1 : 0);
const DESIGN = (r: SessionResult) => (r.status === 'errored' ? 1 : (r.design?.score ?? 1));

/** Ranks candidates with bootstrap confidence. Throws {@link XrsimInputError} when nothing can be compared. */
export function rankSweeps(candidates: readonly RankCandidate[], options: RankOptions = {}): Ranking {
  const resamples = options.resamples ?? MIN_RESAMPLES;
  const seed = options.seed ?? 1;
  const metric = options.by ?? 'partial';
  if (!Number.isInteger(resamples) || resamples < MIN_RESAMPLES) {
    throw new XrsimInputError(`--resamples must be an integer of at least ${MIN_RESAMPLES}, got ${resamples}`, { expected: `${MIN_RESAMPLES} or more resamples` });
  }
  if (candidates.length < 2) throw new XrsimInputError(`ranking needs at least two candidates, got ${candidates.length}`, { expected: 'two or more sweep folders' });
  const names = new Set<string>();
  for (const c of candidates) {
    if (names.has(c.name)) throw new XrsimInputError(`two candidates are both named "${c.name}"`, { expected: 'distinct candidate names' });
    names.add(c.name);
  }
  const C = candidates.length;
  // Partial credit and full pass over every matched session; the design score over the tasks that have one
  // (sessions with apps), in a table of its own.
  const table = matchSessions(candidates, [PARTIAL, FULL_PASS]);
  const designTasks = new Set(candidates.flatMap((c) => c.results.filter((r) => r.design).map((r) => r.task)));
  const design = designTasks.size ? matchSessions(candidates, [DESIGN], (task) => designTasks.has(task)) : null;
  if (metric === 'design' && !design) {
    throw new XrsimInputError('--metric design: no session of any candidate has a design score (sessions with an app have one)', { expected: 'sweeps of tasks with apps' });
  }
  const scored = bootstrap(table, 2 * C, resamples, seed);
  const designScored = design ? bootstrap(design, C, resamples, seed) : null;
  const passes = taskPasses(table, C);
  const passScored = bootstrap(passes, C, resamples, seed);
  const { rankFirst, topThree, wins } =
    metric === 'design'
      ? standings(designScored!, C, 0, resamples, C)
      : metric === 'pass@1'
        ? standings(passScored, C, 0, resamples, C)
        : standings(scored, 2 * C, metric === 'partial' ? 0 : C, resamples, C);
  const estimate = (draws: Float64Array, means: Float64Array, K: number, j: number): Estimate => {
    const column = new Float64Array(resamples);
    for (let r = 0; r < resamples; r++) column[r] = draws[r * K + j];
    column.sort();
    return { mean: means[j], ci95: [percentile(column, 0.025), percentile(column, 0.975)] };
  };
  const rows = candidates.map((candidate, c) => ({
    index: c,
    rank: {
      name: candidate.name,
      rank: 0,
      sessions: table.slots,
      errored: table.errored[c],
      partial: estimate(scored, table.means, 2 * C, c),
      fullPass: estimate(scored, table.means, 2 * C, C + c),
      passAt1: estimate(passScored, passes.means, C, c),
      tasksPassed: passes.passed[c],
      design: design ? estimate(designScored!, design.means, C, c) : null,
      rankFirst: rankFirst[c] / resamples,
      topThree: topThree[c] / resamples,
    } satisfies CandidateRank,
  }));
  const key = (row: (typeof rows)[number]) => {
    const r = row.rank;
    return metric === 'partial' ? r.partial.mean : metric === 'full-pass' ? r.fullPass.mean : metric === 'pass@1' ? r.passAt1.mean : r.design!.mean;
  };
  rows.sort((a, b) => key(b) - key(a) || a.index - b.index);
  rows.forEach((row, i) => (row.rank.rank = i > 0 && key(rows[i - 1]) === key(row) ? rows[i - 1].rank.rank : i + 1));
  const designMeans = new Map(design?.tasks.map((task, k) => [task, design.taskMeans[k]]));
  return {
    metric,
    resamples,
    seed,
    candidates: rows.map((row) => row.rank),
    wins: rows.map((a) => rows.map((b) => (a === b ? 0.5 : wins[a.index * C + b.index] / resamples))),
    tasks: table.tasks.map((task, k): TaskMeans => ({
      task,
      sessions: table.counts[k],
      partial: rows.map((row) => table.taskMeans[k][row.index]),
      fullPass: rows.map((row) => table.taskMeans[k][C + row.index]),
      passed: rows.map((row) => passes.values[k * C + row.index] === 1),
      design: designMeans.has(task) ? rows.map((row) => designMeans.get(task)![row.index]) : null,
    })),
    unmatched: Object.fromEntries(candidates.map((c, i) => [c.name, table.unmatched[i]])),
  };
}

/** The resampled means of a table's K columns, per resample (K numbers each). */
function bootstrap(table: Pick<MatchedTable, 'values' | 'starts' | 'counts'>, K: number, resamples: number, seed: number): Float64Array {
  const draws = new Float64Array(resamples * K);
  const random = new Sfc32(0x9e3779b9 ^ seed, seed * 7919, 0x85ebca6b, 0xc2b2ae35 ^ (seed >>> 3));
  stratifiedBootstrap(table.values, K, table.starts, table.counts, resamples, random, draws, new Float64Array(K));
  return draws;
}

/**
 * Sessions matched across candidates, slot-major: per session, every candidate's value under the first
 * metric, then every candidate's under the next (metrics × candidates numbers). Sessions are grouped by task.
 */
interface MatchedTable {
  tasks: string[];
  /** Per task: its first session and how many it has. */
  starts: Int32Array;
  counts: Int32Array;
  slots: number;
  values: Float64Array;
  /** Per task, its mean of each column; and the mean over tasks of each column (the point estimates). */
  taskMeans: Float64Array[];
  means: Float64Array;
  errored: number[];
  unmatched: number[];
}

function matchSessions(candidates: readonly RankCandidate[], metrics: ((r: SessionResult) => number)[], keepTask: (task: string) => boolean = () => true): MatchedTable {
  const C = candidates.length;
  const K = metrics.length * C;
  const slotOf = (r: SessionResult) => `${r.task} · ${r.scene} · seed ${r.seed} · ${r.hand}`;
  const byCandidate = candidates.map((c) => new Map(c.results.map((r) => [slotOf(r), r])));
  const common = [...byCandidate[0].keys()].filter((slot) => byCandidate.every((m) => m.has(slot)) && keepTask(byCandidate[0].get(slot)!.task));
  if (common.length === 0) {
    throw new XrsimInputError('the candidates have no session in common (matched by task, scene, seed and hand)', { expected: 'sweeps of the same tasks, scenes, seeds and hands' });
  }
  const taskOf = (slot: string) => byCandidate[0].get(slot)!.task;
  // By task, then by session, in a fixed order whatever the order of the results files.
  common.sort((a, b) => (taskOf(a) < taskOf(b) ? -1 : taskOf(a) > taskOf(b) ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const tasks: string[] = [];
  const starts: number[] = [];
  common.forEach((slot, i) => {
    if (tasks[tasks.length - 1] !== taskOf(slot)) {
      tasks.push(taskOf(slot));
      starts.push(i);
    }
  });
  const counts = starts.map((start, k) => (k + 1 < starts.length ? starts[k + 1] : common.length) - start);
  const values = new Float64Array(common.length * K);
  const errored = candidates.map(() => 0);
  common.forEach((slot, s) => {
    byCandidate.forEach((map, c) => {
      const r = map.get(slot)!;
      if (r.status === 'errored') errored[c]++;
      metrics.forEach((value, m) => (values[s * K + m * C + c] = value(r)));
    });
  });
  const taskMeans = tasks.map((_, k) => {
    const sums = new Float64Array(K);
    for (let s = starts[k]; s < starts[k] + counts[k]; s++) for (let j = 0; j < K; j++) sums[j] += values[s * K + j];
    return sums.map((sum) => sum / counts[k]);
  });
  const means = new Float64Array(K);
  for (const m of taskMeans) for (let j = 0; j < K; j++) means[j] += m[j];
  for (let j = 0; j < K; j++) means[j] /= tasks.length;
  const unmatched = byCandidate.map((map) => map.size - common.length);
  return { tasks, starts: Int32Array.from(starts), counts: Int32Array.from(counts), slots: common.length, values, taskMeans, means, errored, unmatched };
}

/**
 * Per task and candidate, 1 when every matched session of the task passed (its full-pass mean is exactly 1:
 * a sum of ones divided by their count), else 0; one stratum of all the tasks, so a bootstrap redraws tasks.
 */
function taskPasses(table: MatchedTable, C: number): { values: Float64Array; starts: Int32Array; counts: Int32Array; means: Float64Array; passed: number[] } {
  const T = table.tasks.length;
  const values = new Float64Array(T * C);
  const passed = new Array<number>(C).fill(0);
  for (let k = 0; k < T; k++) {
    for (let c = 0; c < C; c++) {
      const pass = table.taskMeans[k][C + c] === 1 ? 1 : 0;
      values[k * C + c] = pass;
      passed[c] += pass;
    }
  }
  const means = Float64Array.from(passed, (n) => n / T);
  return { values, starts: Int32Array.of(0), counts: Int32Array.of(T), means, passed };
}

/**
 * Counts, over resamples, first places (ties share), top-three places and pairwise wins (ties count half), from
 * the C scores at `offset` in each resample's row of `stride` numbers.
 */
function standings(draws: Float64Array, stride: number, offset: number, resamples: number, C: number) {
  const rankFirst = new Float64Array(C);
  const topThree = new Float64Array(C);
  const wins = new Float64Array(C * C);
  for (let r = 0; r < resamples; r++) {
    const row = r * stride + offset;
    let best = -Infinity;
    let tied = 0;
    for (let c = 0; c < C; c++) {
      const v = draws[row + c];
      if (v > best) {
        best = v;
        tied = 1;
      } else if (v === best) tied++;
    }
    for (let a = 0; a < C; a++) {
      const va = draws[row + a];
      if (va === best) rankFirst[a] += 1 / tied;
      let better = 0;
      for (let b = 0; b < C; b++) {
        const vb = draws[row + b];
        if (vb > va) better++;
        else if (b !== a) wins[a * C + b] += va > vb ? 1 : 0.5;
      }
      if (better < 3) topThree[a]++;
    }
  }
  return { rankFirst, topThree, wins };
}

/** Linear-interpolated percentile of sorted values. */
function percentile(sorted: Float64Array, q: number): number {
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}
