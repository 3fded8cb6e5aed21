/**
 * Rigid-transform arithmetic for the shim: poses as `[px, py, pz, qx, qy, qz, qw]`, matrices as
 * column-major 4×4 Float32Arrays (as WebXR exposes them). Computed in doubles; converted to f32 only when
 * a matrix is handed to the page.
 */

export type Pose = number[];

export const IDENTITY_POSE: Pose = [0, 0, 0, 0, 0, 0, 1];

/** a ∘ b: the pose b expressed in a's parent frame (b is relative to a). */
export function composePose(a: ArrayLike<number>, b: ArrayLike<number>): Pose {
  const [rx, ry, rz] = rotate(a, b[0], b[1], b[2]);
  const [ax, ay, az, aw] = [a[3], a[4], a[5], a[6]];
  const [bx, by, bz, bw] = [b[3], b[4], b[5], b[6]];
  return [
    a[0] + rx,
    a[1] + ry,
    a[2] + rz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** The inverse rigid transform. */
export function invertPose(p: ArrayLike<number>): Pose {
  const q = [0, 0, 0, -p[3], -p[4], -p[5], p[6]];
  const [x, y, z] = rotate(q, p[0], p[1], p[2]);
  return [-x, -y, -z, q[3], q[4], q[5], q[6]];
}

/** Rotates (x, y, z) by the pose's quaternion. */
export function rotate(p: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  const [qx, qy, qz, qw] = [p[3], p[4], p[5], p[6]];
  // t = 2 q × v; v' = v + w t + q × t
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

/** Column-major 4×4 of a pose. */
export function poseMatrix(p: ArrayLike<number>, out: Float32Array = new Float32Array(16)): Float32Array {
  const [x, y, z, w] = [p[3], p[4], p[5], p[6]];
  out[0] = 1 - 2 * (y * y + z * z);
  out[1] = 2 * (x * y + w * z);
  out[2] = 2 * (x * z - w * y);
  out[3] = 0;
  out[4] = 2 * (x * y - w * z);
  out[5] = 1 - 2 * (x * x + z * z);
  out[6] = 2 * (y * z + w * x);
  out[7] = 0;
  out[8] = 2 * (x * z + w * y);
  out[9] = 2 * (y * z - w * x);
  out[10] = 1 - 2 * (x * x + y * y);
  out[11] = 0;
  out[12] = p[0];
  out[13] = p[1];
  out[14] = p[2];
  out[15] = 1;
  return out;
}

/** A pose from a column-major rigid matrix (rotation assumed orthonormal). */
export function matrixPose(m: ArrayLike<number>): Pose {
  const [m00, m10, m20, m01, m11, m21, m02, m12, m22] = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]];
  const trace = m00 + m11 + m22;
  let q: [number, number, number, number];
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [(m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
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
