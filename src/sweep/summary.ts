/**
 * Running summaries of a sweep: counts per task and per milestone, updated one result at a time. Their
 * size depends on the number of tasks and milestones, never on the number of sessions.
 */
import type { SessionResult } from '../session/result.js';
import { isAsExpected } from './expectations.js';

/** The milestones a result's session was expected to fail ({@link expectedFailures}); none by default. */
export type ExpectationOf = (result: SessionResult) => readonly string[];

/** Per-task summary. */
export interface TaskSummary {
  task: string;
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  /** Sessions that did not do what their app is expected to (`sweep/expectations.ts`). */
  unexpected: number;
  passRate: number;
  meanScore: number;
}

/** Per-app summary: a candidate's share of the sweep (apps are named as results name them: a task's app, or a path). */
export interface AppSummary {
  /** The app's name or path; null for sessions of tasks without apps. */
  app: string | null;
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  /** Pass@1: of the tasks this app ran, how many passed every session. */
  passAt1: { passed: number; of: number };
}

/** Per-milestone summary over the sessions that scored it (errored sessions score none). */
export interface MilestoneSummary {
  task: string;
  milestone: string;
  sessions: number;
  passed: number;
  passRate: number;
}

/** What a finished sweep reports. */
export interface SweepSummary {
  out: string;
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  /** Sessions that did not do what their app is expected to: any but an expected pass or an expected failure. */
  unexpected: number;
  /** Failed sessions that failed exactly what their (adversarial) app is expected to fail. */
  failedAsExpected: number;
  /**
   * Pass@1 as benchmarks define it: of the (task, app) pairs swept, how many passed every session (every
   * scene, seed and hand). `xrsim rank --metric pass@1` gives it with an interval, across candidates.
   */
  passAt1: { passed: number; of: number };
  tasks: TaskSummary[];
  /** Per app (candidate), sorted by name or path. */
  apps: AppSummary[];
  milestones: MilestoneSummary[];
}

interface TaskCounts {
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  unexpected: number;
  failedAsExpected: number;
  scoreSum: number;
  milestones: Map<string, { sessions: number; passed: number }>;
}

/** Counts that grow with tasks and milestones only. */
export class SweepTally {
  private readonly tasks = new Map<string, TaskCounts>();
  /** Per (task, app): whether every session of it so far passed. As many as the matrix has pairs, not sessions. */
  private readonly pairs = new Map<string, { app: string | null; passed: boolean }>();
  private readonly apps = new Map<string | null, { sessions: number; passed: number; failed: number; errored: number }>();

  /**
   * `taskOrder`: tasks in the order summaries list them (matrix order); others follow as they come.
   * `expectationOf`: what each session's app is expected to fail (default: nothing, every session should pass).
   */
  constructor(
    taskOrder: readonly string[] = [],
    private readonly expectationOf: ExpectationOf = () => [],
  ) {
    for (const task of taskOrder) this.countsOf(task);
  }

  add(result: SessionResult): void {
    const counts = this.countsOf(result.task);
    counts.sessions++;
    counts[result.status]++;
    // One entry per (task, app), updated in place: the coordinator tallies every session of the sweep.
    const key = `${result.task}\u0000${result.app ?? ''}`;
    let pair = this.pairs.get(key);
    if (!pair) this.pairs.set(key, (pair = { app: result.app, passed: true }));
    if (result.status !== 'passed') pair.passed = false;
    let app = this.apps.get(result.app);
    if (!app) this.apps.set(result.app, (app = { sessions: 0, passed: 0, failed: 0, errored: 0 }));
    app.sessions++;
    app[result.status]++;
    if (!isAsExpected(result, this.expectationOf(result))) counts.unexpected++;
    else if (result.status === 'failed') counts.failedAsExpected++;
    counts.scoreSum += result.score;
    for (const m of result.milestones) {
      const entry = counts.milestones.get(m.id) ?? { sessions: 0, passed: 0 };
      entry.sessions++;
      if (m.passed) entry.passed++;
      counts.milestones.set(m.id, entry);
    }
  }

  get failed(): number {
    return this.sum('failed');
  }

  get errored(): number {
    return this.sum('errored');
  }

  summary(out: string): SweepSummary {
    const rows = [...this.tasks].filter(([, c]) => c.sessions > 0);
    const tasks = rows.map(([task, c]) => ({ task, sessions: c.sessions, passed: c.passed, failed: c.failed, errored: c.errored, unexpected: c.unexpected, passRate: c.passed / c.sessions, meanScore: c.scoreSum / c.sessions }));
    const milestones = rows.flatMap(([task, c]) => [...c.milestones].map(([milestone, m]) => ({ task, milestone, sessions: m.sessions, passed: m.passed, passRate: m.passed / m.sessions })));
    return { out, sessions: this.sum('sessions'), passed: this.sum('passed'), failed: this.failed, errored: this.errored, unexpected: this.sum('unexpected'), failedAsExpected: this.sum('failedAsExpected'), passAt1: this.passAt1(), tasks, apps: this.appSummaries(), milestones };
  }

  /** Per app, sorted by name (results come in completion order; the summary must not depend on it). */
  private appSummaries(): AppSummary[] {
    const order = (a: string | null) => a ?? '';
    const apps = [...this.apps].sort(([a], [b]) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    return apps.map(([app, c]) => ({ app, ...c, passAt1: this.passAt1(app) }));
  }

  /** Pass@1 over every (task, app) pair, or over one app's pairs. */
  private passAt1(app?: string | null): { passed: number; of: number } {
    let passed = 0;
    let of = 0;
    for (const pair of this.pairs.values()) {
      if (app !== undefined && pair.app !== app) continue;
      of++;
      if (pair.passed) passed++;
    }
    return { passed, of };
  }

  private countsOf(task: string): TaskCounts {
    let counts = this.tasks.get(task);
    if (!counts) {
      counts = { sessions: 0, passed: 0, failed: 0, errored: 0, unexpected: 0, failedAsExpected: 0, scoreSum: 0, milestones: new Map() };
      this.tasks.set(task, counts);
    }
    return counts;
  }

  private sum(field: 'sessions' | 'passed' | 'failed' | 'errored' | 'unexpected' | 'failedAsExpected'): number {
    let total = 0;
    for (const c of this.tasks.values()) total += c[field];
    return total;
  }
}

/** Per-task and overall counts of a list of results, in their order. */
export function summarise(out: string, results: Iterable<SessionResult>): SweepSummary {
  const tally = new SweepTally();
  for (const r of results) tally.add(r);
  return tally.summary(out);
}
