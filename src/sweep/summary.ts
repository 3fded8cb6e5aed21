/**
 * Running summaries of a sweep: counts per task and per milestone, updated one result at a time. Their
 * size depends on the number of tasks and milestones, never on the number of sessions.
 */
import type { SessionResult } from '../session/result.js';

/** Per-task summary. */
export interface TaskSummary {
  task: string;
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  passRate: number;
  meanScore: number;
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
  tasks: TaskSummary[];
  milestones: MilestoneSummary[];
}

interface TaskCounts {
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  scoreSum: number;
  milestones: Map<string, { sessions: number; passed: number }>;
}

/** Counts that grow with tasks and milestones only. */
export class SweepTally {
  private readonly tasks = new Map<string, TaskCounts>();

  /** `taskOrder`: tasks in the order summaries list them (matrix order); others follow as they come. */
  constructor(taskOrder: readonly string[] = []) {
    for (const task of taskOrder) this.countsOf(task);
  }

  add(result: SessionResult): void {
    const counts = this.countsOf(result.task);
    counts.sessions++;
    counts[result.status]++;
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
    const tasks = rows.map(([task, c]) => ({ task, sessions: c.sessions, passed: c.passed, failed: c.failed, errored: c.errored, passRate: c.passed / c.sessions, meanScore: c.scoreSum / c.sessions }));
    const milestones = rows.flatMap(([task, c]) => [...c.milestones].map(([milestone, m]) => ({ task, milestone, sessions: m.sessions, passed: m.passed, passRate: m.passed / m.sessions })));
    return { out, sessions: this.sum('sessions'), passed: this.sum('passed'), failed: this.failed, errored: this.errored, tasks, milestones };
  }

  private countsOf(task: string): TaskCounts {
    let counts = this.tasks.get(task);
    if (!counts) {
      counts = { sessions: 0, passed: 0, failed: 0, errored: 0, scoreSum: 0, milestones: new Map() };
      this.tasks.set(task, counts);
    }
    return counts;
  }

  private sum(field: 'sessions' | 'passed' | 'failed' | 'errored'): number {
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
