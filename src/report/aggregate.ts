/**
 * What the HTML report shows of a sweep, gathered in two streaming passes over its results: the pass matrix,
 * per-milestone pass rates and metric histograms, errors by kind, the slowest sessions, and the first and
 * the worst failures in full. Memory depends on the numbers of tasks, scenes and milestones and on the
 * number of failures shown, never on the number of sessions.
 */
import type { SessionResult } from '../session/result.js';
import { DesignAggregate } from './design-section.js';

/** Results that can be read more than once (each call starts a new pass): a list, or a results file. */
export type ResultSource = () => Iterable<SessionResult & { seconds?: number }>;

/** Failures shown in full, of each kind (first and worst). */
export const FAILURES_SHOWN = 20;
/** Bins of each milestone's histogram. */
export const HISTOGRAM_BINS = 12;

/** Counts of one cell of the pass matrix. */
export interface CellCounts {
  passed: number;
  failed: number;
  errored: number;
}

/** A milestone's metric over the sessions that scored it. */
export interface MilestoneAggregate {
  task: string;
  milestone: string;
  sessions: number;
  passed: number;
  /** Sessions whose metric was never measured. */
  never: number;
  threshold: number;
  comparison: string;
  /** Histogram of the measured metrics: `counts[i]` covers `[lo + i·w, lo + (i+1)·w)`, w = (hi − lo) / bins. */
  histogram: { lo: number; hi: number; counts: number[] };
}

/** Everything the report draws. */
export interface SweepAggregate {
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  /** Sum of the sessions' wall seconds (when results carry them). */
  seconds: number;
  /** Rows `task · app`, columns `scene · hand`, sorted. */
  rows: string[];
  columns: string[];
  cells: Map<string, Map<string, CellCounts>>;
  /** Per app (a candidate), per task: whether every session passed (Pass@1's verdict), and its sessions passed. */
  apps: Map<string, { sessions: number; passed: number; tasks: Map<string, boolean> }>;
  milestones: MilestoneAggregate[];
  erroredByKind: Map<string, number>;
  /** Failed and errored sessions, first by identity (task, app, scene, seed, hand). */
  firstFailures: SessionResult[];
  /** Failed sessions with the lowest scores. */
  worstFailures: SessionResult[];
  slowest: (SessionResult & { seconds?: number })[];
  /** Sessions with a video (`sweep --videos`), first by identity, at most {@link VIDEOS_SHOWN}. */
  videos: SessionResult[];
  /** How many sessions have a video. */
  videoCount: number;
  /** The design ratings by task and app. */
  design: DesignAggregate;
}

/** Videos the report embeds (the rest are listed by count: they sit beside their streams). */
export const VIDEOS_SHOWN = 24;

/** `task · app`, `scene · hand`. */
const rowOf = (r: SessionResult) => (r.app ? `${r.task} · ${r.app}` : r.task);
const columnOf = (r: SessionResult) => `${r.scene} · ${r.hand}`;

