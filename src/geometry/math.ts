/**
 * The math module: vectors, quaternions, rotating a vector, a rotation's axes, and pose algebra, on
 * `[x, y, z]` and `[x, y, z, w]` tuples. Every formula is written once: the quaternion ones here call the
 * typed-array kernels of `kernels/quat.ts` (which hot loops call directly), so both compute the same
 * expression in the same order, bit for bit.
 */
import { quatAxesInto, quatMultiplyInto, rotateInto } from '../../kernels/quat.js';
import type { PartSpec, Quat, ShapeSpec, Vec3 } from './types.js';

/** Scratch for the kernels (these functions return fresh tuples; nothing here is re-entrant). */
const scratch = new Float64Array(9);

/** A rigid transform. */
export interface Pose {
  position: Vec3;
  rotation: Quat;
}

const DEG = Math.PI / 180;

/** The identity rotation. */
export const IDENTITY_QUAT: Quat = [0, 0, 0, 1];

/** Hamilton product `a ⊗ b` (apply `b`, then `a`). */
export function quatMultiply(a: ArrayLike<number>, b: ArrayLike<number>): Quat {
  quatMultiplyInto(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], scratch, 0);
  return [scratch[0], scratch[1], scratch[2], scratch[3]];
}

/** Rotation of `angle` radians about a unit `axis`. */
export function quatFromAxisAngle(axis: Vec3, angle: number): Quat {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Intrinsic X, then Y, then Z rotation in degrees, as used by `eulerDeg` in scene and task files. */
export function quatFromEulerDeg(euler: Vec3 | undefined): Quat {
  if (!euler) return [...IDENTITY_QUAT];
  const qx = quatFromAxisAngle([1, 0, 0], euler[0] * DEG);
  const qy = quatFromAxisAngle([0, 1, 0], euler[1] * DEG);
  const qz = quatFromAxisAngle([0, 0, 1], euler[2] * DEG);
  return quatNormalize(quatMultiply(quatMultiply(qx, qy), qz));
}

/** The intrinsic X-then-Y-then-Z angles (degrees) of a rotation: the inverse of {@link quatFromEulerDeg}. */
export function eulerDegFromQuat(q: Quat): Vec3 {
  // R = Rx(a)·Ry(b)·Rz(c), whose columns are the axes: m02 = sin b, m12 = −sin a cos b, m22 = cos a cos b,
  // m01 = −cos b sin c, m00 = cos b cos c.
  const { x: [m00], y: [m01], z: [m02, m12, m22] } = quatAxes(q);
  return [Math.atan2(-m12, m22) / DEG, Math.asin(Math.max(-1, Math.min(1, m02))) / DEG, Math.atan2(-m01, m00) / DEG];
}

/** Rotation about +Y by `deg` degrees. */
export function quatFromYawDeg(deg: number): Quat {
  return quatFromAxisAngle([0, 1, 0], deg * DEG);
}

/** Unit-length copy of `q`. */
export function quatNormalize(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Conjugate (inverse of a unit quaternion). */
export function quatConjugate(q: Quat): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

/** `v` scaled by `k`. */
export function vecScale(v: ArrayLike<number>, k: number): Vec3 {
  return [v[0] * k, v[1] * k, v[2] * k];
}

/** `v` scaled to unit length. */
export function vecNormalize(v: Vec3): Vec3 {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/**
 * The rotation whose +Y axis points along `y` and whose +Z axis points along `z`. The axis named by `exact`
 * (default `y`) is kept as given; the other is made orthogonal to it. Neither needs to be unit length.
 */
export function quatFromAxes(y: Vec3, z: Vec3, exact: 'y' | 'z' = 'y'): Quat {
  const orthogonal = (keep: Vec3, adjust: Vec3): [Vec3, Vec3] => {
    const k = vecNormalize(keep);
    const d = dot(k, adjust);
    return [k, vecNormalize([adjust[0] - d * k[0], adjust[1] - d * k[1], adjust[2] - d * k[2]])];
  };
  let Y: Vec3;
  let Z: Vec3;
  if (exact === 'y') [Y, Z] = orthogonal(y, z);
  else [Z, Y] = orthogonal(z, y);
  return quatFromMatrixAxes(cross(Y, Z), Y, Z);
}

/** The rotation whose matrix has columns (axes) X, Y and Z, orthonormal (Shepperd's method). */
export function quatFromMatrixAxes(X: ArrayLike<number>, Y: ArrayLike<number>, Z: ArrayLike<number>): Quat {
  const trace = X[0] + Y[1] + Z[2];
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    return [(Y[2] - Z[1]) * s, (Z[0] - X[2]) * s, (X[1] - Y[0]) * s, 0.25 / s];
  }
  if (X[0] > Y[1] && X[0] > Z[2]) {
    const s = 2 * Math.sqrt(1 + X[0] - Y[1] - Z[2]);
    return [0.25 * s, (Y[0] + X[1]) / s, (Z[0] + X[2]) / s, (Y[2] - Z[1]) / s];
  }
  if (Y[1] > Z[2]) {
    const s = 2 * Math.sqrt(1 + Y[1] - X[0] - Z[2]);
    return [(Y[0] + X[1]) / s, 0.25 * s, (Z[1] + Y[2]) / s, (Z[0] - X[2]) / s];
  }
  const s = 2 * Math.sqrt(1 + Z[2] - X[0] - Y[1]);
  return [(Z[0] + X[2]) / s, (Z[1] + Y[2]) / s, 0.25 * s, (X[1] - Y[0]) / s];
}

/** Rotates vector `v` by unit quaternion `q`. */
export function rotateVec(q: ArrayLike<number>, v: ArrayLike<number>): Vec3 {
  rotateInto(q[0], q[1], q[2], q[3], v[0], v[1], v[2], scratch, 0);
  return [scratch[0], scratch[1], scratch[2]];
}

/** The axes of rotation `q` in the world: its X (right), Y (up) and Z (back; WebXR looks along −Z). */
export function quatAxes(q: ArrayLike<number>): { x: Vec3; y: Vec3; z: Vec3 } {
  quatAxesInto(q[0], q[1], q[2], q[3], scratch, 0);
  return { x: [scratch[0], scratch[1], scratch[2]], y: [scratch[3], scratch[4], scratch[5]], z: [scratch[6], scratch[7], scratch[8]] };
}

/** One axis of rotation `q`: `x`, `y` or `z`. */
export function quatAxis(q: ArrayLike<number>, axis: 'x' | 'y' | 'z'): Vec3 {
  return quatAxes(q)[axis];
}

/** `a + b`. */
export function add(a: ArrayLike<number>, b: ArrayLike<number>): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

/** `a − b`. */
export function sub(a: ArrayLike<number>, b: ArrayLike<number>): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

/** `a · b`. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** `a × b`. */
export function cross(a: ArrayLike<number>, b: ArrayLike<number>): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Euclidean length. */
export function length(a: ArrayLike<number>): number {
  return Math.hypot(a[0], a[1], a[2]);
}

/** Distance between two points. */
export function distance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return length(sub(a, b));
}

/** The point a fraction `t` of the way from `a` to `b`. */
export function lerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): Vec3 {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** `parent ∘ child`: the child pose expressed in the parent's frame, mapped to the world. */
export function composePose(parent: Pose, child: Pose): Pose {
  return {
    position: add(parent.position, rotateVec(parent.rotation, child.position)),
    rotation: quatNormalize(quatMultiply(parent.rotation, child.rotation)),
  };
}

/** Maps a world point into the frame `pose`. */
export function toLocal(pose: Pose, point: Vec3): Vec3 {
  return rotateVec(quatConjugate(pose.rotation), sub(point, pose.position));
}

/** Maps a point in frame `pose` to the world. */
export function toWorld(pose: Pose, point: Vec3): Vec3 {
  return add(pose.position, rotateVec(pose.rotation, point));
}

/** Half extents of a shape's bounding box in its own frame. */
export function shapeHalfExtents(shape: ShapeSpec): Vec3 {
  switch (shape.type) {
    case 'box':
      return [shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2];
    case 'sphere':
      return [shape.radius, shape.radius, shape.radius];
    case 'capsule':
      return [shape.radius, shape.length / 2 + shape.radius, shape.radius];
    case 'cylinder':
      return [shape.radius, shape.height / 2, shape.radius];
    case 'polygon': {
      const reach = (axis: 0 | 1) => Math.max(...shape.points.map((p) => Math.abs(p[axis])));
      return [reach(0), shape.thickness / 2, reach(1)];
    }
  }
}

/** Volume of a shape, m³. */
export function shapeVolume(shape: ShapeSpec): number {
  switch (shape.type) {
    case 'box':
      return shape.size[0] * shape.size[1] * shape.size[2];
    case 'sphere':
      return (4 / 3) * Math.PI * shape.radius ** 3;
    case 'capsule':
      return Math.PI * shape.radius ** 2 * shape.length + (4 / 3) * Math.PI * shape.radius ** 3;
    case 'cylinder':
      return Math.PI * shape.radius ** 2 * shape.height;
    case 'polygon':
      return Math.abs(polygonSignedArea(shape.points)) * shape.thickness;
  }
}

/** Shoelace area of a polygon of `[x, z]` points: positive when x turns toward z. */
export function polygonSignedArea(points: readonly (readonly [number, number])[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const [x0, z0] = points[i];
    const [x1, z1] = points[(i + 1) % points.length];
    twice += x0 * z1 - x1 * z0;
  }
  return twice / 2;
}

/** Smallest polygon area accepted, m²: below it a slab has no usable face. */
export const MIN_POLYGON_AREA = 1e-4;

/** Why a polygon cannot be a slab (fewer than 3 points, repeated points, not convex, no area), or null. */
export function polygonProblem(points: readonly (readonly [number, number])[]): string | null {
  if (points.length < 3) return `a polygon needs at least 3 points, got ${points.length}`;
  const area = polygonSignedArea(points);
  if (Math.abs(area) < MIN_POLYGON_AREA) return `degenerate polygon: area ${Math.abs(area).toExponential(2)} m² is below ${MIN_POLYGON_AREA} m²`;
  const sign = Math.sign(area);
  for (let i = 0; i < points.length; i++) {
    const [ax, az] = points[i];
    const [bx, bz] = points[(i + 1) % points.length];
    const [cx, cz] = points[(i + 2) % points.length];
    if (Math.hypot(bx - ax, bz - az) < 1e-6) return `degenerate polygon: points ${i} and ${(i + 1) % points.length} coincide`;
    const turn = (bx - ax) * (cz - bz) - (bz - az) * (cx - bx);
    if (Math.sign(turn) !== sign) return `degenerate polygon: not strictly convex at point ${(i + 1) % points.length}`;
  }
  return null;
}

/** An axis-aligned box `{ min, max }`. */
export interface Aabb {
  min: Vec3;
  max: Vec3;
}

/** Bounding box, in the frame `frame` (default world), of a shape placed at `pose` in the world. */
export function placedShapeAabb(shape: ShapeSpec, pose: Pose, frame?: Pose): Aabb {
  const h = shapeHalfExtents(shape);
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let corner = 0; corner < 8; corner++) {
    const local: Vec3 = [corner & 1 ? h[0] : -h[0], corner & 2 ? h[1] : -h[1], corner & 4 ? h[2] : -h[2]];
    let p = toWorld(pose, local);
    if (frame) p = toLocal(frame, p);
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i], p[i]);
      max[i] = Math.max(max[i], p[i]);
    }
  }
  return { min, max };
}

/** True when two boxes overlap by more than `tolerance` on every axis. */
export function aabbOverlap(a: Aabb, b: Aabb, tolerance = 0): boolean {
  for (let i = 0; i < 3; i++) {
    if (a.max[i] - tolerance <= b.min[i] || b.max[i] - tolerance <= a.min[i]) return false;
  }
  return true;
}

/** Expands an object's `shape` or `parts` into parts with explicit local poses. */
export function partsOf(object: { shape?: ShapeSpec; parts?: PartSpec[] }): { shape: ShapeSpec; pose: Pose }[] {
  const parts = object.parts ?? (object.shape ? [{ shape: object.shape }] : []);
  return parts.map((part) => ({
    shape: part.shape,
    pose: { position: part.position ? [...part.position] : [0, 0, 0], rotation: quatFromEulerDeg(part.eulerDeg) },
  }));
}
