/**
 * One simulated hand: its pose over time, where it is, what it touches and whether the headset sees it.
 *
 * Each tick (`update`): blend the joint angles (pose transition, then pinch amount), add perturbation,
 * place the wrist (minimum-jerk motion, bounded by arm reach), run forward kinematics, push the hand out
 * of static surfaces beyond the allowed penetration, measure fingertip and palm contacts, and test the
 * tracking cone.
 */
import { ANGLES_PER_JOINT, createFkScratch, handLocalPoses, handWorldPoses, J, JOINT_COUNT } from '../../kernels/hand-fk.js';
import type { SceneGeometry } from '../../kernels/scene-geometry.js';
import { CONTACT_PROBES, ContactProbes, type ContactReport } from './contact-probes.js';
import { quatFromAxes, quatMultiply, rotateVec, vecNormalize, vecScale } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { clampToLimits, type HandModel } from '../hand/hand-model.js';
import type { Head } from './head.js';
import { OPENXR_JOINTS, type JointName } from '../hand/joints.js';
import { AngleBlend, ScalarBlend, type Easing } from './motion.js';
import { bodyRotation, clampToReach, Placement } from './placement.js';
import { resolvePose, type HandPose } from '../hand/poses.js';
import type { UserModel } from '../task/user-options.js';
import { POSE_FLOATS } from '../../kernels/pose-compose.js';

export { CONTACT_PROBES };

/** What part of the hand a placement target is for. */
export type HandPoint = 'wrist' | 'palm' | 'pinch-point' | JointName;

/** A placement request. */
export interface HandTarget {
  /** World point the chosen part of the hand should reach. */
  point: Vec3;
  /** Which part: `wrist` (default), `palm`, `pinch-point` (between thumb and index tips), or any joint. */
  with?: HandPoint;
  /** Wrist orientation, world. Overrides `palmFacing`. */
  orientation?: Quat;
  /** Direction the palm should face, world. */
  palmFacing?: Vec3;
  /** Direction the fingers should point (with `palmFacing`), world. Default: away from the body. */
  fingersToward?: Vec3;
}

/** Called when a target is out of reach: how far it is from the shoulder, and the arm's reach. */
export type UnreachableListener = (distance: number, reach: number) => void;

/**
 * Relaxations below this (metres) are not made. Without it a hand resting against a surface, pushed out to
 * the penetration limit, would creep back and be pushed out again by rounding errors every tick, and never
 * count as at rest.
 */
const MIN_RELAX_STEP = 1e-6;

/** Per-tick perturbation sources, seeded per hand (see `perturbation.ts`). */
export interface HandPerturbation {
  /** Adds tremor to a wrist position at time t. */
  tremor(t: number, position: Float64Array): void;
  /** Adds time `t`'s jitter to joint angles. */
  jitter(t: number, angles: Float64Array): void;
}

/** One hand's state. */
export class Hand {
  readonly left: boolean;
  /** World joint positions, 3 per OpenXR joint. */
  readonly positions = new Float32Array(JOINT_COUNT * 3);
  /** World joint orientations, 4 per joint. */
  readonly orientations = new Float32Array(JOINT_COUNT * 4);
  /** The wrist pose this tick, after reach and contact constraints (7 numbers). */
  readonly wrist = new Float64Array(7);
  /** Current joint angles (2 per joint, radians), perturbation included. */
  readonly angles = new Float64Array(JOINT_COUNT * ANGLES_PER_JOINT);
  /** Per probe: signed distance from the skin to the nearest static surface (negative = penetration). */
  readonly contactDistance = new Float64Array(CONTACT_PROBES.length);
  /** Per probe: the surface normal (3 each). */
  readonly contactNormal = new Float64Array(CONTACT_PROBES.length * 3);
  /** Per probe: index of the static object touched or in range, −1 for none. */
  readonly contactSurface = new Int32Array(CONTACT_PROBES.length);
  tracked = true;
  /** False while a script has switched tracking off for this hand. */
  trackingEnabled = true;
  /** Whether the last update changed anything (an idle hand's outputs stay as they were). */
  changed = true;
  /**
   * Bumped whenever `local` is recomputed from joint angles that differ from the last ones: equal
   * versions, equal wrist-relative joint poses (a hand moving in one pose keeps them).
   */
  localVersion = 0;

