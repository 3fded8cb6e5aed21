/**
 * XR formulas on motion: sampled displacement, RMS error, follow error, distance at a moment, speed after
 * a moment, and presence.
 */
import type { FrameView } from '../frame/frame.js';
import { rotateVec } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { axesDistance, eventName, hasEvent, inWindow, momentValidator, momentWatcher, OccurrenceMetric, occurrenceWatcher, pointOrSubject, subject, type ValidatorContext } from './xr-context.js';

/** Distance a subject moves between two times (sampled displacement). Metric: metres. */
export const displacement = defineFormula({
  type: 'displacement',
  description: 'Sampled displacement: how far a subject moved between two moments. Metric: metres.',
  options: {
    subject: schema.subject,
    from: schema.moment,
    to: schema.moment,
    axes: schema.axes,
    pass: schema.pass,
    along: { ...schema.vec3, description: 'A task-frame direction: the metric becomes the signed displacement along it.' },
  },
  required: ['subject', 'from', 'to'],
  frameState: true,
  create: (spec, ctx): Validator => displacementValidator(spec, ctx),
});
/** The options of `displacement`. */
export type DisplacementValidatorSpec = SpecOf<typeof displacement>;

/** RMS distance between a subject and a reference subject or task-frame point over a window. Metric: metres. */
export const rms = defineFormula({
  type: 'rms',
  description: 'RMS distance between a subject and a reference subject or task-frame point over a window. Metric: metres.',
  options: {
    subject: schema.subject,
    reference: { oneOf: [schema.subject, schema.vec3] },
    window: schema.window,
    axes: schema.axes,
  },
  required: ['subject', 'reference'],
  frameState: true,
  create: (spec, ctx): Validator => rmsValidator(spec, ctx),
});
/** The options of `rms`. */
export type RmsValidatorSpec = SpecOf<typeof rms>;

/**
 * Follow error between a subject and a leader (a hand joint) while both are present, during a window or
 * between two events. `offset: 'initial'` measures the change of their offset from its first sample
 * (a held object need not sit exactly on the joint); `none` (default) the distance itself. Metric: metres.
 */
export const follow = defineFormula({
  type: 'follow',
  description: 'Follow error between a subject and a leader while both are present, in a window or between two events. Metric: metres (max or RMS).',
  options: {
    subject: schema.subject,
    leader: schema.subject,
    window: schema.window,
    between: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
    offset: { enum: ['none', 'initial'] },
    measure: { enum: ['max', 'rms'] },
  },
  required: ['subject', 'leader'],
  frameState: true,
  create: (spec, ctx): Validator => followValidator(spec, ctx),
});
/** The options of `follow`. */
export type FollowValidatorSpec = SpecOf<typeof follow>;

/** Distance between two subjects (or a subject and a task-frame point) at a moment. Metric: metres. */
export const distanceAt = defineFormula({
  type: 'distance-at',
  description: 'Distance between two subjects, or a subject and a task-frame point, at a moment. Metric: metres.',
  options: {
    a: schema.subject,
    b: { oneOf: [schema.subject, schema.vec3] },
    at: schema.moment,
    occurrence: schema.occurrence,
    pass: schema.pass,
    axes: schema.axes,
    norm: {
      enum: ['euclidean', 'max'],
      description: '`euclidean` (default), or `max`: the largest offset along the axes, so that `atMost d` means inside a task-frame box of half-size d (a basket, a tray).',
    },
  },
  required: ['a', 'b', 'at'],
  frameState: true,
  create: (spec, ctx): Validator => distanceAtValidator(spec, ctx),
});
/** The options of `distance-at`. */
export type DistanceAtValidatorSpec = SpecOf<typeof distanceAt>;

/** Presence: the fraction of a window's frames in which a subject exists (a tag is published). */
export const presence = defineFormula({
  type: 'presence',
  description: 'Presence: the fraction of a window\'s frames in which a subject exists.',
  options: {
    subject: schema.subject,
    window: schema.window,
    pass: schema.pass,
  },
  required: ['subject'],
  frameState: true,
  create: (spec, ctx): Validator => presenceValidator(spec, ctx),
});
/** The options of `presence`. */
export type PresenceValidatorSpec = SpecOf<typeof presence>;

/** Speed of a subject shortly after a moment (finite differences over `afterSeconds`). Metric: m/s. */
export const speed = defineFormula({
  type: 'speed',
  description: 'Speed of a subject over afterSeconds following a moment. Metric: m/s.',
  options: {
    subject: schema.subject,
    at: schema.moment,
    occurrence: schema.occurrence,
    afterSeconds: { type: 'number', exclusiveMinimum: 0 },
    pass: schema.pass,
  },
  required: ['subject', 'at'],
  frameState: true,
  create: (spec, ctx): Validator => speedValidator(spec, ctx),
});
/** The options of `speed`. */
export type SpeedValidatorSpec = SpecOf<typeof speed>;

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
    return pa && pb ? axesDistance(ctx, pa.position, pb.position, spec.axes, spec.norm) : null;
  }, spec.occurrence);
}

/**
 * `speed`: a subject's speed over `afterSeconds` following a moment: its first occurrence, or with
 * `occurrence` the Nth, the last, or each one (the slowest counts for `atLeast`; an occurrence whose
 * window the session does not reach, or whose subject is absent, fails).
 */
export function speedValidator(spec: SpeedValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  const occurrence = spec.occurrence ?? 'first';
  const moment = occurrenceWatcher(ctx, spec.at, occurrence);
  const after = spec.afterSeconds ?? 0.1;
  const pass = spec.pass ?? 'atLeast';
  /** Occurrences whose window is still open: where and when the subject was at each. */
  const pending: { p: Vec3 | null; t: number; tick: number }[] = [];
  const kept = new OccurrenceMetric(occurrence, pass, spec.milestones[0]?.threshold ?? 0);
  let ticks: number[] = [];
  const keep = (value: number, startTick: number, endTick: number) => {
    if (kept.offer(value)) ticks = [startTick, endTick];
  };
  return {
    observe(frame) {
      if (moment(frame)) pending.push({ p: read(frame)?.position ?? null, t: frame.time, tick: frame.tick });
      while (pending.length > 0 && frame.time >= pending[0].t + after - 1e-9) {
        const start = pending.shift()!;
        const p = read(frame);
        keep(p && start.p ? dist(p.position, start.p) / (frame.time - start.t) : Infinity, start.tick, frame.tick);
      }
    },
    finish() {
      for (const start of pending) keep(Infinity, start.tick, -1);
      return scoreMilestones('speed', spec.milestones, kept.metric, pass, kept.measured ? ticks : []);
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
