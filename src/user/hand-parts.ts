/**
 * Poses of the kinematic hand parts (phalanx capsules and palm boxes): each hand's wrist in the world, and
 * each part relative to its wrist, from the hands' wrist-relative joint poses.
 */
import type { SimModel } from '../model/types.js';
import type { SimUser } from './user.js';
import { POSE_FLOATS } from '../../kernels/pose-compose.js';
import { quatZAxisInto } from '../../kernels/quat.js';

/** Scratch for a joint's Z axis. */
const axis = new Float64Array(3);

/** sin 45°: the capsule's +Y axis is turned onto the joint's −Z axis by a −90° turn about X. */
const H = Math.SQRT1_2;

/** Buffers for {@link handPartPoses}. */
export interface HandPartPoses {
  /** Wrist poses, world: left then right, 7 numbers each. */
  wrists: Float64Array;
  /** Part poses relative to their wrist, 7 numbers each, in model order. */
  parts: Float64Array;
  /** Per hand (left, right): the `localVersion` the parts were computed from (−1: never). */
  localVersions: Float64Array;
}

/** Allocates the buffers for a model. */
export function createHandPartPoses(model: SimModel): HandPartPoses {
  return { wrists: new Float64Array(2 * POSE_FLOATS), parts: new Float64Array(model.handParts.length * POSE_FLOATS), localVersions: Float64Array.of(-1, -1) };
}

/**
 * Writes the wrists' world poses and the parts' wrist-relative poses. A hand whose wrist-relative joint
 * poses did not change since the last call (same `localVersion`) keeps its parts' poses.
 */
export function handPartPoses(model: SimModel, user: SimUser, out: HandPartPoses): void {
  if (!user.hands) return;
  const { left, right } = user.hands;
  out.wrists.set(left.wrist, 0);
  out.wrists.set(right.wrist, POSE_FLOATS);
  const leftStale = out.localVersions[0] !== left.localVersion;
  const rightStale = out.localVersions[1] !== right.localVersion;
  if (!leftStale && !rightStale) return;
  out.localVersions[0] = left.localVersion;
  out.localVersions[1] = right.localVersion;
  const parts = model.handParts;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!(part.hand === 0 ? leftStale : rightStale)) continue;
    const hand = part.hand === 0 ? left : right;
    const local = hand.local;
    // The kinematics are those of a right hand; a left hand mirrors x (and the quaternion's y and z).
    const sign = part.hand === 0 ? -1 : 1;
    const j = part.joint * POSE_FLOATS;
    const qx = local[j + 3], qy = sign * local[j + 4], qz = sign * local[j + 5], qw = local[j + 6];
    const o = i * POSE_FLOATS;
    // Centre: half the bone along the joint's −Z axis.
    const h = part.halfLength;
    quatZAxisInto(qx, qy, qz, qw, axis, 0);
    out.parts[o] = sign * local[j] - h * axis[0];
    out.parts[o + 1] = local[j + 1] - h * axis[1];
    out.parts[o + 2] = local[j + 2] - h * axis[2];
    if (part.kind === 'palm') {
      out.parts[o + 3] = qx;
      out.parts[o + 4] = qy;
      out.parts[o + 5] = qz;
      out.parts[o + 6] = qw;
    } else {
      // q ⊗ (−H, 0, 0, H): the capsule's +Y onto the bone's direction, −Z.
      out.parts[o + 3] = H * (qx - qw);
      out.parts[o + 4] = H * (qy - qz);
      out.parts[o + 5] = H * (qy + qz);
      out.parts[o + 6] = H * (qw + qx);
    }
  }
}
