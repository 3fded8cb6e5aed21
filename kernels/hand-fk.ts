/**
 * Forward kinematics of the OpenXR 26-joint hand, on typed arrays, allocating nothing.
 *
 * Conventions (OpenXR `XR_EXT_hand_tracking`): a joint sits at the base of the bone named after it; its −Z
 * axis runs along that bone toward the fingertip and +Y points out of the back of the hand. The kinematics
 * are computed for a right hand in the wrist frame (fingers along −Z, back of the hand +Y, thumb toward
 * −X). A left hand is the exact mirror image: x → −x for positions and (x, y, z, w) → (x, −y, −z, w) for
 * orientations, which keeps every frame right-handed with −Z along the bone and +Y out of the back.
 *
 * Each joint has two angles (radians): flexion about its local X axis (positive curls toward the palm)
 * and abduction about its local Y axis (positive turns toward −X, the thumb side of a right hand). A joint's
 * frame is its parent's frame, times its rest rotation, times the abduction, times the flexion.
 */
import { POSE_FLOATS } from './pose-compose.js';

/** Joints per hand. */
export const JOINT_COUNT = 26;
/** Angles per joint: flexion, abduction. */
export const ANGLES_PER_JOINT = 2;

/** OpenXR joint indices. */
export const J = {
  Palm: 0,
  Wrist: 1,
  ThumbMetacarpal: 2,
  ThumbProximal: 3,
  ThumbDistal: 4,
  ThumbTip: 5,
  IndexMetacarpal: 6,
  IndexProximal: 7,
  IndexTip: 10,
  MiddleMetacarpal: 11,
  MiddleProximal: 12,
  MiddleTip: 15,
  RingMetacarpal: 16,
  RingTip: 20,
  LittleMetacarpal: 21,
  LittleTip: 25,
} as const;

/** First joint (the metacarpal) of each digit: thumb, index, middle, ring, little. */
export const DIGIT_BASES = [2, 6, 11, 16, 21] as const;
/** Joints in each digit, metacarpal to tip. */
export const DIGIT_LENGTHS = [4, 5, 5, 5, 5] as const;

/** A skeleton compiled for the kernel. All lengths in metres, rotations as quaternions (x, y, z, w). */
export interface CompiledSkeleton {
  /** Length of the bone that starts at each joint (0 for tips, the wrist and the palm). */
  boneLength: Float64Array;
  /** Rest rotation of each joint relative to its parent (the wrist for metacarpals). 4 per joint. */
  restRotation: Float64Array;
  /** Position of each metacarpal joint in the wrist frame. 3 per joint (0 elsewhere). */
  base: Float64Array;
  /** Joint radius: distance from the joint centre to the skin. */
  radius: Float64Array;
}

/** Scratch for one FK evaluation: local joint poses (7 per joint: position xyz, quaternion xyzw). */
export function createFkScratch(): Float64Array {
  return new Float64Array(JOINT_COUNT * POSE_FLOATS);
}

/**
 * Joint poses relative to the wrist, for a right hand, into `local` (7 per joint).
 * `angles` holds 2 radians per joint (flexion, abduction).
 */
export function handLocalPoses(skeleton: CompiledSkeleton, angles: Float64Array, local: Float64Array): void {
  // Wrist: the origin.
  setPose(local, J.Wrist, 0, 0, 0, 0, 0, 0, 1);
  for (let d = 0; d < 5; d++) {
    const first = DIGIT_BASES[d];
    const last = first + DIGIT_LENGTHS[d] - 1;
    for (let j = first; j <= last; j++) {
      const o = j * POSE_FLOATS;
      if (j === first) {
        local[o] = skeleton.base[j * 3];
        local[o + 1] = skeleton.base[j * 3 + 1];
        local[o + 2] = skeleton.base[j * 3 + 2];
        jointRotation(skeleton.restRotation, j, 0, 0, 0, 1, angles, local, o + 3);
      } else {
        // Position: the parent's position plus its bone along its −Z axis.
        const p = (j - 1) * POSE_FLOATS;
        const length = skeleton.boneLength[j - 1];
        const qx = local[p + 3], qy = local[p + 4], qz = local[p + 5], qw = local[p + 6];
        // Rotating (0, 0, -L) by q: -L times q's Z axis (kernels/quat.ts's quatZAxisInto, written out: a call
        // here costs the whole kernel 15 %).
        local[o] = local[p] - length * 2 * (qx * qz + qw * qy);
        local[o + 1] = local[p + 1] - length * 2 * (qy * qz - qw * qx);
        local[o + 2] = local[p + 2] - length * (1 - 2 * (qx * qx + qy * qy));
        if (j === last) {
          // A tip has no bone of its own: it keeps the distal bone's orientation.
          local[o + 3] = qx;
          local[o + 4] = qy;
          local[o + 5] = qz;
          local[o + 6] = qw;
        } else {
          jointRotation(skeleton.restRotation, j, qx, qy, qz, qw, angles, local, o + 3);
        }
      }
    }
  }
  // Palm: the centre of the middle metacarpal, oriented like it.
  const m = J.MiddleMetacarpal * POSE_FLOATS;
  const n = J.MiddleProximal * POSE_FLOATS;
  setPose(
    local,
    J.Palm,
    (local[m] + local[n]) / 2,
    (local[m + 1] + local[n + 1]) / 2,
    (local[m + 2] + local[n + 2]) / 2,
    local[m + 3],
    local[m + 4],
    local[m + 5],
    local[m + 6],
  );
}

