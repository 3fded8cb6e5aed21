/**
 * Poses as numbers in flat arrays, and their composition without allocation. A pose is 7 numbers at an
 * offset: position xyz, then quaternion xyzw. Frames, physics, the user and sensing all store poses so.
 * `composeInto` is used where poses are composed every depth frame (camera mounts, bodies' and hands'
 * primitives).
 */
import { quatMultiplyInto } from './quat.js';

/** Numbers per pose: position x, y, z, then quaternion x, y, z, w. */
export const POSE_FLOATS = 7;
/** Where a pose's quaternion starts. */
export const POSE_ROTATION = 3;

/** out[0..6] = parent[p..p+6] ∘ child[c..c+6]. `out` may not alias the inputs. */
export function composeInto(parent: ArrayLike<number>, p: number, child: ArrayLike<number>, c: number, out: Float64Array): void {
  const px = parent[p + 3], py = parent[p + 4], pz = parent[p + 5], pw = parent[p + 6];
  const vx = child[c], vy = child[c + 1], vz = child[c + 2];
  // Rotate the child's offset by the parent's rotation: v' = v + 2w(u × v) + 2u × (u × v).
  const cx = py * vz - pz * vy, cy = pz * vx - px * vz, cz = px * vy - py * vx;
  out[0] = parent[p] + vx + 2 * (pw * cx + py * cz - pz * cy);
  out[1] = parent[p + 1] + vy + 2 * (pw * cy + pz * cx - px * cz);
  out[2] = parent[p + 2] + vz + 2 * (pw * cz + px * cy - py * cx);
  quatMultiplyInto(px, py, pz, pw, child[c + 3], child[c + 4], child[c + 5], child[c + 6], out, 3);
}