  private readonly poseBlend = new AngleBlend(JOINT_COUNT * ANGLES_PER_JOINT);
  private readonly pinch = new ScalarBlend();
  private readonly pinchAngles: Float64Array;
  private readonly placement = new Placement();
  /** Joint poses relative to the wrist, for a right hand (7 per joint; a left hand mirrors them). */
  readonly local = createFkScratch();
  private readonly targetLocal = createFkScratch();
  /** The head yaw and pitch the tracking cone's axis (3) and cos(half angle) were computed for. */
  private readonly cone = new Float64Array(6).fill(NaN);
  /** Whether `angles` were last computed with both transitions over (and no perturbation). */
  private anglesSettled = false;
  /** The joint angles `local` was computed from. */
  private readonly localAngles = new Float64Array(JOINT_COUNT * ANGLES_PER_JOINT).fill(NaN);
  private readonly scratch7 = new Float64Array(7);
  /**
   * How far static surfaces have pushed the hand from where it was sent, carried from tick to tick. Each
   * tick starts from it, so only the new motion has to be resolved (a deep, stateless push-out can pick the
   * wrong face of a thick table), and it relaxes back as the target leaves the surface.
   */
  private readonly pushOut = new Float64Array(3);
  private readonly probes = new ContactProbes();
  private readonly contacts: ContactReport = { distance: this.contactDistance, normal: this.contactNormal, surface: this.contactSurface };
  private wristHint: Quat = [0, 0, 0, 1];
  private outOfReach = false;
  /** The head pose (x, y, z, yaw, pitch) at the last full update, and whether the hand was at rest then. */
  private readonly lastHead = new Float64Array(5);
  private restingAtLastUpdate = false;
  private lastTrackingEnabled = true;

  constructor(
    readonly side: 'left' | 'right',
    readonly model: HandModel,
    private readonly user: UserModel,
    initialPose: HandPose,
    private readonly onUnreachable: UnreachableListener,
    private readonly perturbation: HandPerturbation | null,
  ) {
    this.left = side === 'left';
    this.poseBlend.hold(initialPose.angles);
    this.pinchAngles = resolvePose('pinch', model).angles;
    this.wristHint = this.mirrored(initialPose.wristRotation);
    const rest = new Float64Array(7);
    rest.set(user.restWristOffset);
    if (this.left) rest[0] = -rest[0];
    rest.set(this.wristHint, 3);
    this.placement.holdInBody(rest);
  }

  /**
   * Changes pose over `duration` seconds (eased). A pose made with another wrist turn than the last one (a
   * thumbs-up turns the thumb up) turns the wrist by the difference over the same time, wherever the hand is:
   * at rest, held where a reach left it, or on its way there.
   */
  setPose(t: number, pose: HandPose, duration: number, easing: Easing = 'min-jerk'): void {
    this.restingAtLastUpdate = false;
    this.anglesSettled = false;
    this.poseBlend.retarget(t, pose.angles, duration, easing);
    const hint = this.mirrored(pose.wristRotation);
    const was = this.wristHint;
    if (hint[0] !== was[0] || hint[1] !== was[1] || hint[2] !== was[2] || hint[3] !== was[3]) {
      this.placement.turn(t, quatMultiply([-was[0], -was[1], -was[2], was[3]], hint), duration, easing);
    }
    this.wristHint = hint;
  }

