/**
 * The simulated head: where the eyes are and where they look.
 *
 * Position moves by minimum-jerk transitions (moveTo, posture changes) or along a walking path; it jumps
 * only on an explicit teleport. Gaze is smooth pursuit: yaw and pitch follow their targets through a
 * critically damped spring, so the head never snaps and keeps up with a moving target. Yaw 0 faces −Z.
 */
import { yawFrameToWorldInto } from '../../kernels/quat.js';
import type { Vec3 } from '../geometry/types.js';
import { ease, type Easing } from './motion.js';

/** Natural frequency of gaze pursuit, rad/s: settles a large turn in about half a second. */
const PURSUIT_OMEGA = 10;
/** Angle and angular rate (rad, rad/s) below which gaze pursuit counts as arrived. */
const SETTLED = 1e-9;
/** Default walking speed, m/s (a comfortable adult pace). */
export const WALKING_SPEED = 1.4;

/** The head's state and its motion commands. */
export class Head {
  /** Eye centre, world. */
  readonly position = new Float64Array(3);
  yaw = 0;
  pitch = 0;
  /** Whether the last update moved the head (a still head's outputs stay as they were). */
  changed = true;
  private yawRate = 0;
  private pitchRate = 0;
  private readonly moveFrom = new Float64Array(3);
  private readonly moveTo3 = new Float64Array(3);
  private moveStart = 0;
  private moveDuration = 0;
  private moveEasing: Easing = 'min-jerk';
  private eyeFrom = 0;
  private eyeTo = 0;
  private eyeStart = 0;
  private eyeDuration = 0;
  private path: { points: Float64Array; lengths: Float64Array; total: number; start: number; duration: number } | null = null;
  private gazeTarget: Float64Array | null = null;
  private gazeYaw: number | null = null;
  private gazePitch: number | null = null;

  constructor(floor: Vec3, yaw: number, eyeHeight: number) {
    this.teleport([floor[0], eyeHeight, floor[2]], yaw);
  }

  /** Jumps to a pose immediately, cancelling motion. The only discontinuous move. */
  teleport(position: Vec3, yaw: number, pitch = 0): void {
    this.changed = true;
    this.position.set(position);
    this.moveFrom.set(position);
    this.moveTo3.set(position);
    this.moveDuration = 0;
    this.eyeFrom = this.eyeTo = position[1];
    this.eyeDuration = 0;
    this.path = null;
    this.yaw = yaw;
    this.pitch = pitch;
    this.yawRate = this.pitchRate = 0;
    this.gazeTarget = null;
    this.gazeYaw = this.gazePitch = null;
  }

  /** Moves the eyes to `position` over `duration` seconds (minimum jerk). */
  moveTo(t: number, position: Vec3, duration: number, easing: Easing = 'min-jerk'): void {
    this.path = null;
    this.moveFrom.set(this.position);
    this.moveTo3.set(position);
    this.moveStart = t;
    this.moveDuration = duration;
    this.moveEasing = easing;
    this.eyeFrom = this.eyeTo = position[1];
    this.eyeDuration = 0;
  }

  /** Changes eye height (stand up, sit down) over `duration` seconds. */
  setEyeHeight(t: number, height: number, duration: number): void {
    this.eyeFrom = this.position[1];
    this.eyeTo = height;
    this.eyeStart = t;
    this.eyeDuration = duration;
  }

  /**
   * Walks through floor points (y ignored) at up to `speed` m/s, starting and stopping smoothly (minimum
   * jerk along the path: peak speed = `speed`). Faces the way it walks unless a gaze target is set.
   */
  walk(t: number, points: readonly Vec3[], speed = WALKING_SPEED): number {
    const all = [[this.position[0], this.position[2]], ...points.map((p) => [p[0], p[2]])];
    const flat = new Float64Array(all.flat());
    const lengths = new Float64Array(all.length);
    for (let i = 1; i < all.length; i++) lengths[i] = lengths[i - 1] + Math.hypot(all[i][0] - all[i - 1][0], all[i][1] - all[i - 1][1]);
    const total = lengths[all.length - 1];
    // A minimum-jerk profile peaks at 1.875 × its mean speed.
    const duration = total > 0 ? (1.875 * total) / speed : 0;
    this.moveDuration = 0;
    this.path = { points: flat, lengths, total, start: t, duration };
    return duration;
  }

  /** Looks at a world point from now on (smooth pursuit), or stops tracking with `null`. */
  lookAt(point: Vec3 | null): void {
    this.gazeTarget = point ? new Float64Array(point) : null;
    this.gazeYaw = this.gazePitch = null;
  }

  /** Turns to a yaw and pitch (radians) by smooth pursuit. */
  turnTo(yaw: number, pitch = 0): void {
    this.gazeTarget = null;
    this.gazeYaw = yaw;
    this.gazePitch = pitch;
  }