/** Orders sessions by what they ran. */
export function compareIdentity(a: SessionResult, b: SessionResult): number {
  const keys = (r: SessionResult): (string | number)[] => [r.task, r.app ?? '', r.scene, r.seed, r.hand];
  const ka = keys(a);
  const kb = keys(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

/** Reads the results twice (totals and ranges, then histograms) and returns the report's data. */
export function aggregateResults(source: ResultSource): SweepAggregate {
  const agg: SweepAggregate = { sessions: 0, passed: 0, failed: 0, errored: 0, seconds: 0, rows: [], columns: [], cells: new Map(), apps: new Map(), milestones: [], erroredByKind: new Map(), firstFailures: [], worstFailures: [], slowest: [], videos: [], videoCount: 0, design: new DesignAggregate() };
  const columns = new Set<string>();
  const milestones = new Map<string, MilestoneAggregate & { min: number; max: number }>();
  const byScore = (a: SessionResult, b: SessionResult) => a.score - b.score || compareIdentity(a, b);
  const bySlowness = (a: SessionResult & { seconds?: number }, b: SessionResult & { seconds?: number }) => (b.seconds ?? 0) - (a.seconds ?? 0) || compareIdentity(a, b);
  for (const r of source()) {
    agg.sessions++;
    agg[r.status]++;
    agg.seconds += r.seconds ?? 0;
    const row = rowOf(r);
    const column = columnOf(r);
    columns.add(column);
    let cells = agg.cells.get(row);
    if (!cells) agg.cells.set(row, (cells = new Map()));
    const cell = cells.get(column) ?? { passed: 0, failed: 0, errored: 0 };
    cell[r.status]++;
    cells.set(column, cell);
    agg.design.add(row, r);
    const app = agg.apps.get(r.app ?? '') ?? { sessions: 0, passed: 0, tasks: new Map<string, boolean>() };
    app.sessions++;
    if (r.status === 'passed') app.passed++;
    app.tasks.set(r.task, (app.tasks.get(r.task) ?? true) && r.status === 'passed');
    agg.apps.set(r.app ?? '', app);
    if (r.status === 'errored') agg.erroredByKind.set(r.error?.kind ?? 'crash', (agg.erroredByKind.get(r.error?.kind ?? 'crash') ?? 0) + 1);
    if (r.status !== 'passed') keepBest(agg.firstFailures, r, compareIdentity);
    if (r.status === 'failed') keepBest(agg.worstFailures, r, byScore);
    if (r.seconds !== undefined) keepBest(agg.slowest, r, bySlowness, 10);
    if (r.video) {
      agg.videoCount++;
      keepBest(agg.videos, r, compareIdentity, VIDEOS_SHOWN);
    }
    for (const m of r.milestones) {
      const key = `${r.task}\u0000${m.id}`;
      let entry = milestones.get(key);
      if (!entry) {
        entry = { task: r.task, milestone: m.id, sessions: 0, passed: 0, never: 0, threshold: m.threshold, comparison: m.comparison, histogram: { lo: 0, hi: 1, counts: new Array<number>(HISTOGRAM_BINS).fill(0) }, min: Infinity, max: -Infinity };
        milestones.set(key, entry);
      }
      entry.sessions++;
      if (m.passed) entry.passed++;
      if (m.metric === null || !Number.isFinite(m.metric)) entry.never++;
      else {
        entry.min = Math.min(entry.min, m.metric);
        entry.max = Math.max(entry.max, m.metric);
      }
    }
  }
  for (const entry of milestones.values()) entry.histogram = binsFor(entry.min, entry.max, entry.threshold);
  for (const r of source()) {
    for (const m of r.milestones) {
      if (m.metric === null || !Number.isFinite(m.metric)) continue;
      const { histogram } = milestones.get(`${r.task}\u0000${m.id}`)!;
      const bin = Math.floor(((m.metric - histogram.lo) / (histogram.hi - histogram.lo)) * HISTOGRAM_BINS);
      histogram.counts[Math.max(0, Math.min(HISTOGRAM_BINS - 1, bin))]++;
    }
  }
  agg.rows = [...agg.cells.keys()].sort();
  agg.columns = [...columns].sort();
  agg.milestones = [...milestones.values()].map(({ min: _min, max: _max, ...m }) => m);
  return agg;
}

/** The histogram's range: the metrics' range widened to include the threshold, with a margin, never empty. */
function binsFor(min: number, max: number, threshold: number): MilestoneAggregate['histogram'] {
  let lo = Math.min(Number.isFinite(min) ? min : threshold, threshold);
  let hi = Math.max(Number.isFinite(max) ? max : threshold, threshold);
  if (!(hi > lo)) [lo, hi] = [lo - 1, hi + 1];
  const margin = (hi - lo) * 0.05;
  return { lo: lo - margin, hi: hi + margin, counts: new Array<number>(HISTOGRAM_BINS).fill(0) };
}

/** Keeps the `limit` smallest items under `order` in `list`, sorted. */
function keepBest<T>(list: T[], item: T, order: (a: T, b: T) => number, limit = FAILURES_SHOWN): void {
  if (list.length === limit && order(item, list[limit - 1]) >= 0) return;
  let i = list.length;
  while (i > 0 && order(item, list[i - 1]) < 0) i--;
  list.splice(i, 0, item);
  if (list.length > limit) list.pop();
}
