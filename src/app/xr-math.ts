/**
 * Small vector helpers for app authors (exported as `xr` from 'xrsim'): the suite's apps use them, and a
 * three.js app would use three's math instead. Vectors are `[x, y, z]` arrays; WebXR points `{ x, y, z }`
 * convert with `vec`.
 */
import { add, cross, distance, dot, length, lerp, quatAxis, quatFromAxes, rotateVec, sub, vecScale as scale } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import type { CpuDepthInformation } from '../sensing/depth-information.js';
import type { XrInputSource, XrPoint, XrTransform } from './types.js';

/** The library's vector operations (`src/geometry/math.ts`), under the names apps use. */
export { add, sub, scale, dot, cross, length, distance, lerp };

/** `[x, y, z]` of a WebXR point. */
export const vec = (p: XrPoint | { x: number; y: number; z: number }): Vec3 => [p.x, p.y, p.z];
/** `a` at unit length (a zero vector stays zero). */
export const normalize = (a: Vec3): Vec3 => scale(a, 1 / (length(a) || 1));

/** An axis of a transform's orientation: `x`, `y` or `z` (−z is forward in WebXR). */
export function axis(t: XrTransform, which: 'x' | 'y' | 'z'): Vec3 {
  const { x, y, z, w } = t.orientation;
  return quatAxis([x, y, z, w], which);
}

/** Where a transform looks (its −Z axis). */
export const forward = (t: XrTransform): Vec3 => scale(axis(t, 'z'), -1);

/** The forward direction projected onto the floor (unit length). */
export function flatForward(t: XrTransform): Vec3 {
  const f = forward(t);
  return normalize([f[0], 0, f[2]]);
}

/** A rotation whose +Z axis points along `front` and whose +Y is as close to world up as possible. */
export function facing(front: Vec3): Quat {
  return quatFromAxes([0, 1, 0], front, 'z');
}

/** A rotation whose +Y axis is `up` and whose +Z is as close to `front` as possible. */
export function uprightFacing(up: Vec3, front: Vec3): Quat {
  return quatFromAxes(up, front, 'y');
}

/**
 * How deep a fingertip is behind a button's face (metres; negative in front of it), measured along the face's
 * outward `normal`, or −Infinity when the tip is more than `radius` off the normal through the face's centre.
 */
export function pressDepth(tip: Vec3, face: Vec3, normal: Vec3, radius: number): number {
  const d = sub(tip, face);
  const along = dot(d, normal);
  const lateral = length(sub(d, scale(normal, along)));
  return lateral <= radius ? -along : -Infinity;
}

/**
 * What the depth camera measured along the line of sight to a world point: the z-depth of the surface it
 * sees there and the z-depth of the point itself (both metres from the camera plane), or null when the
 * point is outside the image, behind the camera, or the pixel has no reading.
 */
export function depthAt(info: CpuDepthInformation, point: Vec3): { surface: number; point: number } | null {
  const t = info.transform;
  const q = t.orientation;
  const d = sub(point, [t.position.x, t.position.y, t.position.z]);
  // Into the camera frame: rotate by the conjugate of its orientation.
  const local = rotateVec([-q.x, -q.y, -q.z, q.w], d);
  if (local[2] >= -1e-6) return null;
  const m = info.projectionMatrix;
  const ndcX = (m[0] * local[0] + m[8] * local[2]) / -local[2];
  const ndcY = (m[5] * local[1] + m[9] * local[2]) / -local[2];
  const x = (ndcX + 1) / 2;
  const y = (1 - ndcY) / 2;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  const surface = info.getDepthInMeters(x, y);
  return surface > 0 ? { surface, point: -local[2] } : null;
}

/** A hand joint's position (`index-finger-tip`), or null when the source has no tracked hand. */
export function joint(source: XrInputSource, name: string): Vec3 | null {
  const pose = source.hand?.get(name);
  return pose ? vec(pose.transform.position) : null;
}

/** The midpoint of thumb and index tips: where a pinch happens. */
export function pinchPoint(source: XrInputSource): Vec3 | null {
  const a = joint(source, 'thumb-tip');
  const b = joint(source, 'index-finger-tip');
  return a && b ? lerp(a, b, 0.5) : null;
}

/** The input source of one hand (`left`/`right`) that is a tracked hand, or undefined. */
export function handSource(sources: readonly XrInputSource[], handedness: 'left' | 'right'): XrInputSource | undefined {
  return sources.find((s) => s.handedness === handedness && s.hand);
}
