/**
 * Settle time: the time of the last frame at which any listed body moved faster than the thresholds.
 * Speeds come from consecutive poses. A set that is still moving within `holdFor` of the end has not settled.
 */
import type { FrameView } from '../frame/frame.js';
import { POSE_FLOATS } from '../frame/layout.js';
import type { SimModel } from '../model/types.js';
import { bodyIndex } from './context.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** Settle time of a set of bodies. Metric: seconds. */
export const settle = defineFormula({
  type: 'settle',
  description: 'Settle time: the end of the last tick at which any listed body moved faster than the thresholds. Metric: seconds; passes when metric ≤ threshold and the bodies stay settled for `holdFor` before the session ends.',
  options: {
    bodies: { type: 'array', minItems: 1, items: schema.body },
    linearSpeedBelow: { type: 'number', exclusiveMinimum: 0 },
    angularSpeedBelow: { type: 'number', exclusiveMinimum: 0 },
    holdFor: { type: 'number', minimum: 0 },
  },
  required: ['bodies', 'linearSpeedBelow'],
  frameState: false,
  create: (spec, ctx): Validator => settleValidator(spec, ctx.model),
});
/** The options of `settle`. */
export type SettleValidatorSpec = SpecOf<typeof settle>;

/** Creates a `settle` validator: metric = settle time, s. */
export function settleValidator(spec: SettleValidatorSpec, model: SimModel): Validator {
  const indices = spec.bodies.map((id) => bodyIndex(model, id));
  const previous = new Float32Array(indices.length * POSE_FLOATS);
  const holdFor = spec.holdFor ?? 0;
  const dt = model.timing.dt;
  // Compare squared step lengths with squared thresholds: no square roots or inverse sines per body.
  const maxStep2 = (spec.linearSpeedBelow * dt) ** 2;
  // A rotation by angle θ has a quaternion vector part of length sin(θ / 2).
  const checkSpin = spec.angularSpeedBelow !== undefined;
  const maxHalfSin2 = checkSpin ? Math.sin(Math.min(Math.PI, spec.angularSpeedBelow! * dt) / 2) ** 2 : Infinity;
  let lastMovingTick = 0;
  let lastTime = 0;
  return {
    observe(frame: FrameView) {
      const poses = frame.bodyPoses;
      const first = frame.tick === 0;
      for (let k = 0; k < indices.length; k++) {
        const o = indices[k] * POSE_FLOATS;
        const p = k * POSE_FLOATS;
        if (!first && !changed(poses, o, previous, p)) continue; // asleep or at rest: speed 0
        if (!first) {
          const dx = poses[o] - previous[p];
          const dy = poses[o + 1] - previous[p + 1];
          const dz = poses[o + 2] - previous[p + 2];
          if (dx * dx + dy * dy + dz * dz > maxStep2 || (checkSpin && halfSin2(previous, p, poses, o) > maxHalfSin2)) {
            lastMovingTick = frame.tick;
          }
        }
        for (let j = 0; j < POSE_FLOATS; j++) previous[p + j] = poses[o + j];
      }
      lastTime = frame.time;
    },
    finish() {
      const settleTime = lastMovingTick * dt;
      const held = lastTime - settleTime >= holdFor - 1e-9;
      return scoreMilestones('settle', spec.milestones, held ? settleTime : Infinity, 'atMost', [lastMovingTick, Math.round(lastTime / dt)]);
    },
  };
}

function changed(a: Float32Array, i: number, b: Float32Array, j: number): boolean {
  for (let k = 0; k < POSE_FLOATS; k++) if (a[i + k] !== b[j + k]) return true;
  return false;
}

/** sin²(θ/2) of the rotation between quaternion `a[i+3..]` and `b[j+3..]`: the squared vector part of b ⊗ conj(a). */
function halfSin2(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number {
  const ax = a[i + 3], ay = a[i + 4], az = a[i + 5], aw = a[i + 6];
  const bx = b[j + 3], by = b[j + 4], bz = b[j + 5], bw = b[j + 6];
  const x = -bw * ax + bx * aw - by * az + bz * ay;
  const y = -bw * ay + bx * az + by * aw - bz * ax;
  const z = -bw * az - bx * ay + by * ax + bz * aw;
  return x * x + y * y + z * z;
}