/**
 * World joint poses from wrist-relative ones: mirrors for a left hand, then applies the wrist pose.
 * `wrist` is 7 numbers (position, quaternion). Writes 3 floats per joint into `positions`, 4 into
 * `orientations`.
 */
export function handWorldPoses(
  local: Float64Array,
  left: boolean,
  wrist: ArrayLike<number>,
  positions: Float32Array,
  orientations: Float32Array,
): void {
  const wx = wrist[3], wy = wrist[4], wz = wrist[5], ww = wrist[6];
  const sign = left ? -1 : 1;
  for (let j = 0; j < JOINT_COUNT; j++) {
    const o = j * POSE_FLOATS;
    const px = sign * local[o], py = local[o + 1], pz = local[o + 2];
    // p' = wrist.position + rotate(wrist.rotation, p), fused with the mirror and written out here rather than
    // through kernels/quat.ts: the wrist position is added first, an order every hand pose (and hash) keeps.
    const tx = 2 * (wy * pz - wz * py);
    const ty = 2 * (wz * px - wx * pz);
    const tz = 2 * (wx * py - wy * px);
    positions[j * 3] = wrist[0] + px + ww * tx + (wy * tz - wz * ty);
    positions[j * 3 + 1] = wrist[1] + py + ww * ty + (wz * tx - wx * tz);
    positions[j * 3 + 2] = wrist[2] + pz + ww * tz + (wx * ty - wy * tx);
    // q' = wrist.rotation ⊗ mirror(q)
    const qx = local[o + 3], qy = sign * local[o + 4], qz = sign * local[o + 5], qw = local[o + 6];
    orientations[j * 4] = ww * qx + wx * qw + wy * qz - wz * qy;
    orientations[j * 4 + 1] = ww * qy - wx * qz + wy * qw + wz * qx;
    orientations[j * 4 + 2] = ww * qz + wx * qy - wy * qx + wz * qw;
    orientations[j * 4 + 3] = ww * qw - wx * qx - wy * qy - wz * qz;
  }
}

function setPose(out: Float64Array, j: number, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number): void {
  const o = j * POSE_FLOATS;
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = qx;
  out[o + 4] = qy;
  out[o + 5] = qz;
  out[o + 6] = qw;
}

/** out = parent ⊗ rest[j] ⊗ Ry(abduction) ⊗ Rx(−flexion). */
function jointRotation(
  rest: Float64Array,
  j: number,
  px: number,
  py: number,
  pz: number,
  pw: number,
  angles: Float64Array,
  out: Float64Array,
  o: number,
): void {
  const r = j * 4;
  const rx = rest[r], ry = rest[r + 1], rz = rest[r + 2], rw = rest[r + 3];
  // a = parent ⊗ rest
  const ax = pw * rx + px * rw + py * rz - pz * ry;
  const ay = pw * ry - px * rz + py * rw + pz * rx;
  const az = pw * rz + px * ry - py * rx + pz * rw;
  const aw = pw * rw - px * rx - py * ry - pz * rz;
  // a ⊗ Ry(abduction): (0, s, 0, c)
  const halfAbduction = angles[j * 2 + 1] / 2;
  const s1 = Math.sin(halfAbduction);
  const c1 = Math.cos(halfAbduction);
  const bx = ax * c1 - az * s1;
  const by = aw * s1 + ay * c1;
  const bz = ax * s1 + az * c1;
  const bw = aw * c1 - ay * s1;
  // b ⊗ Rx(−flexion): (−s, 0, 0, c)
  const halfFlexion = -angles[j * 2] / 2;
  const s2 = Math.sin(halfFlexion);
  const c2 = Math.cos(halfFlexion);
  out[o] = bw * s2 + bx * c2;
  out[o + 1] = by * c2 + bz * s2;
  out[o + 2] = bz * c2 - by * s2;
  out[o + 3] = bw * c2 - bx * s2;
}
