/**
 * Where a hand or controller is held: a timed pose motion either in the body frame (it follows the user as
 * they walk and turn) or in the world (it stays on a target while the user moves).
 */
import { quatAxesInto, yawFrameToWorldInto } from '../../kernels/quat.js';
import { quatMultiply } from '../geometry/math.js';
import type { Quat } from '../geometry/types.js';
import type { UserModel } from '../task/user-options.js';
import type { Head } from './head.js';
import { PoseMotion, type Easing } from './motion.js';

/** A pose motion that knows which frame it is in. */
export class Placement {
  private readonly motion = new PoseMotion();
  private bodyRelative = true;
  private readonly from = new Float64Array(7);

  /** Holds `pose` in the body frame. */
  holdInBody(pose: ArrayLike<number>): void {
    this.motion.hold(pose);
    this.bodyRelative = true;
  }

  /** Moves from the current world pose `current` to the world pose `target` in `duration` seconds. */
  moveInWorld(t: number, current: ArrayLike<number>, target: ArrayLike<number>, duration: number): void {
    this.motion.begin(t, current, target, duration);
    this.bodyRelative = false;
  }

  /** Moves from the current world pose `current` to the body-frame pose `target` in `duration` seconds. */
  moveInBody(t: number, head: Head, current: ArrayLike<number>, target: ArrayLike<number>, duration: number): void {
    this.from.set(current);
    worldToBody(head, this.from);
    this.motion.begin(t, this.from, target, duration);
    this.bodyRelative = true;
  }

  /**
   * Turns the pose by `delta`, a rotation in its own frame (applied after its rotation), over `duration`
   * seconds from `t`: a hand held still turns where it is; a move in progress goes on to its target from where
   * it is now, turned, and ends no earlier than it would have.
   */
  turn(t: number, delta: Quat, duration: number, easing: Easing): void {
    const m = this.motion;
    const end = Math.max(m.start + m.duration, t + duration);
    this.from.set(m.to);
    this.from.set(quatMultiply([m.to[3], m.to[4], m.to[5], m.to[6]], delta), 3);
    m.retarget(t, this.from, end - t, easing);
  }

  /** True once the motion is over (a body-relative pose still moves with the body). */
  settled(t: number): boolean {
    return this.motion.settled(t);
  }

  /** The world pose at time `t`, into `out` (7 numbers). */
  evaluate(t: number, head: Head, out: Float64Array): void {
    this.motion.evaluate(t, out);
    if (this.bodyRelative) bodyToWorld(head, out);
  }
}

/** The body's rotation: the head's yaw. */
export function bodyRotation(head: Head): Quat {
  return [0, Math.sin(head.yaw / 2), 0, Math.cos(head.yaw / 2)];
}

/**
 * Turns a body-frame pose (relative to the eyes, turned by the head's yaw only) into a world pose, in place.
 * Runs every tick for resting hands: no allocation.
 */
export function bodyToWorld(head: Head, pose: Float64Array): void {
  yawFrameToWorldInto(head.position, head.yaw, pose[0], pose[1], pose[2], pose, 0);
  // (0, sy, 0, cy) ⊗ q
  const sy = Math.sin(head.yaw / 2), cy = Math.cos(head.yaw / 2);
  const qx = pose[3], qy = pose[4], qz = pose[5], qw = pose[6];
  pose[3] = cy * qx + sy * qz;
  pose[4] = cy * qy + sy * qw;
  pose[5] = cy * qz - sy * qx;
  pose[6] = cy * qw - sy * qy;
}

/** Inverse of {@link bodyToWorld}, in place. */
export function worldToBody(head: Head, pose: Float64Array): void {
  const dx = pose[0] - head.position[0], dy = pose[1] - head.position[1], dz = pose[2] - head.position[2];
  const c = Math.cos(head.yaw), s = Math.sin(head.yaw);
  pose[0] = c * dx - s * dz;
  pose[1] = dy;
  pose[2] = s * dx + c * dz;
  const [x, y, z, w] = bodyRotation(head);
  pose.set(quatMultiply([-x, -y, -z, w], [pose[3], pose[4], pose[5], pose[6]]), 3);
}

/**
 * Keeps a wrist (or grip) target within arm's reach of its shoulder, which sits at a fixed offset from the
 * eyes in the body frame. Moves `point` onto the edge of reach if needed and returns how far the target was
 * from the shoulder, or null when it was within reach.
 */
export function clampToReach(head: Head, user: UserModel, left: boolean, point: Float64Array): number | null {
  const shoulder = reachScratch;
  head.bodyPoint(user.shoulderOffset, left, shoulder);
  const dx = point[0] - shoulder[0], dy = point[1] - shoulder[1], dz = point[2] - shoulder[2];
  const distance = Math.hypot(dx, dy, dz);
  if (distance <= user.armLength + 1e-9) return null;
  const k = user.armLength / distance;
  point[0] = shoulder[0] + dx * k;
  point[1] = shoulder[1] + dy * k;
  point[2] = shoulder[2] + dz * k;
  return distance;
}

const reachScratch = new Float64Array(3);

/**
 * Where a hand's shoulder is, from a head pose as frames record it (position, quaternion): `offset` (the user
 * model's `shoulderOffset`, a right shoulder) placed from the eyes in the body frame, which turns with the
 * head's yaw; mirrored for the left. Into out[0..2].
 */
export function shoulderFromHead(head: ArrayLike<number>, offset: ArrayLike<number>, left: boolean, out: Float64Array): void {
  quatAxesInto(head[3], head[4], head[5], head[6], axesScratch, 0);
  // The head's −Z axis looks forward: its yaw is that of +Z, atan2(Zx, Zz).
  yawFrameToWorldInto(head, Math.atan2(axesScratch[6], axesScratch[8]), left ? -offset[0] : offset[0], offset[1], offset[2], out, 0);
}

const axesScratch = new Float64Array(9);
