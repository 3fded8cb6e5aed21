/**
 * XR formulas on what the user sees and reaches: reach and comfort, visibility and occlusion from the
 * head, and the overlap of an app-reported rectangle with the one the user framed.
 */
import { yawFrameToWorldInto } from '../../kernels/quat.js';
import { castRay } from '../../kernels/ray-intersect.js';
import type { SceneGeometry } from '../../kernels/scene-geometry.js';
import type { FrameView } from '../frame/frame.js';
import { dot, quatAxes, sub, vecScale } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { buildSceneGeometry } from '../sensing/scene-geometry.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { eventData, eventName, hasEvent, inWindow, momentValidator, subject, type ValidatorContext } from './xr-context.js';

/** Reach and comfort at a moment: distance from the head or the shoulder, or angle from the gaze. */
export const comfort = defineFormula({
  type: 'comfort',
  description: 'Reach and comfort at a moment: distance from the head or the dominant shoulder (m), or angle from the gaze (degrees).',
  options: {
    subject: schema.subject,
    at: schema.moment,
    occurrence: schema.occurrence,
    measure: { enum: ['head-distance', 'shoulder-distance', 'gaze-angle'] },
    pass: schema.pass,
  },
  required: ['subject', 'at', 'measure'],
  frameState: true,
  create: (spec, ctx): Validator => comfortValidator(spec, ctx),
});
/** The options of `comfort`. */
export type ComfortValidatorSpec = SpecOf<typeof comfort>;

/** Visibility and occlusion from the head: fraction of the window the subject is in view and unoccluded. */
export const visible = defineFormula({
  type: 'visible',
  description: 'Visibility and occlusion from the head: the fraction of a window in which the subject is in view and not hidden by static surfaces.',
  options: {
    subject: schema.subject,
    window: schema.window,
    fovDeg: { type: 'number', exclusiveMinimum: 0, maximum: 180 },
    occlusion: { type: 'boolean' },
  },
  required: ['subject'],
  frameState: true,
  create: (spec, ctx): Validator => visibleValidator(spec, ctx),
});
/** The options of `visible`. */
export type VisibleValidatorSpec = SpecOf<typeof visible>;

/**
 * Overlap ratio (intersection over union), in the head's view plane, between the rectangle an app event
 * reports (`data.corners`: two world points) and the one two subjects span at that moment. Metric: IoU.
 */
export const overlap = defineFormula({
  type: 'overlap',
  description: 'Overlap ratio (IoU) in the head\'s view between the rectangle an app event reports (data.corners) and the one two subjects span then.',
  options: {
    event: { type: 'string', minLength: 1 },
    corners: { type: 'array', items: schema.subject, minItems: 2, maxItems: 2 },
  },
  required: ['event', 'corners'],
  frameState: true,
  create: (spec, ctx): Validator => overlapValidator(spec, ctx),
});
/** The options of `overlap`. */
export type OverlapValidatorSpec = SpecOf<typeof overlap>;

/** Scratch for the shoulder's position. */
const shoulder = new Float64Array(3);

/** The head's axes (right, up, forward) from its rotation: X, Y and −Z. */
function headAxes(q: Quat): { right: Vec3; up: Vec3; forward: Vec3 } {
  const { x, y, z } = quatAxes(q);
  return { right: x, up: y, forward: vecScale(z, -1) };
}

/** `comfort`: distance from the head or the shoulder, or angle from the gaze (degrees), at a moment. */
export function comfortValidator(spec: ComfortValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  const { shoulderOffset } = ctx.model.user;
  return momentValidator('comfort', ctx, spec.at, spec.milestones, spec.pass ?? 'atMost', (frame) => {
    const p = read(frame);
    if (!p) return null;
    const h = frame.channel('head')!;
    const head: Vec3 = [h[0], h[1], h[2]];
    const axes = headAxes([h[3], h[4], h[5], h[6]]);
    const d = sub(p.position, head);
    if (spec.measure === 'head-distance') return Math.hypot(d[0], d[1], d[2]);
    if (spec.measure === 'gaze-angle') return (Math.acos(Math.max(-1, Math.min(1, dot(d, axes.forward) / Math.hypot(d[0], d[1], d[2])))) * 180) / Math.PI;
    // The dominant shoulder, placed from the eyes in the body frame (the body turns with the head's yaw).
    const side = ctx.dominantHand === 'left' ? -1 : 1;
    const yaw = Math.atan2(-axes.forward[0], -axes.forward[2]);
    yawFrameToWorldInto(head, yaw, side * shoulderOffset[0], shoulderOffset[1], shoulderOffset[2], shoulder, 0);
    return Math.hypot(...sub(p.position, shoulder));
  }, spec.occurrence);
}

