/**
 * Settle time: the time of the last frame at which any listed body moved faster than the thresholds.
 * Speeds come from consecutive poses. A set that is still moving within `holdFor` of the end has not settled.
 */
import type { FrameView } from '../frame/frame.js';
import { POSE_FLOATS } from '../frame/layout.js';
import type { SimModel } from '../model/types.js';
import type { SettleValidatorSpec } from '../task/types.js';
import { taskBodyIndex } from './context.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

export function settleValidator(spec: SettleValidatorSpec, model: SimModel): Validator {
  const indices = spec.bodies.map((id) => taskBodyIndex(model, id));
  const previous = new Float64Array(indices.length * POSE_FLOATS);
  const maxAngular = spec.angularSpeedBelow ?? Infinity;
  const holdFor = spec.holdFor ?? 0;
  let lastMovingTick = 0;
  let lastTick = 0;
  let lastTime = 0;
  let dt = model.timing.dt;
  return {
    observe(frame: FrameView) {
      const poses = frame.bodyPoses;
      for (let k = 0; k < indices.length; k++) {
        const o = indices[k] * POSE_FLOATS;
        const p = k * POSE_FLOATS;
        if (frame.tick > 0) {
          const linear = Math.hypot(poses[o] - previous[p], poses[o + 1] - previous[p + 1], poses[o + 2] - previous[p + 2]) / dt;
          const angular = rotationAngle(previous, p, poses, o) / dt;
          if (linear > spec.linearSpeedBelow || angular > maxAngular) lastMovingTick = frame.tick;
        }
        for (let j = 0; j < POSE_FLOATS; j++) previous[p + j] = poses[o + j];
      }
      lastTick = frame.tick;
      lastTime = frame.time;
      if (frame.tick > 0) dt = frame.time / frame.tick;
    },
    finish() {
      const settleTime = lastMovingTick * dt;
      const held = lastTime - settleTime >= holdFor - 1e-9;
      return scoreMilestones('settle', spec.milestones, held ? settleTime : Infinity, 'atMost', [lastMovingTick, lastTick]);
    },
  };
}

/** Angle (radians) of the rotation between quaternion `a[i..i+3]` and `b[j..j+3]`; exact for small angles. */
function rotationAngle(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number {
  const ax = a[i + 3], ay = a[i + 4], az = a[i + 5], aw = a[i + 6];
  const bx = b[j + 3], by = b[j + 4], bz = b[j + 5], bw = b[j + 6];
  // Vector part of b ⊗ conj(a); its length is sin(angle / 2).
  const x = -bw * ax + bx * aw - by * az + bz * ay;
  const y = -bw * ay + bx * az + by * aw - bz * ax;
  const z = -bw * az - bx * ay + by * ax + bz * aw;
  return 2 * Math.asin(Math.min(1, Math.hypot(x, y, z)));
}
