/**
 * Resolving the ids a task's validators name into model indices, and task-frame geometry.
 */
import type { SimModel } from '../model/types.js';
import type { AxesSpec } from '../task/types.js';
import { POSE_FLOATS } from '../frame/layout.js';

/** Index in `model.bodies` (and the `bodies` channel) of the task body `id`. */
export function taskBodyIndex(model: SimModel, id: string): number {
  const index = model.bodies.findIndex((b) => b.origin === 'task' && b.id === id);
  if (index < 0) throw new Error(`validator: no task body "${id}"`);
  return index;
}

/** A mask over `model.colliders`: 1 for colliders of the named task bodies, fixtures or sensors. */
export function colliderMask(model: SimModel, ids: readonly string[]): Uint8Array {
  const mask = new Uint8Array(model.colliders.length);
  const mark = (colliders: readonly number[]) => colliders.forEach((c) => (mask[c] = 1));
  for (const id of ids) {
    const owner =
      model.bodies.find((b) => b.origin === 'task' && b.id === id) ??
      model.statics.find((s) => s.origin === 'task' && s.id === id) ??
      model.sensors.find((s) => s.id === id);
    if (!owner) throw new Error(`validator: no task object "${id}"`);
    mark(owner.colliders);
  }
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
  const [fx, fy, fz] = model.taskFrame.position;
  const [qx, qy, qz, qw] = model.taskFrame.rotation;
  const dx = poses[o] - fx;
  const dy = poses[o + 1] - fy;
  const dz = poses[o + 2] - fz;
  // Rotate by the conjugate of the frame's rotation.
  const x = -qx;
  const y = -qy;
  const z = -qz;
  const tx = 2 * (y * dz - z * dy);
  const ty = 2 * (z * dx - x * dz);
  const tz = 2 * (x * dy - y * dx);
  out[0] = dx + qw * tx + (y * tz - z * ty);
  out[1] = dy + qw * ty + (z * tx - x * tz);
  out[2] = dz + qw * tz + (x * ty - y * tx);
}

/** Weighted Euclidean distance between two 3-vectors. */
export function maskedDistance(a: ArrayLike<number>, b: ArrayLike<number>, mask: readonly number[]): number {
  const dx = (a[0] - b[0]) * mask[0];
  const dy = (a[1] - b[1]) * mask[1];
  const dz = (a[2] - b[2]) * mask[2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}
