/**
 * Rigid-transform arithmetic for the shim: poses as `[px, py, pz, qx, qy, qz, qw]`, matrices as
 * column-major 4×4 Float32Arrays (as WebXR exposes them). Computed in doubles, by the library's math
 * module (`kernels/quat.ts`, `src/geometry/math.ts`, bundled in); converted to f32 only when a matrix is
 * handed to the page.
 */
import { quatAxesInto, quatMultiplyInto, rotateInto } from '../../../kernels/quat.js';
import { quatFromMatrixAxes } from '../../geometry/math.js';

/** Scratch for the kernels. */
const scratch = new Float64Array(9);

export type Pose = number[];

export const IDENTITY_POSE: Pose = [0, 0, 0, 0, 0, 0, 1];

/** a ∘ b: the pose b expressed in a's parent frame (b is relative to a). */
export function composePose(a: ArrayLike<number>, b: ArrayLike<number>): Pose {
  const [rx, ry, rz] = rotate(a, b[0], b[1], b[2]);
  quatMultiplyInto(a[3], a[4], a[5], a[6], b[3], b[4], b[5], b[6], scratch, 0);
  return [a[0] + rx, a[1] + ry, a[2] + rz, scratch[0], scratch[1], scratch[2], scratch[3]];
}

/** The inverse rigid transform. */
export function invertPose(p: ArrayLike<number>): Pose {
  const q = [0, 0, 0, -p[3], -p[4], -p[5], p[6]];
  const [x, y, z] = rotate(q, p[0], p[1], p[2]);
  return [-x, -y, -z, q[3], q[4], q[5], q[6]];
}

/** Rotates (x, y, z) by the pose's quaternion. */
export function rotate(p: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  rotateInto(p[3], p[4], p[5], p[6], x, y, z, scratch, 0);
  return [scratch[0], scratch[1], scratch[2]];
}

/** Column-major 4×4 of a pose. */
export function poseMatrix(p: ArrayLike<number>, out: Float32Array = new Float32Array(16)): Float32Array {
  // The rotation's axes are the matrix's first three columns.
  quatAxesInto(p[3], p[4], p[5], p[6], scratch, 0);
  for (let axis = 0; axis < 3; axis++) {
    out[axis * 4] = scratch[axis * 3];
    out[axis * 4 + 1] = scratch[axis * 3 + 1];
    out[axis * 4 + 2] = scratch[axis * 3 + 2];
    out[axis * 4 + 3] = 0;
  }
  out[12] = p[0];
  out[13] = p[1];
  out[14] = p[2];
  out[15] = 1;
  return out;
}

/** A pose from a column-major rigid matrix (rotation assumed orthonormal). */
export function matrixPose(m: ArrayLike<number>): Pose {
  const q = quatFromMatrixAxes([m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]);
  return [m[12], m[13], m[14], ...q];
}

/** A symmetric perspective projection (column-major, WebGL clip space). */
export function perspective(fovY: number, aspect: number, near: number, far: number): Float32Array {
  const f = 1 / Math.tan(fovY / 2);
  const nf = 1 / (near - far);
  // An infinite far plane, as WebXR allows, when far is Infinity.
  const a = Number.isFinite(far) ? (far + near) * nf : -1;
  const b = Number.isFinite(far) ? 2 * far * near * nf : -2 * near;
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, a, -1, 0, 0, b, 0]);
}

/** A unit quaternion (identity when degenerate). */
export function normalizeQuat(x: number, y: number, z: number, w: number): [number, number, number, number] {
  const n = Math.hypot(x, y, z, w);
  return n > 0 ? [x / n, y / n, z / n, w / n] : [0, 0, 0, 1];
}