  /** Blends toward the pinch pose: 0 = the current pose, 1 = a full pinch. */
  setPinch(t: number, amount: number, duration: number): void {
    this.restingAtLastUpdate = false;
    this.anglesSettled = false;
    this.pinch.retarget(t, Math.min(1, Math.max(0, amount)), duration);
  }

  /** The pinch amount at time t. */
  pinchAmount(t: number): number {
    return this.pinch.value(t);
  }

  /**
   * Moves so that the chosen part of the hand reaches `target.point` in `duration` seconds, along a
   * minimum-jerk path. A target beyond arm reach is reported through the unreachable listener and the hand
   * stops at the edge of its reach, never teleporting.
   */
  moveTo(t: number, head: Head, target: HandTarget, duration: number): void {
    this.restingAtLastUpdate = false;
    const wrist = this.scratch7;
    const rotation = target.orientation ?? this.orientationFor(head, target);
    wrist.set(rotation, 3);
    // Where the chosen point sits relative to the wrist, in the pose the hand will have on arrival.
    const end = new Float64Array(this.poseBlend.to);
    const pinch = this.pinch.to;
    for (let i = 0; i < end.length; i++) end[i] += pinch * (this.pinchAngles[i] - end[i]);
    handLocalPoses(this.model.skeleton, end, this.targetLocal);
    const offset = rotateVec(rotation, this.pointOffset(target.with ?? 'wrist', this.targetLocal));
    for (let i = 0; i < 3; i++) wrist[i] = target.point[i] - offset[i];
    const distance = clampToReach(head, this.user, this.left, wrist);
    if (distance !== null) this.onUnreachable(distance, this.user.armLength);
    this.placement.moveInWorld(t, this.wrist, wrist, duration);
  }

  /** Returns the hand to its resting place in front of the body (body-relative) over `duration`. */
  rest(t: number, head: Head, duration: number): void {
    this.restingAtLastUpdate = false;
    const rest = this.scratch7;
    rest.set(this.user.restWristOffset);
    if (this.left) rest[0] = -rest[0];
    rest.set(this.wristHint, 3);
    this.placement.moveInBody(t, head, this.wrist, rest, duration);
  }

  /**
   * Advances the hand to time `t`. `sdf` is the scene geometry (its static surfaces stop the hand); `head` the current head. A hand at rest (every
   * transition over, no perturbation, the head unmoved, tracking unchanged) is exactly where it was at the
   * last update, so that update's results stand and the work is skipped.
   */
  update(t: number, head: Head, sdf: SceneGeometry): void {
    const resting = !this.perturbation && this.poseBlend.settled(t) && this.pinch.settled(t) && this.placement.settled(t);
    const h = this.lastHead;
    const headStill = h[0] === head.position[0] && h[1] === head.position[1] && h[2] === head.position[2] && h[3] === head.yaw && h[4] === head.pitch;
    if (resting && this.restingAtLastUpdate && headStill && this.lastTrackingEnabled === this.trackingEnabled) {
      this.changed = false;
      return;
    }
    this.changed = true;
    this.restingAtLastUpdate = resting;
    this.lastTrackingEnabled = this.trackingEnabled;
    h[0] = head.position[0];
    h[1] = head.position[1];
    h[2] = head.position[2];
    h[3] = head.yaw;
    h[4] = head.pitch;
    // Settled transitions give the angles they gave last time, once they have been computed settled.
    const settledAngles = !this.perturbation && this.poseBlend.settled(t) && this.pinch.settled(t);
    if (!(settledAngles && this.anglesSettled)) {
      this.poseBlend.evaluate(t, this.angles);
      const pinch = this.pinch.value(t);
      if (pinch > 0) for (let i = 0; i < this.angles.length; i++) this.angles[i] += pinch * (this.pinchAngles[i] - this.angles[i]);
      if (this.perturbation) {
        this.perturbation.jitter(t, this.angles);
        clampToLimits(this.model, this.angles);
      }
    }
    this.anglesSettled = settledAngles;
    if (!sameValues(this.angles, this.localAngles)) {
      handLocalPoses(this.model.skeleton, this.angles, this.local);
      this.localAngles.set(this.angles);
      this.localVersion++;
    }

    this.placement.evaluate(t, head, this.wrist);
    // If the body moves away from a world target, the arm stays at full stretch; that is reported once.
    const beyond = clampToReach(head, this.user, this.left, this.wrist);
    if (beyond !== null && !this.outOfReach) this.onUnreachable(beyond, this.user.armLength);
    this.outOfReach = beyond !== null;
    this.perturbation?.tremor(t, this.wrist);
    for (let i = 0; i < 3; i++) this.wrist[i] += this.pushOut[i];
    handWorldPoses(this.local, this.left, this.wrist, this.positions, this.orientations);
    const px = this.pushOut[0], py = this.pushOut[1], pz = this.pushOut[2];
    this.resolveContacts(sdf);
    // Still being pushed or relaxing: not at rest yet, whatever the transitions say.
    if (px !== this.pushOut[0] || py !== this.pushOut[1] || pz !== this.pushOut[2]) this.restingAtLastUpdate = false;
    this.tracked = this.trackingEnabled && this.inTrackingCone(head);
  }

