/**
 * A hand posed on its own, outside a session: for `xrsim pose`, for tests and for tools.
 */
import { createFkScratch, handLocalPoses, handWorldPoses, JOINT_COUNT } from '../../kernels/hand-fk.js';
import { quatMultiply } from '../geometry/math.js';
import type { HandModel } from '../hand/hand-model.js';
import type { HandPose } from '../hand/poses.js';

/** World joint poses of one hand: 3 floats per joint, 4 per orientation, and the radii. */
export interface PosedHand {
  positions: Float32Array;
  orientations: Float32Array;
  radii: Float64Array;
}

/** Poses `pose` on a hand of `model` with its wrist at `wrist` (7 numbers: position, quaternion). */
export function poseHand(model: HandModel, pose: HandPose, side: 'left' | 'right', wrist: ArrayLike<number>): PosedHand {
  const local = createFkScratch();
  handLocalPoses(model.skeleton, pose.angles, local);
  const positions = new Float32Array(JOINT_COUNT * 3);
  const orientations = new Float32Array(JOINT_COUNT * 4);
  handWorldPoses(local, side === 'left', wrist, positions, orientations);
  return { positions, orientations, radii: model.skeleton.radius.slice() };
}

/**
 * The documented default wrist pose: a user standing at the origin, facing −Z, with eyes at 1.60 m scaled
 * by hand length (as in a session), and the wrist 16 cm to the side, 45 cm below the eyes and 30 cm in
 * front of them (likewise scaled): in front of the chest. The hand is palm down with the fingers forward,
 * turned as the pose's gesture is usually made (a thumbs-up turns the thumb up).
 */
export function defaultWristPose(model: HandModel, side: 'left' | 'right', pose: HandPose): number[] {
  const k = model.spec.handLength / 0.189;
  const x = (side === 'left' ? -0.16 : 0.16) * k;
  const [qx, qy, qz, qw] = pose.wristRotation;
  const rotation = side === 'left' ? [qx, -qy, -qz, qw] : [qx, qy, qz, qw];
  return [x, (1.6 - 0.45) * k, -0.3 * k, ...quatMultiply([0, 0, 0, 1], rotation)];
}
