/**
 * What XR formulas share: the session's model and dominant hand, the decoded frame state (tags, app and
 * input events), subject readers, moments, windows and task-frame axis masks.
 */
import type { FrameView } from '../frame/frame.js';
import { rotateVec, quatConjugate } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { Handedness } from '../hand/side.js';
import type { AxesSpec, MilestoneSpec, Moment, Window } from '../task/types.js';
import { milestoneMoment } from '../task/requirements.js';
import { scoreMilestones, type Comparison } from './score.js';
import type { Validator } from './types.js';
import { axisMask } from './context.js';
import type { FrameState } from './frame-state.js';
import { subjectReader, type SubjectReader } from './subjects.js';

/** A session's validation context. */
export interface ValidatorContext {
  model: SimModel;
  dominantHand: Handedness;
  state: FrameState;
}

/** A reader for a subject. */
export function subject(ctx: ValidatorContext, ref: string): SubjectReader {
  return subjectReader(ref, { model: ctx.model, dominantHand: ctx.dominantHand, state: ctx.state });
}

/** An event name with `dominant`/`other` resolved to a side. */
export function eventName(ctx: ValidatorContext, name: string): string {
  const other = ctx.dominantHand === 'right' ? 'left' : 'right';
  return name.replace(/:dominant$/, `:${ctx.dominantHand}`).replace(/:other$/, `:${other}`);
}

/** Whether this frame holds an event of that (resolved) name. */
export function hasEvent(ctx: ValidatorContext, resolved: string): boolean {
  return ctx.state.events.some((e) => e.name === resolved);
}

/** The data of this frame's first event of that name, or undefined. */
export function eventData(ctx: ValidatorContext, resolved: string): unknown {
  return ctx.state.events.find((e) => e.name === resolved)?.data;
}

/** Whether `time` is inside the window (no window: always). */
export function inWindow(time: number, window: Window | undefined): boolean {
  return !window || (time >= window[0] - 1e-9 && time <= window[1] + 1e-9);
}

/**
 * Signals the frame where a moment happens: the first frame at or after a time, or with an event. A moment
 * that names a milestone (`milestone:<id>`, for `visual`) is known only after the session and never fires here.
 */
export function momentWatcher(ctx: ValidatorContext, at: Moment): (frame: FrameView) => boolean {
  if (milestoneMoment(at)) return () => false;
  let fired = false;
  const resolved = typeof at === 'string' ? eventName(ctx, at) : '';
  return (frame) => {
    if (fired) return false;
    fired = typeof at === 'number' ? frame.time >= at - 1e-9 : hasEvent(ctx, resolved);
    return fired;
  };
}

/** Which occurrences of an event moment a check measures (`schema.occurrence`). */
export type Occurrence = 'first' | 'each' | 'last' | number;

/**
 * Signals every frame of a moment that `occurrence` chooses to measure: the first (default), each one,
 * each one too for `last` (the caller keeps the latest), or only the Nth. Several events of the moment in
 * one frame are one occurrence. A time moment happens once, whatever `occurrence` says.
 */
export function occurrenceWatcher(ctx: ValidatorContext, at: Moment, occurrence: Occurrence = 'first'): (frame: FrameView) => boolean {
  if (typeof at === 'number' || occurrence === 'first') return momentWatcher(ctx, at);
  if (milestoneMoment(at)) return () => false;
  const resolved = eventName(ctx, at);
  let seen = 0;
  return () => {
    if (!hasEvent(ctx, resolved)) return false;
    seen++;
    return typeof occurrence === 'number' ? seen === occurrence : true;
  };
}

/**
 * Distance between two world points over the task-frame axes `axes`: Euclidean, or with `norm: 'max'` the
 * largest offset along any of them (a point is within d of a centre when it is inside the box of half-size d).
 */