  /**
   * Keeps the hand out of static surfaces beyond the penetration limit, relaxes the carried push-out where
   * there is room, and records the probes' contacts. In the common case (nothing too deep, nothing carried)
   * one pass of six queries does it all.
   */
  private resolveContacts(sdf: SceneGeometry): void {
    const limit = this.user.maxPenetration;
    let deepest = this.report(sdf);
    const carried = Math.hypot(this.pushOut[0], this.pushOut[1], this.pushOut[2]);
    if (deepest <= limit + 1e-12 && carried === 0) return;
    // 1. Push out along the deepest probe's normal until no probe is deeper than the limit.
    for (let iteration = 0; iteration < 4 && deepest > limit + 1e-12; iteration++) {
      const normal = this.probes.normal;
      this.translate(normal[0] * (deepest - limit), normal[1] * (deepest - limit), normal[2] * (deepest - limit));
      deepest = this.probe(sdf, 0.001);
    }
    // 2. Relax: move back toward the target by the slack left. Moving by s brings any surface at most s
    //    closer, so with s = limit − (deepest penetration) nothing ends deeper than the limit.
    const still = Math.hypot(this.pushOut[0], this.pushOut[1], this.pushOut[2]);
    if (still > 0) {
      const slack = limit - this.probe(sdf, still);
      const step = Math.min(still, Math.max(0, slack));
      if (step >= MIN_RELAX_STEP) this.translate((-this.pushOut[0] / still) * step, (-this.pushOut[1] / still) * step, (-this.pushOut[2] / still) * step);
    }
    this.report(sdf);
  }

  /** Records every probe's contact within 5 cm of a surface; returns the deepest penetration (see `probe`). */
  private report(sdf: SceneGeometry): number {
    return this.probe(sdf, 0.05, true);
  }

  /** The deepest penetration of any probe, looking `range` beyond the skin (see `ContactProbes.deepest`). */
  private probe(sdf: SceneGeometry, range: number, record = false): number {
    return this.probes.deepest(sdf, this.positions, this.model.skeleton.radius, range, record ? this.contacts : null);
  }

  /** Moves the whole hand (and the carried push-out) by (x, y, z). */
  private translate(x: number, y: number, z: number): void {
    this.pushOut[0] += x;
    this.pushOut[1] += y;
    this.pushOut[2] += z;
    this.wrist[0] += x;
    this.wrist[1] += y;
    this.wrist[2] += z;
    for (let j = 0; j < JOINT_COUNT; j++) {
      this.positions[j * 3] += x;
      this.positions[j * 3 + 1] += y;
      this.positions[j * 3 + 2] += z;
    }
  }

