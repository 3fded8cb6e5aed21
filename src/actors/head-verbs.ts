/**
 * Head verbs: move, look at (a target, followed every tick), walk and follow a path, turn.
 */
import { toWorld } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import { instant, nextTickTime, timed, type Action, type ActorContext } from './action.js';
import { asTarget, type Target } from './targets.js';

/** Gaze within this angle of its target counts as arrived. */
const LOOK_TOLERANCE = (2 * Math.PI) / 180;

/** The head verbs of a script. */
export interface HeadVerbs {
  /** Moves the eyes to a target (task-frame point or target) over `duration` seconds. */
  moveTo(target: Target | Vec3, options?: { duration?: number }): Action;
  /** Turns the gaze onto a target and keeps it there while the target moves; done once it is on it. */
  lookAt(target: Target | Vec3, options?: { timeout?: number }): Action;
  /** Walks along task-frame floor points at walking speed (or `speed`), looking where it goes. */
  walk(path: Vec3[], options?: { speed?: number }): Action;
  /** Walks along a path while looking at a target (or straight ahead). */
  follow(path: Vec3[], options?: { speed?: number; lookAt?: Target | Vec3 }): Action;
  /** Turns to a yaw (degrees, in the task frame: 0 faces its −Z) and pitch; done when settled. */
  turn(yawDeg: number, pitchDeg?: number): Action;
}

/** Yaw of the task frame about +Y (radians). */
function taskYaw(ctx: ActorContext): number {
  const [, y, , w] = ctx.model.taskFrame.rotation;
  return 2 * Math.atan2(y, w);
}

/** Angle between the head's forward axis and the direction to `point`. */
export function gazeError(ctx: ActorContext, point: Vec3): number {
  const head = ctx.simUser.head;
  const d = [point[0] - head.position[0], point[1] - head.position[1], point[2] - head.position[2]];
  const length = Math.hypot(d[0], d[1], d[2]) || 1;
  const f = [-Math.sin(head.yaw) * Math.cos(head.pitch), Math.sin(head.pitch), -Math.cos(head.yaw) * Math.cos(head.pitch)];
  return Math.acos(Math.max(-1, Math.min(1, (d[0] * f[0] + d[1] * f[1] + d[2] * f[2]) / length)));
}

/** Builds the head verbs. */
export function headVerbs(): HeadVerbs {
  const walkAction = (label: string, path: Vec3[], speed: number | undefined, look: Target | null): Action => {
    let duration = 0;
    let started = 0;
    const aim = (ctx: ActorContext) => {
      const r = look?.resolve(ctx);
      if (r) ctx.user.head.lookAt(r.point);
    };
    return {
      label,
      start(ctx) {
        duration = ctx.user.head.walk(path.map((p) => toWorld(ctx.model.taskFrame, p)), { speed });
        started = ctx.t;
        aim(ctx);
      },
      update(ctx) {
        aim(ctx);
        return ctx.t - started + 1e-9 >= duration ? 'done' : 'running';
      },
      quiet: (ctx) => (!look || look.steady === true) && !(nextTickTime(ctx) - started + 1e-9 >= duration),
    };
  };
  return {
    moveTo(target, options = {}) {
      const t = asTarget(target);
      const duration = options.duration ?? 1;
      return timed(`head.moveTo(${t.label})`, duration, (ctx) => {
        const r = t.resolve(ctx);
        if (r) ctx.user.head.moveTo(r.point, { duration });
      });
    },
    lookAt(target, options = {}) {
      const t = asTarget(target);
      const timeout = options.timeout ?? 3;
      return timed(`head.lookAt(${t.label})`, timeout, () => undefined, (ctx) => {
        const r = t.resolve(ctx);
        if (!r) return { failed: `${t.label} cannot be resolved` };
        ctx.user.head.lookAt(r.point);
        return gazeError(ctx, r.point) <= LOOK_TOLERANCE ? 'done' : 'running';
      });
    },
    walk: (path, options = {}) => walkAction(`head.walk(${path.length} points)`, path, options.speed, null),
    follow: (path, options = {}) => walkAction(`head.follow(${path.length} points)`, path, options.speed, options.lookAt ? asTarget(options.lookAt) : null),
    turn(yawDeg, pitchDeg = 0) {
      return timed(`head.turn(${yawDeg}, ${pitchDeg})`, 3, (ctx) => {
        ctx.user.head.lookAt(null);
        ctx.user.head.turnTo(yawDeg + (taskYaw(ctx) * 180) / Math.PI, pitchDeg);
      }, (ctx) => {
        const head = ctx.simUser.head;
        const yaw = ((yawDeg * Math.PI) / 180 + taskYaw(ctx));
        const dy = Math.abs(Math.atan2(Math.sin(head.yaw - yaw), Math.cos(head.yaw - yaw)));
        return dy < LOOK_TOLERANCE && Math.abs(head.pitch - (pitchDeg * Math.PI) / 180) < LOOK_TOLERANCE ? 'done' : 'running';
      });
    },
  };
}

/** An action that only stops the gaze from following anything. */
export function lookAhead(): Action {
  return instant('head.lookAhead()', (ctx) => ctx.user.head.lookAt(null));
}
