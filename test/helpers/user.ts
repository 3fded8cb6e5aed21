/**
 * Sessions with a scripted user for the simulated-user tests.
 */
import { createSession, type Session, type SessionSpec, type TaskSpec } from '../../src/index.js';

/**
 * A task at the empty lab's bench: the task frame is the bench's `table-top` anchor (on the top surface),
 * and the user sits in front of it, facing it (a seated user reaches a table top comfortably).
 */
export function benchTask(extra: Partial<TaskSpec> = {}): TaskSpec {
  // A task needs a validator, and a validator needs a body: a marble parked in a corner of the bench.
  const marble = { id: 'none', mass: 0.01, friction: 0.5, restitution: 0, position: [0.2, 0.011, 0.12] as [number, number, number], shape: { type: 'sphere' as const, radius: 0.01 } };
  return {
    id: 'test/bench',
    title: 'user at the lab bench',
    scene: 'empty-lab',
    duration: 3,
    placement: { anchor: 'table-top', clear: [0.5, 0.35] },
    user: { posture: 'seated', start: { position: [0, 0, 0.35], yawDeg: 0 } },
    validators: [{ type: 'region', body: 'task:none', min: [0, 0, 0], max: [0, 0, 0], milestones: [{ id: 'none', threshold: 0 }] }],
    ...extra,
    bodies: [marble, ...(extra.bodies ?? [])],
  };
}

/** Starts a session of the bench task. */
export async function benchSession(spec: Partial<SessionSpec> = {}, task: Partial<TaskSpec> = {}): Promise<Session> {
  return createSession({ task: benchTask(task), seed: 1, ...spec });
}

/** Steps until `seconds` of simulated time have passed, calling `each` with every new frame's tick. */
export function stepFor(session: Session, seconds: number, each?: (tick: number) => void): void {
  const end = session.tick + Math.round(seconds / session.model.timing.dt);
  while (session.tick < end) {
    session.step();
    each?.(session.tick);
  }
}