  /** Whether the palm is inside the headset's tracking cone. */
  private inTrackingCone(head: Head): boolean {
    const { halfAngle, range, pitch } = this.user.tracking;
    const p = J.Palm * 3;
    const dx = this.positions[p] - head.position[0];
    const dy = this.positions[p + 1] - head.position[1];
    const dz = this.positions[p + 2] - head.position[2];
    const distance = Math.hypot(dx, dy, dz);
    if (distance > range) return false;
    // Cone axis: the head's forward direction, tilted down by the tracking pitch (kept while the head's
    // yaw and pitch stay the same: the same numbers, computed once).
    const cone = this.cone;
    if (!Object.is(cone[0], head.yaw) || !Object.is(cone[1], head.pitch)) {
      const yaw = head.yaw;
      const axisPitch = head.pitch + pitch;
      cone[0] = yaw;
      cone[1] = head.pitch;
      cone[2] = -Math.sin(yaw) * Math.cos(axisPitch);
      cone[3] = Math.sin(axisPitch);
      cone[4] = -Math.cos(yaw) * Math.cos(axisPitch);
      cone[5] = Math.cos(halfAngle);
    }
    return distance === 0 || (dx * cone[2] + dy * cone[3] + dz * cone[4]) / distance >= cone[5];
  }

  /** The world position of a hand point now. */
  worldPoint(point: HandPoint): Vec3 {
    const p = (j: number): Vec3 => [this.positions[j * 3], this.positions[j * 3 + 1], this.positions[j * 3 + 2]];
    if (point === 'wrist') return p(J.Wrist);
    if (point === 'palm') return p(J.Palm);
    if (point === 'pinch-point') {
      const a = p(J.ThumbTip);
      const b = p(J.IndexTip);
      return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    }
    return p(OPENXR_JOINTS.indexOf(point));
  }

  /** Offset of a hand point from the wrist, in the wrist frame, from wrist-relative joint poses. */
  private pointOffset(point: HandPoint, local: Float64Array): Vec3 {
    const sign = this.left ? -1 : 1;
    const at = (j: number): Vec3 => [sign * local[j * POSE_FLOATS], local[j * POSE_FLOATS + 1], local[j * POSE_FLOATS + 2]];
    if (point === 'wrist') return [0, 0, 0];
    if (point === 'palm') return at(J.Palm);
    if (point === 'pinch-point') {
      const a = at(J.ThumbTip);
      const b = at(J.IndexTip);
      return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    }
    const j = OPENXR_JOINTS.indexOf(point);
    if (j < 0) throw new Error(`unknown hand point "${point}"`);
    return at(j);
  }

  /** Wrist orientation from `palmFacing`/`fingersToward`, or the body's default turned by the pose hint. */
  private orientationFor(head: Head, target: HandTarget): Quat {
    if (!target.palmFacing) {
      return quatMultiply(bodyRotation(head), this.wristHint);
    }
    let forward: Vec3 = target.fingersToward ?? [-Math.sin(head.yaw), 0, -Math.cos(head.yaw)];
    // Fingers cannot point where the palm faces: then they point up (or, for a palm facing up or down,
    // away from the body).
    const palm = vecNormalize(target.palmFacing);
    const f = vecNormalize(forward);
    if (Math.abs(palm[0] * f[0] + palm[1] * f[1] + palm[2] * f[2]) > 0.99) {
      forward = Math.abs(palm[1]) < 0.9 ? [0, 1, 0] : [-Math.sin(head.yaw), 0, -Math.cos(head.yaw)];
    }
    // The palm faces −Y and the fingers run along −Z of the wrist frame.
    return quatFromAxes(vecScale(target.palmFacing, -1), vecScale(forward, -1));
  }

  private mirrored(q: Quat): Quat {
    return this.left ? [q[0], -q[1], -q[2], q[3]] : [...q];
  }

}

/** Bitwise equality of two arrays of the same length (NaN never equals: a fresh cache is never a hit). */
function sameValues(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
