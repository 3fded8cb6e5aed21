/**
 * The simulated user: head, two hands and two controllers, advanced once per tick before physics.
 *
 * Commands (`session.user.hand('dominant').moveTo(...)`, `session.user.head.lookAt(...)`) take effect from
 * the next tick, on the simulation clock. Events they cause (an unreachable target) are queued and written
 * into the next frame, together with the events of the update itself (tracking lost or regained).
 */
import type { SceneGeometry } from '../../kernels/scene-geometry.js';
import type { Vec3 } from '../geometry/types.js';
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import type { RandomStreams } from '../random.js';
import { sideOf, type Handedness, type SideRef } from '../hand/side.js';
import type { UserModel } from '../task/user-options.js';
import { Controller, type ButtonName } from './controller.js';
import { Hand, type HandPoint, type HandTarget } from './hand.js';
import { loadHandModel, type HandModel } from '../hand/hand-model.js';
import { Head, WALKING_SPEED } from './head.js';
import { checkArguments } from './arguments.js';
import { CONTROLLER_CONTROLS, HAND_CONTROLS } from './signatures.js';
import type { Easing } from './motion.js';
import { handPerturbation } from './perturbation.js';
import { resolvePose } from '../hand/poses.js';

/** Event payload codes for the part of the user an event concerns. */
export const USER_PART = { leftHand: 0, rightHand: 1, leftController: 2, rightController: 3 } as const;

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
/** A float's IEEE-754 single-precision bits, for event payloads. */
export function floatBits(value: number): number {
  f32[0] = value;
  return f32Bits[0];
}

/** The user's state and the stage that advances it. */
export class SimUser {
  readonly config: UserModel;
  readonly handModel: HandModel;
  readonly head: Head;
  /** Hands by side; absent when the session has no hand input. */
  readonly hands: { left: Hand; right: Hand } | null;
  readonly controllers: { left: Controller; right: Controller };
  /** The scene's geometry; its static surfaces stop the hands. */
  readonly sdf: SceneGeometry;
  /** Simulation time of the last update. */
  time = 0;
  private readonly pending: number[] = [];
  private readonly wasTracked = [true, true];

  constructor(
    model: SimModel,
    readonly dominantHand: Handedness,
    random: RandomStreams,
    geometry: SceneGeometry,
  ) {
    this.config = model.user;
    this.handModel = loadHandModel(model.user.handModel);
    const start = model.user.start;
    const yaw = 2 * Math.atan2(start.rotation[1], start.rotation[3]);
    this.head = new Head(start.position, yaw, model.user.eyeHeight[model.user.posture]);
    this.sdf = geometry;
    const relaxed = resolvePose('relaxed', this.handModel);
    const perturbation = model.user.perturbation;
    const makeHand = (side: 'left' | 'right') =>
      new Hand(
        side,
        this.handModel,
        this.config,
        relaxed,
        (distance, reach) => this.queueUnreachable(side === 'left' ? USER_PART.leftHand : USER_PART.rightHand, distance, reach),
        perturbation ? handPerturbation(side, perturbation, random, model.timing.dt) : null,
      );
    this.hands = this.config.inputs.hands ? { left: makeHand('left'), right: makeHand('right') } : null;
    // Hands the headset only finds later (`tracking.handsFrom`) start untracked.
    if (this.hands && this.config.tracking.handsFrom > 0) this.hands.left.trackingEnabled = this.hands.right.trackingEnabled = false;
    const makeController = (side: 'left' | 'right') =>
      new Controller(side, this.config, (distance, reach) =>
        this.queueUnreachable(side === 'left' ? USER_PART.leftController : USER_PART.rightController, distance, reach),
      );
    this.controllers = { left: makeController('left'), right: makeController('right') };
  }

  /** Whether `tracking.handsFrom` has passed (hands found by the headset). */
  private handsFound = false;

  /** Resolves `dominant`/`other` to a side. */
  side(ref: SideRef): Handedness {
    return sideOf(ref, this.dominantHand);
  }

  /** A hand by role or side. Throws if the session has no hands. */
  hand(ref: SideRef): Hand {
    if (!this.hands) throw new Error('this session has no hand input (user.inputs.hands is false)');
    return this.hands[this.side(ref)];
  }

