/**
 * Comparing two sweeps (a baseline A and a candidate B): sessions are matched by what they ran (task, app,
 * scene, seed, hand), so the same matrix run by two builds lines up whatever its keys.
 */
import type { SessionResult } from '../session/result.js';

/** A session seen in both sweeps. */
export interface ComparedSession {
  session: string;
  before: SessionResult['status'];
  after: SessionResult['status'];
  /** Milestones that went from pass to fail (regressions) or fail to pass (fixes). */
  lost: string[];
  gained: string[];
}

/** A milestone whose score moved. */
export interface ScoreChange {
  session: string;
  milestone: string;
  before: number;
  after: number;
}

/** What changed from A to B. */
export interface SweepComparison {
  /** Passed in A, not in B (failed, or errored). */
  regressions: ComparedSession[];
  /** Not passed in A, passed in B. */
  fixes: ComparedSession[];
  /** Errored in B but not in A. */
  newErrored: ComparedSession[];
  scoreChanges: ScoreChange[];
  /** Sessions in only one of them. */
  onlyInA: string[];
  onlyInB: string[];
  matched: number;
}

/** How a session is named across sweeps. */
export function sessionIdentity(r: SessionResult): string {
  return `${r.task}${r.app ? ` [${r.app}]` : ''} · ${r.scene} · seed ${r.seed} · ${r.hand}`;
}

/** Compares two sweeps' results. */
export function compareSweeps(a: readonly SessionResult[], b: readonly SessionResult[]): SweepComparison {
  const before = new Map(a.map((r) => [sessionIdentity(r), r]));
  const after = new Map(b.map((r) => [sessionIdentity(r), r]));
  const out: SweepComparison = { regressions: [], fixes: [], newErrored: [], scoreChanges: [], onlyInA: [], onlyInB: [], matched: 0 };
  for (const [id, ra] of [...before].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const rb = after.get(id);
    if (!rb) {
      out.onlyInA.push(id);
      continue;
    }
    out.matched++;
    const milestonesA = new Map(ra.milestones.map((m) => [m.id, m]));
    const lost: string[] = [];
    const gained: string[] = [];
    for (const mb of rb.milestones) {
      const ma = milestonesA.get(mb.id);
      if (!ma) continue;
      if (ma.passed && !mb.passed) lost.push(mb.id);
      if (!ma.passed && mb.passed) gained.push(mb.id);
      if (Math.abs(ma.score - mb.score) > 1e-9) out.scoreChanges.push({ session: id, milestone: mb.id, before: ma.score, after: mb.score });
    }
    const row: ComparedSession = { session: id, before: ra.status, after: rb.status, lost, gained };
    if (ra.status === 'passed' && rb.status !== 'passed') out.regressions.push(row);
    if (ra.status !== 'passed' && rb.status === 'passed') out.fixes.push(row);
    if (rb.status === 'errored' && ra.status !== 'errored') out.newErrored.push(row);
  }
  for (const id of after.keys()) if (!before.has(id)) out.onlyInB.push(id);
  out.onlyInB.sort();
  return out;
}
