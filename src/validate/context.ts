/**
 * Resolving the objects a task's validators name into model indices, and task-frame geometry.
 */
import { rotateInto } from '../../kernels/quat.js';
import { bodyIndexOf, collidersOf } from '../model/references.js';
import type { SimModel } from '../model/types.js';
import type { AxesSpec } from '../task/types.js';
import { POSE_FLOATS } from '../frame/layout.js';

/** Index in `model.bodies` (and the `bodies` channel) of the body a validator names (`task:ball`, `scene:mug`). */
export function bodyIndex(model: SimModel, ref: string): number {
  return bodyIndexOf(model, ref, { bare: 'task' });
}

/** A mask over `model.colliders`: 1 for colliders of the named bodies, surfaces, fixtures or sensors. */
export function colliderMask(model: SimModel, refs: readonly string[]): Uint8Array {
  const mask = new Uint8Array(model.colliders.length);
  for (const ref of refs) for (const c of collidersOf(model, ref, { bare: 'task' })) mask[c] = 1;
  return mask;
}

/** Axis weights for a distance over task-frame axes. */
export function axisMask(axes: AxesSpec = 'xyz'): [number, number, number] {
  return [axes.includes('x') ? 1 : 0, axes.includes('y') ? 1 : 0, axes.includes('z') ? 1 : 0];
}

/**
 * Writes body `index`'s position, in the task frame, into `out[0..2]`. Allocation-free: validators call it
 * every frame.
 */
export function bodyPositionInTaskFrame(model: SimModel, poses: Float32Array, index: number, out: Float64Array): void {
  const o = index * POSE_FLOATS;
  // Indexed, not destructured: destructuring steps an iterator, which allocates until V8 optimises it away.
  const f = model.taskFrame.position;
  const q = model.taskFrame.rotation;
  // Rotate the offset from the frame's origin by the conjugate of the frame's rotation.
  rotateInto(-q[0], -q[1], -q[2], q[3], poses[o] - f[0], poses[o + 1] - f[1], poses[o + 2] - f[2], out, 0);
}

/** Weighted Euclidean distance between two 3-vectors. */
export function maskedDistance(a: ArrayLike<number>, b: ArrayLike<number>, mask: readonly number[]): number {
  const dx = (a[0] - b[0]) * mask[0];
  const dy = (a[1] - b[1]) * mask[1];
  const dz = (a[2] - b[2]) * mask[2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}