/** Whether a point is in the head's view (within half the field of view of its forward axis) and unoccluded. */
export function visibleFrom(head: Float32Array, point: Vec3, fovDeg: number, geometry: SceneGeometry | null): boolean {
  const axes = headAxes([head[3], head[4], head[5], head[6]]);
  const d: Vec3 = [point[0] - head[0], point[1] - head[1], point[2] - head[2]];
  const distance = Math.hypot(d[0], d[1], d[2]);
  if (distance < 1e-6) return true;
  if (dot(d, axes.forward) / distance < Math.cos((fovDeg * Math.PI) / 360)) return false;
  if (!geometry) return true;
  return castRay(geometry, 1, head[0], head[1], head[2], d[0] / distance, d[1] / distance, d[2] / distance, 0.01) >= distance - 0.02;
}

/** `visible`: the fraction of a window in which a subject is in view of the head and not hidden. */
export function visibleValidator(spec: VisibleValidatorSpec, ctx: ValidatorContext): Validator {
  const read = subject(ctx, spec.subject);
  const geometry = spec.occlusion === false ? null : buildSceneGeometry(ctx.model).geometry;
  let seen = 0;
  let frames = 0;
  let firstHidden = -1;
  let current: number | null = null;
  return {
    trace: () => current,
    observe(frame: FrameView) {
      current = null;
      if (!inWindow(frame.time, spec.window)) return;
      frames++;
      const p = read(frame);
      current = p && visibleFrom(frame.channel('head')!, p.position, spec.fovDeg ?? 90, geometry) ? 1 : 0;
      if (current === 1) seen++;
      else if (firstHidden < 0) firstHidden = frame.tick;
    },
    finish() {
      return scoreMilestones('visible', spec.milestones, frames > 0 ? seen / frames : Infinity, 'atLeast', firstHidden >= 0 ? [firstHidden] : []);
    },
  };
}

/** `overlap`: IoU, in the head's view plane, of an app-reported rectangle and the one two subjects span. */
export function overlapValidator(spec: OverlapValidatorSpec, ctx: ValidatorContext): Validator {
  const name = eventName(ctx, spec.event);
  const a = subject(ctx, spec.corners[0]);
  const b = subject(ctx, spec.corners[1]);
  let metric = Infinity;
  let tick = -1;
  return {
    observe(frame) {
      if (tick >= 0 || !hasEvent(ctx, name)) return;
      tick = frame.tick;
      const reported = (eventData(ctx, name) as { corners?: Vec3[] } | undefined)?.corners;
      const pa = a(frame);
      const pb = b(frame);
      if (!reported || reported.length !== 2 || !pa || !pb) return;
      const h = frame.channel('head')!;
      const axes = headAxes([h[3], h[4], h[5], h[6]]);
      // Project onto the view plane as angles (x right, y up), so depth does not matter.
      const project = (p: Vec3) => {
        const d = sub(p, [h[0], h[1], h[2]]);
        const f = Math.max(1e-6, dot(d, axes.forward));
        return [dot(d, axes.right) / f, dot(d, axes.up) / f];
      };
      const rect = (p: Vec3, q: Vec3) => {
        const [u, v] = [project(p), project(q)];
        return [Math.min(u[0], v[0]), Math.min(u[1], v[1]), Math.max(u[0], v[0]), Math.max(u[1], v[1])];
      };
      const r1 = rect(reported[0], reported[1]);
      const r2 = rect(pa.position, pb.position);
      const iw = Math.max(0, Math.min(r1[2], r2[2]) - Math.max(r1[0], r2[0]));
      const ih = Math.max(0, Math.min(r1[3], r2[3]) - Math.max(r1[1], r2[1]));
      const area = (r: number[]) => (r[2] - r[0]) * (r[3] - r[1]);
      const union = area(r1) + area(r2) - iw * ih;
      metric = union > 0 ? (iw * ih) / union : 0;
    },
    finish() {
      return scoreMilestones('overlap', spec.milestones, metric, 'atLeast', tick >= 0 ? [tick] : []);
    },
  };
}
