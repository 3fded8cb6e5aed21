/**
 * The user as the design heuristics see it in one frame: the eyes and where they look, how fast the head
 * turns, and each hand's palm frame, wrist, index fingertip and shoulder. Read from the frame's channels
 * into preallocated arrays (no allocation per frame), keeping the previous frame's head and palms.
 */
import { J } from '../../kernels/hand-fk.js';
import { quatAxesInto, yawFrameToWorldInto } from '../../kernels/quat.js';
import type { FrameView } from '../frame/frame.js';
import { HAND_JOINT_FLOATS, handTracked } from '../frame/layout.js';
import type { SimModel } from '../model/types.js';

/** One hand in one frame. */
export class HandView {
  tracked = false;
  /** Whether it was tracked in the previous frame too (so `palmMoved` means something). */
  trackedBefore = false;
  readonly palm = new Float64Array(3);
  /** The palm's axes, X, Y, Z (world), as columns. */
  readonly palmAxes = new Float64Array(9);
  readonly wrist = new Float64Array(3);
  readonly tip = new Float64Array(3);
  /** Where its shoulder is (set whether or not the hand is tracked). */
  readonly shoulder = new Float64Array(3);
  /**
   * How far the palm moved since the previous frame, metres (0 unless tracked in both), in the body's frame
   * (the eyes' position and yaw): a hand resting at the side while the user turns does not move.
   */
  palmMoved = 0;
  /** The palm in the body's frame. */
  readonly palmInBody = new Float64Array(3);

  constructor(
    readonly side: 'left' | 'right',
    readonly channel: string,
  ) {}
}

/** The user in the current frame. */
export class UserView {
  readonly eye = new Float64Array(3);
  readonly previousEye = new Float64Array(3);
  /** The head's axes, X (right), Y (up), Z (back), as columns; and the previous frame's. */
  readonly axes = new Float64Array(9);
  readonly previousAxes = new Float64Array(9);
  /** The head's yaw (radians, 0 looking along −Z). */
  yaw = 0;
  /** How fast the gaze direction turns, degrees per second (0 in the first frame). */
  turnSpeed = 0;
  readonly hands = [new HandView('left', 'hand-left'), new HandView('right', 'hand-right')] as const;
  private frames = 0;

  constructor(
    private readonly model: SimModel,
    readonly dt: number,
  ) {}

  /** Reads the frame. */
  update(frame: FrameView): void {
    this.previousEye.set(this.eye);
    this.previousAxes.set(this.axes);
    const h = frame.channel('head')!;
    this.eye[0] = h[0];
    this.eye[1] = h[1];
    this.eye[2] = h[2];
    quatAxesInto(h[3], h[4], h[5], h[6], this.axes, 0);
    const a = this.axes;
    this.yaw = Math.atan2(a[6], a[8]); // the forward axis is −Z: atan2(−(−Zx), −(−Zz))
    if (this.frames++ > 0) {
      const cos = a[6] * this.previousAxes[6] + a[7] * this.previousAxes[7] + a[8] * this.previousAxes[8];
      this.turnSpeed = (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI / this.dt;
    }
    const shoulderOffset = this.model.user.shoulderOffset;
    for (let s = 0; s < 2; s++) {
      const hand = this.hands[s];
      const c = frame.channel(hand.channel);
      hand.trackedBefore = hand.tracked;
      hand.tracked = handTracked(c);
      const mirror = hand.side === 'left' ? -1 : 1;
      yawFrameToWorldInto(this.eye, this.yaw, mirror * shoulderOffset[0], shoulderOffset[1], shoulderOffset[2], hand.shoulder, 0);
      if (!hand.tracked || !c) {
        hand.palmMoved = 0;
        continue;
      }
      const p = J.Palm * HAND_JOINT_FLOATS;
      hand.palm[0] = c[p];
      hand.palm[1] = c[p + 1];
      hand.palm[2] = c[p + 2];
      const b = hand.palmInBody;
      const bx = b[0], by = b[1], bz = b[2];
      this.toBody(c[p], c[p + 1], c[p + 2], b);
      hand.palmMoved = hand.trackedBefore ? Math.hypot(b[0] - bx, b[1] - by, b[2] - bz) : 0;
      quatAxesInto(c[p + 3], c[p + 4], c[p + 5], c[p + 6], hand.palmAxes, 0);
      copyJoint(c, J.Wrist, hand.wrist);
      copyJoint(c, J.IndexTip, hand.tip);
    }
  }

  /** A world point in the body's frame (the eyes' position, turned by the head's yaw) into out[0..2]. */
  toBody(x: number, y: number, z: number, out: Float64Array): void {
    const dx = x - this.eye[0], dz = z - this.eye[2];
    const c = Math.cos(this.yaw), s = Math.sin(this.yaw);
    out[0] = c * dx - s * dz;
    out[1] = y - this.eye[1];
    out[2] = s * dx + c * dz;
  }

  /** Whether a point is within arm's reach of either shoulder (arm and hand: where fingers can touch). */
  withinReach(x: number, y: number, z: number): boolean {
    const reach = this.model.user.armLength + this.model.user.handModel.handLength;
    for (let s = 0; s < 2; s++) {
      const sh = this.hands[s].shoulder;
      if (Math.hypot(x - sh[0], y - sh[1], z - sh[2]) <= reach) return true;
    }
    return false;
  }

  /** The gaze direction's horizontal yaw offset to a point (degrees, 0–180) and the point's elevation from the eyes (degrees). */
  anglesTo(x: number, y: number, z: number, out: Float64Array): void {
    const dx = x - this.eye[0];
    const dy = y - this.eye[1];
    const dz = z - this.eye[2];
    const flat = Math.hypot(dx, dz);
    const fx = -this.axes[6];
    const fz = -this.axes[8];
    const fl = Math.hypot(fx, fz) || 1;
    const cos = flat > 1e-9 ? (dx * fx + dz * fz) / (flat * fl) : 1;
    out[0] = (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
    out[1] = (Math.atan2(dy, flat) * 180) / Math.PI;
  }
}

function copyJoint(c: ArrayLike<number>, joint: number, out: Float64Array): void {
  const o = joint * HAND_JOINT_FLOATS;
  out[0] = c[o];
  out[1] = c[o + 1];
  out[2] = c[o + 2];
}