  /** Advances the user to time `t` (one tick of `dt`), writing its events into `frame`. */
  update(t: number, dt: number, frame: Frame): void {
    this.time = t;
    if (this.pending.length > 0) {
      frame.reserveEvents(this.pending.length);
      for (const word of this.pending) frame.events[frame.eventWords++] = word;
      this.pending.length = 0;
    }
    this.head.update(t, dt);
    if (this.hands && !this.handsFound && t >= this.config.tracking.handsFrom - 1e-9) {
      this.handsFound = true;
      if (this.config.tracking.handsFrom > 0) this.hands.left.trackingEnabled = this.hands.right.trackingEnabled = true;
    }
    if (this.hands) {
      this.hands.left.update(t, this.head, this.sdf);
      this.hands.right.update(t, this.head, this.sdf);
      this.trackingEvents(frame, this.hands.left, 0);
      this.trackingEvents(frame, this.hands.right, 1);
    }
    if (this.controllers.left.connected) this.controllers.left.update(t, this.head);
    if (this.controllers.right.connected) this.controllers.right.update(t, this.head);
  }

  private trackingEvents(frame: Frame, hand: Hand, index: number): void {
    if (hand.tracked === this.wasTracked[index]) return;
    this.wasTracked[index] = hand.tracked;
    frame.reserveEvents(2);
    frame.events[frame.eventWords++] = ((hand.tracked ? EventType.TrackingRegained : EventType.TrackingLost) << 16) | 1;
    frame.events[frame.eventWords++] = index;
  }

  private queueUnreachable(part: number, distance: number, reach: number): void {
    this.pending.push((EventType.TargetUnreachable << 16) | 3, part, floatBits(distance), floatBits(reach));
  }
}

/** The scripting surface of one hand, bound to a session's clock. */
export interface HandControls {
  /** Changes to a named pose (`grab` takes a diameter) over `duration` seconds. */
  pose(name: string, options?: { duration?: number; easing?: Easing; diameter?: number }): void;
  /** Pinches (amount 1) or partly pinches over `duration` seconds. */
  pinch(amount?: number, options?: { duration?: number }): void;
  /** Releases a pinch over `duration` seconds. */
  release(options?: { duration?: number }): void;
  /** Places a part of the hand at a world point over `duration` seconds. */
  moveTo(target: HandTarget, options?: { duration?: number }): void;
  /** Returns the hand to rest in front of the body. */
  rest(options?: { duration?: number }): void;
  /** Switches the headset's tracking of this hand on or off (a lost hand reports no joints). */
  setTracking(enabled: boolean): void;
  /** The world position of a hand point now. */
  pointOf(point: HandPoint): Vec3;
  readonly state: Hand;
}

/** The scripting surface of the user, bound to a session's clock. */
export interface UserControls {
  hand(ref: SideRef): HandControls;
  readonly head: {
    moveTo(position: Vec3, options?: { duration?: number }): void;
    lookAt(point: Vec3 | null): void;
    turnTo(yawDeg: number, pitchDeg?: number): void;
    walk(path: Vec3[], options?: { speed?: number }): number;
    teleport(position: Vec3, yawDeg?: number): void;
    setPosture(posture: 'standing' | 'seated', options?: { duration?: number }): void;
    readonly state: Head;
  };
  controller(ref: SideRef): {
    connect(): void;
    disconnect(): void;
    press(button: ButtonName, value?: number, options?: { duration?: number }): void;
    release(button: ButtonName, options?: { duration?: number }): void;
    thumbstick(x: number, y: number, options?: { duration?: number }): void;
    moveTo(point: Vec3, options?: { duration?: number }): void;
    aim(point: Vec3, options?: { duration?: number }): void;
    readonly state: Controller;
  };
  /** Which side the dominant hand is. */
  readonly dominantHand: Handedness;
}