  /** Advances to time `t` by one tick of `dt` seconds. */
  update(t: number, dt: number): void {
    // A head with nowhere to go and no gaze to follow stays exactly where it is.
    if (
      this.path === null && this.gazeTarget === null && this.gazeYaw === null && this.yawRate === 0 && this.pitchRate === 0 &&
      t > this.moveStart + this.moveDuration && t > this.eyeStart + this.eyeDuration
    ) {
      this.changed = false;
      return;
    }
    this.changed = true;
    let walkYaw: number | null = null;
    if (this.path) {
      const p = this.path;
      const s = ease(t, p.start, p.duration, 'min-jerk') * p.total;
      let i = 1;
      while (i < p.lengths.length - 1 && p.lengths[i] < s) i++;
      const segment = p.lengths[i] - p.lengths[i - 1];
      const u = segment > 0 ? (s - p.lengths[i - 1]) / segment : 1;
      const x0 = p.points[(i - 1) * 2], z0 = p.points[(i - 1) * 2 + 1], x1 = p.points[i * 2], z1 = p.points[i * 2 + 1];
      this.position[0] = x0 + u * (x1 - x0);
      this.position[2] = z0 + u * (z1 - z0);
      if (segment > 0 && t < p.start + p.duration) walkYaw = Math.atan2(-(x1 - x0), -(z1 - z0));
    } else if (this.moveDuration > 0 || t <= this.moveStart) {
      const s = ease(t, this.moveStart, this.moveDuration, this.moveEasing);
      for (let i = 0; i < 3; i++) this.position[i] = this.moveFrom[i] + s * (this.moveTo3[i] - this.moveFrom[i]);
    }
    if (this.eyeDuration > 0 || this.eyeFrom !== this.eyeTo) {
      this.position[1] = this.eyeFrom + ease(t, this.eyeStart, this.eyeDuration) * (this.eyeTo - this.eyeFrom);
    }
    let targetYaw = this.gazeYaw ?? walkYaw ?? this.yaw;
    let targetPitch = this.gazePitch ?? (walkYaw !== null ? 0 : this.pitch);
    if (this.gazeTarget) {
      const dx = this.gazeTarget[0] - this.position[0];
      const dy = this.gazeTarget[1] - this.position[1];
      const dz = this.gazeTarget[2] - this.position[2];
      targetYaw = Math.atan2(-dx, -dz);
      targetPitch = Math.atan2(dy, Math.hypot(dx, dz));
    }
    // Critically damped pursuit, integrated semi-implicitly with the fixed dt.
    const yawError = wrapAngle(targetYaw - this.yaw);
    this.yawRate += dt * (PURSUIT_OMEGA * PURSUIT_OMEGA * yawError - 2 * PURSUIT_OMEGA * this.yawRate);
    this.yaw = wrapAngle(this.yaw + dt * this.yawRate);
    const pitchError = targetPitch - this.pitch;
    this.pitchRate += dt * (PURSUIT_OMEGA * PURSUIT_OMEGA * pitchError - 2 * PURSUIT_OMEGA * this.pitchRate);
    this.pitch = Math.max(-1.4, Math.min(1.4, this.pitch + dt * this.pitchRate));
    // The spring approaches its target forever; below a nano-radian, arrive, so a still head is exactly still.
    if (Math.abs(wrapAngle(targetYaw - this.yaw)) < SETTLED && Math.abs(this.yawRate) < SETTLED) {
      this.yaw = wrapAngle(targetYaw);
      this.yawRate = 0;
    }
    if (Math.abs(targetPitch - this.pitch) < SETTLED && Math.abs(this.pitchRate) < SETTLED) {
      this.pitch = Math.max(-1.4, Math.min(1.4, targetPitch));
      this.pitchRate = 0;
    }
  }

  /** Writes the head pose (position, quaternion = yaw about +Y then pitch about +X) into `out[0..6]`. */
  writePose(out: Float64Array | Float32Array, o = 0): void {
    out[o] = this.position[0];
    out[o + 1] = this.position[1];
    out[o + 2] = this.position[2];
    const sy = Math.sin(this.yaw / 2), cy = Math.cos(this.yaw / 2);
    const sp = Math.sin(this.pitch / 2), cp = Math.cos(this.pitch / 2);
    // (0, sy, 0, cy) ⊗ (sp, 0, 0, cp)
    out[o + 3] = cy * sp;
    out[o + 4] = sy * cp;
    out[o + 5] = -sy * sp;
    out[o + 6] = cy * cp;
  }

  /**
   * Writes the two eye positions (left then right, 3 numbers each) for an interpupillary distance: the eyes
   * sit ±ipd/2 along the head's +X axis from the eye centre. These are the origins of the two views.
   */
  writeEyePositions(ipd: number, out: Float64Array): void {
    // The head's +X axis is the yawed world X: pitch turns about +X and leaves it where it is.
    const x = Math.cos(this.yaw), z = -Math.sin(this.yaw);
    const half = ipd / 2;
    for (let e = 0; e < 2; e++) {
      const sign = e === 0 ? -1 : 1;
      out[e * 3] = this.position[0] + sign * half * x;
      out[e * 3 + 1] = this.position[1];
      out[e * 3 + 2] = this.position[2] + sign * half * z;
    }
  }

  /**
   * Maps a body-frame offset (x right, y up, z back, relative to the eyes; the body turns with the head's
   * yaw only) into the world, writing into out[o..o+2].
   */
  bodyPoint(offset: ArrayLike<number>, mirrorX: boolean, out: Float64Array, o = 0): void {
    yawFrameToWorldInto(this.position, this.yaw, mirrorX ? -offset[0] : offset[0], offset[1], offset[2], out, o);
  }
}

/** Wraps an angle into (−π, π]. */
export function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
}