export function axesDistance(ctx: ValidatorContext, a: Vec3, b: Vec3, axes: AxesSpec | undefined, norm: 'euclidean' | 'max' = 'euclidean'): number {
  const mask = axisMask(axes);
  const d = rotateVec(quatConjugate(ctx.model.taskFrame.rotation), [a[0] - b[0], a[1] - b[1], a[2] - b[2]]);
  if (norm === 'max') return Math.max(Math.abs(d[0] * mask[0]), Math.abs(d[1] * mask[1]), Math.abs(d[2] * mask[2]));
  return Math.hypot(d[0] * mask[0], d[1] * mask[1], d[2] * mask[2]);
}

/** A task-frame point in world coordinates. */
export function taskPoint(ctx: ValidatorContext, p: Vec3): Vec3 {
  const [fx, fy, fz] = ctx.model.taskFrame.position;
  const r = rotateVec(ctx.model.taskFrame.rotation, p);
  return [fx + r[0], fy + r[1], fz + r[2]];
}

/** A fixed task-frame point (as a reader that always finds it), or a subject reader. */
export function pointOrSubject(ctx: ValidatorContext, ref: string | Vec3): SubjectReader {
  if (typeof ref === 'string') return subject(ctx, ref);
  const position = taskPoint(ctx, ref);
  return () => ({ position, rotation: null });
}

/**
 * Keeps the measurement a check with `occurrence` scores: with `each`, the worst so far (the largest for
 * `atMost`, the smallest for `atLeast`, the farthest from `threshold` for `exactly`; an unmeasurable one,
 * Infinity, stays); otherwise the latest. `offer` returns whether `value` is now the one kept.
 */
export class OccurrenceMetric {
  metric = Infinity;
  measured = false;

  constructor(
    private readonly occurrence: Occurrence,
    private readonly pass: Comparison,
    private readonly threshold: number,
  ) {}

  offer(value: number): boolean {
    const badness = (m: number) => (this.pass === 'atMost' ? m : this.pass === 'atLeast' ? -m : Math.abs(m - this.threshold));
    const kept = !this.measured || this.occurrence !== 'each' || !Number.isFinite(value) || (Number.isFinite(this.metric) && badness(value) > badness(this.metric));
    if (kept) this.metric = value;
    this.measured = true;
    return kept;
  }
}

/** Evidence ticks a check with `occurrence: each` keeps (the worst occurrence's tick is always first). */
const MAX_EVIDENCE_TICKS = 64;

/**
 * A validator whose metric is measured at a moment: `measure(frame)` gives it, or null when it cannot be
 * measured then (a subject absent, which fails). With `occurrence` (`schema.occurrence`) it is measured at
 * the first occurrence (default), the Nth, the last, or each: then the worst counts (the largest for
 * `atMost`, the smallest for `atLeast`, the farthest from the first threshold for `exactly`), and a moment
 * that never comes fails, as for one occurrence. The measured ticks are the evidence, the worst first.
 */
export function momentValidator(
  formula: string,
  ctx: ValidatorContext,
  at: Moment,
  milestones: readonly MilestoneSpec[],
  pass: Comparison,
  measure: (frame: FrameView) => number | null,
  occurrence: Occurrence = 'first',
): Validator {
  const moment = occurrenceWatcher(ctx, at, occurrence);
  const kept = new OccurrenceMetric(occurrence, pass, milestones[0]?.threshold ?? 0);
  const ticks: number[] = [];
  let last: FrameView | null = null;
  return {
    observe(frame) {
      last = frame;
      if (!moment(frame)) return;
      if (occurrence !== 'each') ticks.length = 0;
      if (kept.offer(measure(frame) ?? Infinity)) ticks.unshift(frame.tick);
      else if (ticks.length < MAX_EVIDENCE_TICKS) ticks.push(frame.tick);
      if (ticks.length > MAX_EVIDENCE_TICKS) ticks.length = MAX_EVIDENCE_TICKS;
    },
    finish() {
      return scoreMilestones(formula, milestones, kept.metric, pass, ticks);
    },
    trace: () => (last ? measure(last) : null),
  };
}
