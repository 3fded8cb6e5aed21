/**
 * Time verbs: wait, and wait until a condition holds (failing, as an event, after a timeout).
 */
import type { Vec3 } from '../geometry/types.js';
import type { DetectedPlane } from '../sensing/planes.js';
import { nextTickTime, type Action, type ActorContext } from './action.js';

/** What an `until` predicate can look at. */
export interface ActorView {
  /** Simulated seconds. */
  readonly time: number;
  /** Where the app's object with this role is, or null. */
  tag(role: string): Vec3 | null;
  /** The detected planes. */
  planes(): DetectedPlane[];
  /** A dynamic body's position (`task:ball`, `scene:mug`). Throws for an unknown body. */
  body(ref: string): Vec3;
  /** How many times the app emitted an event of this name. */
  appEvents(name: string): number;
}

/** A view over the actor context. */
export function actorView(ctx: ActorContext): ActorView {
  return {
    time: ctx.t,
    tag: (role) => ctx.tags?.pose(role)?.position ?? null,
    planes: () => ctx.sensing.detectedPlanes(),
    body: (id) => ctx.bodyPosition(id),
    appEvents: (name) => ctx.appEventCount(name),
  };
}

/** Waits `seconds` of simulated time (±10 %, seeded, in perturbation mode). */
export function wait(seconds: number): Action {
  let duration = seconds;
  let started = 0;
  return {
    label: `wait(${seconds})`,
    start(ctx) {
      started = ctx.t;
      duration = ctx.jitter(seconds);
    },
    update: (ctx) => (ctx.t - started + 1e-9 >= duration ? 'done' : 'running'),
    quiet: (ctx) => !(nextTickTime(ctx) - started + 1e-9 >= duration),
  };
}

/** Waits until `predicate` holds; fails after `timeout` seconds (default 10). */
export function until(predicate: (view: ActorView) => boolean, options: { timeout?: number; label?: string } = {}): Action {
  const timeout = options.timeout ?? 10;
  let started = 0;
  return {
    label: `until(${options.label ?? 'condition'})`,
    start(ctx) {
      started = ctx.t;
    },
    update(ctx) {
      if (predicate(actorView(ctx))) return 'done';
      return ctx.t - started + 1e-9 >= timeout ? { failed: `timed out after ${timeout} s` } : 'running';
    },
  };
}
