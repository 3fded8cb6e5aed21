/**
 * XR formulas on motion: sampled displacement, RMS error, follow error, distance at a moment, speed after
 * a moment, and presence.
 */
import type { FrameView } from '../frame/frame.js';
import { rotateVec } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { DisplacementValidatorSpec, DistanceAtValidatorSpec, FollowValidatorSpec, PresenceValidatorSpec, RmsValidatorSpec, SpeedValidatorSpec } from '../task/types.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { axesDistance, eventName, hasEvent, inWindow, momentValidator, momentWatcher, pointOrSubject, subject, type ValidatorContext } from './xr-context.js';

const dist = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** `displacement`: how far a subject moved between two sampled times. */
export function displacementValidator(spec: DisplacementValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  let start: Vec3 | null = null;
  let end: Vec3 | null = null;
  const ticks: number[] = [];
  const atFrom = momentWatcher(ctx, spec.from);
  const atTo = momentWatcher(ctx, spec.to);
  let now: Vec3 | null = null;
  return {
    trace: () => (start && now ? axesDistance(ctx, start, now, spec.axes) : null),
    observe(frame) {
      now = read(frame)?.position ?? null;
      if (atFrom(frame)) {
        start = read(frame)?.position ?? null;
        ticks.push(frame.tick);
      }
      if (atTo(frame)) {
        end = read(frame)?.position ?? null;
        ticks.push(frame.tick);
      }
    },
    finish() {
      let metric = start && end ? axesDistance(ctx, start, end, spec.axes) : Infinity;
      if (start && end && spec.along) {
        const along = rotateVec(ctx.model.taskFrame.rotation, spec.along);
        const norm = Math.hypot(along[0], along[1], along[2]) || 1;
        metric = ((end[0] - start[0]) * along[0] + (end[1] - start[1]) * along[1] + (end[2] - start[2]) * along[2]) / norm;
      }
      return scoreMilestones('displacement', spec.milestones, metric, spec.pass ?? 'atMost', ticks);
    },
  };
}

/** `rms`: RMS distance between a subject and a reference over a window. */
export function rmsValidator(spec: RmsValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  const reference = pointOrSubject(ctx, spec.reference);
  let sum = 0;
  let n = 0;
  let worst = -1;
  let worstTick = -1;
  let current: number | null = null;
  return {
    trace: () => current,
    observe(frame) {
      current = null;
      if (!inWindow(frame.time, spec.window)) return;
      const a = read(frame);
      const b = reference(frame);
      if (!a || !b) return;
      const d = axesDistance(ctx, a.position, b.position, spec.axes);
      current = d;
      sum += d * d;
      n++;
      if (d > worst) [worst, worstTick] = [d, frame.tick];
    },
    finish() {
      return scoreMilestones('rms', spec.milestones, n > 0 ? Math.sqrt(sum / n) : Infinity, 'atMost', worstTick >= 0 ? [worstTick] : []);
    },
  };
}

/** `follow`: how far a subject strays from a leader while it should follow it. */
export function followValidator(spec: FollowValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  const lead = subject(ctx, spec.leader);
  const [startEvent, endEvent] = spec.between ? spec.between.map((e) => eventName(ctx, e)) : ['', ''];
  let active = !spec.between;
  let offset: Vec3 | null = null;
  let worst = 0;
  let worstTick = -1;
  let sum = 0;
  let n = 0;
  let current: number | null = null;
  return {
    trace: () => current,
    observe(frame: FrameView) {
      current = null;
      if (spec.between) {
        if (hasEvent(ctx, startEvent)) {
          active = true;
          offset = null;
        }
        if (hasEvent(ctx, endEvent)) active = false;
      }
      if (!active || !inWindow(frame.time, spec.window)) return;
      const a = read(frame);
      const b = lead(frame);
      if (!a || !b) return;
      const rel: Vec3 = [a.position[0] - b.position[0], a.position[1] - b.position[1], a.position[2] - b.position[2]];
      if (spec.offset === 'initial' && !offset) offset = rel;
      const e = offset ? dist(rel, offset) : Math.hypot(rel[0], rel[1], rel[2]);
      current = e;
      sum += e * e;
      n++;
      if (e > worst || worstTick < 0) [worst, worstTick] = [e, frame.tick];
    },
    finish() {
      const metric = n === 0 ? Infinity : spec.measure === 'rms' ? Math.sqrt(sum / n) : worst;
      return scoreMilestones('follow', spec.milestones, metric, 'atMost', worstTick >= 0 ? [worstTick] : []);
    },
  };
}

/** `distance-at`: distance between two subjects at a moment. */
export function distanceAtValidator(spec: DistanceAtValidatorSpec, ctx: ValidatorContext): Validator {
  const a = subject(ctx, spec.a);
  const b = pointOrSubject(ctx, spec.b);
  return momentValidator('distance-at', ctx, spec.at, spec.milestones, spec.pass ?? 'atMost', (frame) => {
    const pa = a(frame);
    const pb = b(frame);
    return pa && pb ? axesDistance(ctx, pa.position, pb.position, spec.axes) : null;
  });
}

/** `speed`: a subject's speed over `afterSeconds` following a moment. */
export function speedValidator(spec: SpeedValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  const moment = momentWatcher(ctx, spec.at);
  const after = spec.afterSeconds ?? 0.1;
  let start: { p: Vec3; t: number; tick: number } | null = null;
  let metric = Infinity;
  let endTick = -1;
  return {
    observe(frame) {
      if (moment(frame)) {
        const p = read(frame);
        if (p) start = { p: p.position, t: frame.time, tick: frame.tick };
      }
      if (start && endTick < 0 && frame.time >= start.t + after - 1e-9) {
        const p = read(frame);
        endTick = frame.tick;
        if (p) metric = dist(p.position, start.p) / (frame.time - start.t);
      }
    },
    finish() {
      return scoreMilestones('speed', spec.milestones, metric, spec.pass ?? 'atLeast', start ? [start.tick, endTick] : []);
    },
  };
}

/** `presence`: the fraction of a window's frames in which a subject exists. */
export function presenceValidator(spec: PresenceValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  let present = 0;
  let frames = 0;
  let lastTick = -1;
  let current: number | null = null;
  return {
    trace: () => current,
    observe(frame) {
      current = read(frame) ? 1 : 0;
      if (!inWindow(frame.time, spec.window)) return;
      frames++;
      if (current === 1) {
        present++;
        lastTick = frame.tick;
      }
    },
    finish() {
      return scoreMilestones('presence', spec.milestones, frames > 0 ? present / frames : Infinity, spec.pass ?? 'atLeast', lastTick >= 0 ? [lastTick] : []);
    },
  };
}
