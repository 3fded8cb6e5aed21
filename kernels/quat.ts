/**
 * Quaternion kernels on typed arrays: the forms the hot loops use, allocating nothing. The tuple forms
 * (`src/geometry/math.ts`) call these, so each formula is written once. Quaternions are (x, y, z, w).
 */

/**
 * Writes the axes of rotation q, X then Y then Z (the columns of its matrix, which are the rows of the
 * inverse rotation), into out[o..o+8]. One flat function, so hot callers can inline it.
 */
export function quatAxesInto(x: number, y: number, z: number, w: number, out: Float64Array, o: number): void {
  out[o] = 1 - 2 * (y * y + z * z);
  out[o + 1] = 2 * (x * y + w * z);
  out[o + 2] = 2 * (x * z - w * y);
  out[o + 3] = 2 * (x * y - w * z);
  out[o + 4] = 1 - 2 * (x * x + z * z);
  out[o + 5] = 2 * (y * z + w * x);
  out[o + 6] = 2 * (x * z + w * y);
  out[o + 7] = 2 * (y * z - w * x);
  out[o + 8] = 1 - 2 * (x * x + y * y);
}

/** The Z axis of rotation q (the third column of its matrix, as in {@link quatAxesInto}) into out[o..o+2]. */
export function quatZAxisInto(x: number, y: number, z: number, w: number, out: Float64Array, o: number): void {
  out[o] = 2 * (x * z + w * y);
  out[o + 1] = 2 * (y * z - w * x);
  out[o + 2] = 1 - 2 * (x * x + y * y);
}

/** Rotates (vx, vy, vz) by unit quaternion q into out[o..o+2]: t = 2 (q.xyz × v); v' = v + w t + q.xyz × t. */
export function rotateInto(x: number, y: number, z: number, w: number, vx: number, vy: number, vz: number, out: Float64Array, o: number): void {
  const tx = 2 * (y * vz - z * vy);
  const ty = 2 * (z * vx - x * vz);
  const tz = 2 * (x * vy - y * vx);
  out[o] = vx + w * tx + (y * tz - z * ty);
  out[o + 1] = vy + w * ty + (z * tx - x * tz);
  out[o + 2] = vz + w * tz + (x * ty - y * tx);
}

/** The Hamilton product a ⊗ b (apply b, then a) into out[o..o+3]. */
export function quatMultiplyInto(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number, out: Float64Array, o: number): void {
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** The last yaw given to {@link yawFrameToWorldInto}, its cosine and its sine. */
const lastYaw = Float64Array.of(NaN, NaN, NaN);

/**
 * A point given in a frame at `origin` turned by `yaw` radians about +Y (the body frame: it turns with the
 * head's yaw only), in the world, into out[o..o+2].
 */
export function yawFrameToWorldInto(origin: ArrayLike<number>, yaw: number, vx: number, vy: number, vz: number, out: Float64Array, o: number): void {
  // Callers ask for the same yaw several times a tick (both hands, shoulders and wrists): its cosine and
  // sine are kept for the last yaw asked (the same values, computed once).
  if (!Object.is(yaw, lastYaw[0])) {
    lastYaw[0] = yaw;
    lastYaw[1] = Math.cos(yaw);
    lastYaw[2] = Math.sin(yaw);
  }
  const c = lastYaw[1], s = lastYaw[2];
  out[o] = origin[0] + c * vx + s * vz;
  out[o + 1] = origin[1] + vy;
  out[o + 2] = origin[2] - s * vx + c * vz;
}
