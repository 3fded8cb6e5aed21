/**
 * Hand verbs: reach (closed loop: a moving target is followed), pose, pinch and release, grab and drop,
 * poke (approach along the surface normal, press to a depth, retract), trace a path, throw.
 */
import { rotateVec } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { HandPoint } from '../user/hand.js';
import type { Easing } from '../user/motion.js';
import type { SideRef } from '../hand/side.js';
import { nextTickTime, sequence, timed, type Action, type ActorContext } from './action.js';
import { asTarget, type Resolved, type Target } from './targets.js';

/** Length of a throwing swing (metres). */
const SWING = 0.22;
/** A re-resolved target that moved more than this is chased (metres). */
const RETARGET = 0.005;
/** A reach is done when the hand point is this close to the target after its duration (metres)... */
const ARRIVED = 0.02;
/** ...or this long after its duration anyway (an unreachable target stops at the edge of reach). */
const OVERTIME = 0.5;

/** Options of a reach. */
export interface ReachOptions {
  /** Which part of the hand goes to the target (default `index-tip`). */
  with?: HandPoint;
  /** Seconds (default 0.8). */
  duration?: number;
  /** Direction the palm faces, in the task frame, or `head` to face the user's eyes (default: natural). */
  palmFacing?: Vec3 | 'head';
  /** Direction the fingers point, in the task frame (with `palmFacing`). */
  fingersToward?: Vec3;
}

/** The verbs of one hand. */
export interface HandVerbs {
  reach(target: Target | Vec3, options?: ReachOptions): Action;
  /** Changes to a named pose (`grab` takes a diameter) over `duration` seconds (default 0.3). */
  pose(name: string, options?: { duration?: number; easing?: Easing; diameter?: number }): Action;
  /** Pinches fully (amount 1, the default) or partly (0 opens it) over `duration` seconds (default 0.25), as `user.hand(ref).pinch` does. */
  pinch(amount?: number, options?: { duration?: number }): Action;
  release(options?: { duration?: number }): Action;
  /** Reaches the target with the pinch point, then pinches it. */
  grab(target: Target | Vec3, options?: { duration?: number }): Action;
  /** Opens the pinch (lets go of what it holds). */
  drop(): Action;
  /** Presses a target with the index tip `depth` metres along its inward normal (negative: stops that far in front), then withdraws. */
  poke(target: Target | Vec3, options?: { depth?: number; approach?: number; pressSeconds?: number }): Action;
  /** Moves the chosen hand point through each point of a path at `speed` m/s. */
  trace(path: (Target | Vec3)[], options?: { with?: HandPoint; speed?: number }): Action;
  /** Swings the pinch point with `velocity` (task-frame axes, m/s) and opens the pinch at peak speed. */
  throw(velocity: Vec3): Action;
  /** Returns to rest in front of the body. */
  rest(options?: { duration?: number }): Action;
  /** Hand tracking on or off (an untracked hand reports no joints). */
  track(on: boolean): Action;
}

