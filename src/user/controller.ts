/**
 * A simulated motion controller with the WebXR `xr-standard` mapping: grip and target-ray poses, buttons
 * (trigger, squeeze, touchpad, thumbstick press, A/X, B/Y) with values 0–1, and thumbstick axes. Button and
 * axis changes are timed like everything else; placement shares the hands' body-or-world placement.
 */
import { quatFromAxes, quatFromEulerDeg, quatMultiply, rotateVec, vecScale } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import type { UserModel } from '../task/user-options.js';
import type { Head } from './head.js';
import { ScalarBlend } from './motion.js';
import { bodyRotation, clampToReach, Placement } from './placement.js';

/** `xr-standard` button order. Index 4 is A (right) or X (left); 5 is B or Y. */
export const XR_STANDARD_BUTTONS = ['trigger', 'squeeze', 'touchpad', 'thumbstick', 'a', 'b'] as const;
/** A button name; `x` and `y` are accepted as the left controller's `a` and `b`. */
export type ButtonName = (typeof XR_STANDARD_BUTTONS)[number] | 'x' | 'y';

/**
 * The target ray leaves the controller's tip, tilted down from the grip by the angle a hand holds a
 * controller at: the grip frame pitched by −40° about its X axis, 5 cm forward.
 */
const TARGET_RAY_ROTATION = quatFromEulerDeg([-40, 0, 0]);
const TARGET_RAY_OFFSET: Vec3 = [0, 0, -0.05];
/** Controllers rest a little further forward than bare hands. */
const REST_FORWARD = 0.05;

/** One controller's state. */
export class Controller {
  connected: boolean;
  readonly grip = new Float64Array(7);
  readonly targetRay = new Float64Array(7);
  /** Button values 0–1 in `xr-standard` order. */
  readonly buttons = new Float64Array(XR_STANDARD_BUTTONS.length);
  /** touchpad x, touchpad y, thumbstick x, thumbstick y (−1–1; +y is down, as in the Gamepad API). */
  readonly axes = new Float64Array(4);
  private readonly buttonBlends = XR_STANDARD_BUTTONS.map(() => new ScalarBlend());
  private readonly axisBlends = [0, 1, 2, 3].map(() => new ScalarBlend());
  private readonly placement = new Placement();
  readonly left: boolean;

  constructor(
    readonly side: 'left' | 'right',
    private readonly user: UserModel,
    private readonly onUnreachable: (distance: number, reach: number) => void,
  ) {
    this.left = side === 'left';
    this.connected = user.inputs.controllers;
    const rest = new Float64Array(7);
    rest.set(user.restWristOffset);
    if (this.left) rest[0] = -rest[0];
    rest[2] -= REST_FORWARD;
    rest[6] = 1;
    this.placement.holdInBody(rest);
  }

  /** Presses (or half-presses) a button to `value` over `duration` seconds. */
  press(t: number, button: ButtonName, value = 1, duration = 0.05): void {
    this.buttonBlends[buttonIndex(button)].retarget(t, Math.min(1, Math.max(0, value)), duration, 'linear');
  }

  /** Releases a button over `duration` seconds. */
  release(t: number, button: ButtonName, duration = 0.05): void {
    this.press(t, button, 0, duration);
  }

  /** Moves the thumbstick to (x, y), each in −1–1, over `duration` seconds. */
  thumbstick(t: number, x: number, y: number, duration = 0.1): void {
    this.axisBlends[2].retarget(t, clampUnit(x), duration, 'smoothstep');
    this.axisBlends[3].retarget(t, clampUnit(y), duration, 'smoothstep');
  }

  /**
   * Moves the grip to a world point (optionally with an orientation) in `duration` seconds. A point out of
   * arm's reach is reported and the controller stops at the edge of reach.
   */
  moveTo(t: number, head: Head, point: Vec3, duration: number, orientation?: Quat): void {
    const target = new Float64Array(7);
    target.set(point);
    const distance = clampToReach(head, this.user, this.left, target);
    if (distance !== null) this.onUnreachable(distance, this.user.armLength);
    target.set(orientation ?? [this.grip[3], this.grip[4], this.grip[5], this.grip[6]], 3);
    this.placement.moveInWorld(t, this.grip, target, duration);
  }

  /** Turns the controller where it is so that its target ray points at `point`, in `duration` seconds. */
  aim(t: number, head: Head, point: Vec3, duration: number): void {
    const grip: Vec3 = [this.grip[0], this.grip[1], this.grip[2]];
    const [x, y, z, w] = TARGET_RAY_ROTATION;
    // The ray starts ahead of the grip, at an offset that turns with the grip: aim from the ray's own
    // origin, which a few fixed-point iterations find.
    let origin = grip;
    let gripRotation: Quat = [0, 0, 0, 1];
    for (let i = 0; i < 4; i++) {
      const direction: Vec3 = [point[0] - origin[0], point[1] - origin[1], point[2] - origin[2]];
      // Ray frame: −Z exactly along the direction, +Y as close to world up as possible.
      const up = Math.abs(direction[1]) > 0.99 * Math.hypot(...direction) ? rotateVec(bodyRotation(head), [0, 0, -1]) : ([0, 1, 0] as Vec3);
      gripRotation = quatMultiply(quatFromAxes(up, vecScale(direction, -1), 'z'), [-x, -y, -z, w]);
      const offset = rotateVec(gripRotation, TARGET_RAY_OFFSET);
      origin = [grip[0] + offset[0], grip[1] + offset[1], grip[2] + offset[2]];
    }
    this.moveTo(t, head, grip, duration, gripRotation);
  }

  /** Advances to time `t`. */
  update(t: number, head: Head): void {
    this.placement.evaluate(t, head, this.grip);
    const q = [this.grip[3], this.grip[4], this.grip[5], this.grip[6]] as Quat;
    const offset = rotateVec(q, TARGET_RAY_OFFSET);
    for (let i = 0; i < 3; i++) this.targetRay[i] = this.grip[i] + offset[i];
    this.targetRay.set(quatMultiply(q, TARGET_RAY_ROTATION), 3);
    for (let b = 0; b < this.buttons.length; b++) this.buttons[b] = this.buttonBlends[b].value(t);
    for (let a = 0; a < this.axes.length; a++) this.axes[a] = this.axisBlends[a].value(t);
  }
}

function buttonIndex(button: ButtonName): number {
  const name = button === 'x' ? 'a' : button === 'y' ? 'b' : button;
  const index = (XR_STANDARD_BUTTONS as readonly string[]).indexOf(name);
  if (index < 0) throw new Error(`unknown button "${button}": expected one of ${XR_STANDARD_BUTTONS.join(', ')}, x, y`);
  return index;
}

function clampUnit(v: number): number {
  return Math.min(1, Math.max(-1, v));
}
