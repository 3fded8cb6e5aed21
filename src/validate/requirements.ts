/**
 * Milestone requirements (`requires` in a task's milestones): a milestone passes only when every
 * milestone it requires passed. A guard ("never more than five presses", "hidden once the palm turns
 * away") would otherwise pass whenever nothing happened at all, and an app that does nothing would earn
 * credit for it. When a requirement failed, the milestone fails too and earns no more than the weakest
 * requirement did, so real partial progress (three of five presses) still earns partial credit for the
 * guard, and no progress earns none. The loader has refused unknown ids and cycles (`task/requirements.ts`).
 */
import type { MilestoneSpec } from '../task/types.js';
import type { Milestone } from './types.js';

/** The most a milestone that did not pass can score (as in `score.ts`). */
const FAILED_SCORE_CAP = 0.99;

/**
 * Applies the task's requirements to its scored milestones (same ids as `specs`, in any order). Returns new
 * milestone objects where a requirement failed; the others are returned as they are.
 */
export function applyRequirements(milestones: readonly Milestone[], specs: readonly MilestoneSpec[]): Milestone[] {
  const requires = new Map<string, readonly string[]>();
  for (const spec of specs) if (spec.requires?.length) requires.set(spec.id, spec.requires);
  if (requires.size === 0) return [...milestones];
  const scored = new Map(milestones.map((m) => [m.id, m]));
  const settled = new Map<string, Milestone>();
  // Requirements form a DAG (the loader refuses cycles); settle each milestone after what it requires.
  const settle = (id: string): Milestone | undefined => {
    const done = settled.get(id);
    if (done) return done;
    const own = scored.get(id);
    if (!own) return undefined;
    const failed = (requires.get(id) ?? []).map(settle).filter((m): m is Milestone => m !== undefined && !m.passed);
    const result = failed.length === 0 ? own : {
      ...own,
      passed: false,
      score: Math.min(own.score, FAILED_SCORE_CAP, ...failed.map((m) => m.score)),
      note: `requires ${failed.map((m) => `"${m.id}"`).join(', ')}, which did not pass${own.note ? `; ${own.note}` : ''}`,
    };
    settled.set(id, result);
    return result;
  };
  return milestones.map((m) => settle(m.id)!);
}