/** Binds a user's commands to the time of its last update. */
export function userControls(user: SimUser): UserControls {
  const hands = new Map<string, HandControls>();
  const t = () => user.time;
  return {
    dominantHand: user.dominantHand,
    hand(ref) {
      const side = user.side(ref);
      let controls = hands.get(side);
      if (!controls) {
        controls = new BoundHandControls(user, side);
        hands.set(side, controls);
      }
      return controls;
    },
    head: {
      moveTo: (position, o = {}) => user.head.moveTo(t(), position, o.duration ?? 1),
      lookAt: (point) => user.head.lookAt(point),
      turnTo: (yawDeg, pitchDeg = 0) => user.head.turnTo((yawDeg * Math.PI) / 180, (pitchDeg * Math.PI) / 180),
      walk: (path, o = {}) => user.head.walk(t(), path, o.speed ?? WALKING_SPEED),
      teleport: (position, yawDeg) => user.head.teleport(position, yawDeg === undefined ? user.head.yaw : (yawDeg * Math.PI) / 180),
      setPosture: (posture, o = {}) => user.head.setEyeHeight(t(), user.config.eyeHeight[posture], o.duration ?? 1),
      state: user.head,
    },
    controller(ref) {
      const side = user.side(ref);
      const c = user.controllers[side];
      return {
        connect: () => {
          c.connected = true;
        },
        disconnect: () => {
          c.connected = false;
        },
        press: (...args) => {
          checkArguments(`user.controller(${ref}).press`, CONTROLLER_CONTROLS.press, args);
          const [button, value = 1, o = {}] = args;
          c.press(t(), button, value, o.duration);
        },
        release: (...args) => {
          checkArguments(`user.controller(${ref}).release`, CONTROLLER_CONTROLS.release, args);
          const [button, o = {}] = args;
          c.release(t(), button, o.duration);
        },
        thumbstick: (...args) => {
          checkArguments(`user.controller(${ref}).thumbstick`, CONTROLLER_CONTROLS.thumbstick, args);
          const [x, y, o = {}] = args;
          c.thumbstick(t(), x, y, o.duration);
        },
        moveTo: (point, o = {}) => c.moveTo(t(), user.head, point, o.duration ?? 0.6),
        aim: (point, o = {}) => c.aim(t(), user.head, point, o.duration ?? 0.4),
        state: c,
      };
    },
  };
}

/**
 * One hand's controls. A class, not an object literal with a `state` getter: V8 gives every literal with its
 * own getter a map of its own, and a dead map keeps its session's graph alive through young-generation
 * collections (docs/SWEEPS.md, "Per-session garbage").
 */
class BoundHandControls implements HandControls {
  constructor(
    private readonly user: SimUser,
    private readonly side: 'left' | 'right',
  ) {}

  /** The hand (throws in a session without hand input). */
  get state(): Hand {
    return this.user.hand(this.side);
  }

  pose(...args: [name: string, options?: { duration?: number; easing?: Easing; diameter?: number }]): void {
    checkArguments(`user.hand(${this.side}).pose`, HAND_CONTROLS.pose, args);
    const [name, o = {}] = args;
    this.state.setPose(this.user.time, resolvePose(name, this.user.handModel, { diameter: o.diameter }), o.duration ?? 0.3, o.easing);
  }

  pinch(...args: [amount?: number, options?: { duration?: number }]): void {
    checkArguments(`user.hand(${this.side}).pinch`, HAND_CONTROLS.pinch, args);
    const [amount = 1, o = {}] = args;
    this.state.setPinch(this.user.time, amount, o.duration ?? 0.25);
  }

  release(...args: [options?: { duration?: number }]): void {
    checkArguments(`user.hand(${this.side}).release`, HAND_CONTROLS.release, args);
    const [o = {}] = args;
    this.state.setPinch(this.user.time, 0, o.duration ?? 0.25);
  }

  moveTo(target: HandTarget, o: { duration?: number } = {}): void {
    this.state.moveTo(this.user.time, this.user.head, target, o.duration ?? 0.6);
  }

  rest(...args: [options?: { duration?: number }]): void {
    checkArguments(`user.hand(${this.side}).rest`, HAND_CONTROLS.rest, args);
    const [o = {}] = args;
    this.state.rest(this.user.time, this.user.head, o.duration ?? 0.6);
  }

  setTracking(enabled: boolean): void {
    this.state.trackingEnabled = enabled;
  }

  pointOf(point: HandPoint): Vec3 {
    return this.state.worldPoint(point);
  }
}
Object.freeze(BoundHandControls.prototype); // an actor script cannot change it for later sessions