/** Builds the verbs of hand `ref`. */
export function handVerbs(ref: SideRef): HandVerbs {
  const name = `hand(${ref})`;
  const reach = (target: Target | Vec3, o: ReachOptions = {}, label = `${name}.reach`): Action => {
    const t = asTarget(target);
    const point = o.with ?? 'index-tip';
    const duration = o.duration ?? 0.8;
    let started = 0;
    let commanded: Vec3 = [0, 0, 0];
    const go = (ctx: ActorContext, r: Resolved, seconds: number) => {
      commanded = r.point;
      const frame = ctx.model.taskFrame.rotation;
      let palmFacing: Vec3 | undefined;
      if (o.palmFacing === 'head') {
        const h = ctx.simUser.head.position;
        palmFacing = [h[0] - r.point[0], h[1] - r.point[1], h[2] - r.point[2]];
      } else if (o.palmFacing) {
        palmFacing = rotateVec(frame, o.palmFacing);
      }
      const fingersToward = o.fingersToward ? rotateVec(frame, o.fingersToward) : undefined;
      ctx.user.hand(ref).moveTo({ point: r.point, with: point, palmFacing, fingersToward }, { duration: seconds });
    };
    return {
      label: `${label}(${t.label})`,
      start(ctx) {
        started = ctx.t;
        const r = t.resolve(ctx);
        if (r) go(ctx, r, duration);
      },
      update(ctx) {
        const r = t.resolve(ctx);
        if (!r) return { failed: `${t.label} cannot be resolved` };
        const elapsed = ctx.t - started;
        if (Math.hypot(r.point[0] - commanded[0], r.point[1] - commanded[1], r.point[2] - commanded[2]) > RETARGET) go(ctx, r, Math.max(0.2, duration - elapsed));
        if (elapsed + 1e-9 < duration) return 'running';
        const p = ctx.user.hand(ref).pointOf(point);
        const off = Math.hypot(p[0] - r.point[0], p[1] - r.point[1], p[2] - r.point[2]);
        return off <= ARRIVED || elapsed >= duration + OVERTIME ? 'done' : 'running';
      },
      quiet: (ctx) => t.steady === true && nextTickTime(ctx) - started + 1e-9 < duration,
    };
  };
  const pinch = (amount: number, duration: number, label: string) => timed(label, duration + 0.02, (ctx) => ctx.user.hand(ref).pinch(amount, { duration }));
  /** A target pushed along its normal (toward the user when it has none) by `distance`. */
  const along = (t: Target, distance: number): Target => ({
    label: `${t.label}${distance >= 0 ? '+' : ''}${distance}n`,
    steady: t.steady,
    resolve(ctx) {
      const r = t.resolve(ctx);
      if (!r) return null;
      const n = r.normal ?? towardHead(ctx, r.point);
      return { ...r, point: [r.point[0] + n[0] * distance, r.point[1] + n[1] * distance, r.point[2] + n[2] * distance] };
    },
  });
  return {
    reach: (target, options) => reach(target, options),
    pose: (pose, o = {}) => timed(`${name}.pose(${pose})`, (o.duration ?? 0.3) + 0.02, (ctx) => ctx.user.hand(ref).pose(pose, { duration: o.duration ?? 0.3, easing: o.easing, diameter: o.diameter })),
    pinch: (amount = 1, o = {}) => pinch(amount, o.duration ?? 0.25, amount === 1 ? `${name}.pinch()` : `${name}.pinch(${amount})`),
    release: (o = {}) => pinch(0, o.duration ?? 0.25, `${name}.release()`),
    grab: (target, o = {}) => sequence(`${name}.grab`, [reach(target, { with: 'pinch-point', duration: o.duration ?? 0.8 }, `${name}.grab`), pinch(1, 0.25, `${name}.pinch()`)]),
    drop: () => pinch(0, 0.1, `${name}.drop()`),
    poke(target, o = {}) {
      const t = asTarget(target);
      const approach = o.approach ?? 0.06;
      const press = o.pressSeconds ?? 0.3;
      // Pose, approach along the normal, press in, withdraw. A target that jumps during the press (a moving
      // button) is re-approached, as a person re-aims: up to three times.
      let phase = 0;
      let current: Action | null = null;
      let pressedAt: Vec3 | null = null;
      let attempts = 0;
      const phases = [
        () => timed(`${name}.pose(poke)`, 0.22, (ctx) => ctx.user.hand(ref).pose('poke', { duration: 0.2 })),
        () => reach(along(t, approach), { duration: 0.6 }),
        () => reach(along(t, -(o.depth ?? 0.01)), { duration: press }),
        () => reach(along(t, approach), { duration: press }),
      ];
      const enter = (ctx: ActorContext, k: number) => {
        phase = k;
        current = phases[k]();
        current.start(ctx);
        pressedAt = k === 2 ? (t.resolve(ctx)?.point ?? null) : pressedAt;
      };
      return {
        label: `${name}.poke(${t.label})`,
        start(ctx) {
          attempts = 0;
          enter(ctx, 0);
        },
        update(ctx) {
          for (;;) {
            if (phase === 2 && pressedAt && attempts < 3) {
              const now = t.resolve(ctx)?.point;
              if (now && Math.hypot(now[0] - pressedAt[0], now[1] - pressedAt[1], now[2] - pressedAt[2]) > 0.02) {
                attempts++;
                enter(ctx, 1);
              }
            }
            const status = current!.update(ctx);
            if (status !== 'done') return status;
            if (phase === phases.length - 1) return 'done';
            enter(ctx, phase + 1);
          }
        },
        quiet: (ctx) => t.steady === true && (current?.quiet?.(ctx) ?? false),
      };
    },
    trace(path, o = {}) {
      const speed = o.speed ?? 0.3;
      let previous: Vec3 | null = null;
      const steps = path.map((p) => {
        const t = asTarget(p);
        // Durations follow the task-frame distances between consecutive points (targets count 0.3 s).
        const here = Array.isArray(p) ? p : null;
        const seconds = here && previous ? Math.max(0.15, Math.hypot(here[0] - previous[0], here[1] - previous[1], here[2] - previous[2]) / speed) : 0.5;
        previous = here;
        return reach(t, { with: o.with ?? 'index-tip', duration: seconds });
      });
      return sequence(`${name}.trace(${path.length} points)`, steps);
    },
    throw(velocity) {
      // A minimum-jerk swing of length d over T peaks at 1.875·d/T, at T/2: release there. The swing is
      // SWING metres long (within any arm's reach), so faster throws are quicker swings.
      const speed = Math.hypot(velocity[0], velocity[1], velocity[2]);
      const T = Math.min(0.4, Math.max(0.05, (1.875 * SWING) / Math.max(speed, 1e-6)));
      let releaseAt = 0;
      let released = false;
      return timed(
        `${name}.throw(${velocity.join(', ')})`,
        T,
        (ctx) => {
          const v = rotateVec(ctx.model.taskFrame.rotation, velocity);
          const p = ctx.user.hand(ref).pointOf('pinch-point');
          const k = T / 1.875;
          ctx.user.hand(ref).moveTo({ point: [p[0] + v[0] * k, p[1] + v[1] * k, p[2] + v[2] * k], with: 'pinch-point' }, { duration: T });
          releaseAt = ctx.t + T / 2;
          released = false;
        },
        (ctx) => {
          if (!released && ctx.t + 1e-9 >= releaseAt) {
            ctx.user.hand(ref).pinch(0, { duration: 0.02 });
            released = true;
          }
        },
        true,
      );
    },
    rest: (o = {}) => timed(`${name}.rest()`, o.duration ?? 0.6, (ctx) => ctx.user.hand(ref).rest({ duration: o.duration ?? 0.6 })),
    track: (on) => timed(`${name}.track(${on})`, 0, (ctx) => ctx.user.hand(ref).setTracking(on)),
  };
}

/** Unit vector from a point toward the head. */
function towardHead(ctx: ActorContext, point: Vec3): Vec3 {
  const h = ctx.simUser.head.position;
  const d = [h[0] - point[0], h[1] - point[1], h[2] - point[2]];
  const length = Math.hypot(d[0], d[1], d[2]) || 1;
  return [d[0] / length, d[1] / length, d[2] / length];
}
