/**
 * Input sources: hands (an XRHand of 25 joints, `generic-hand-select` profiles) and controllers (an
 * `xr-standard` gamepad). Their poses are read from the device state of the current tick.
 */
import { S, illegalConstructor, internal, makeSpace, XRJointSpace, XRSpace, type Resolver } from './primitives.js';
import type { Pose } from './math.js';
import { WEBXR_JOINTS } from '../../hand/joints.js';

/** WebXR hand joints in XRHand order: the in-process host's names, so both sides agree by construction. */
export const HAND_JOINTS: readonly string[] = WEBXR_JOINTS;

/** What a source reads each frame: its floats on the wire (grip, target ray, then joints or buttons and axes), or null when absent. */
export interface SourceData {
  floats: Float64Array | null;
}

export class XRHand {
  private readonly joints: Map<string, XRJointSpace>;
  [S]!: { radius(index: number): number | null; index: Map<XRJointSpace, number> };
  constructor() {
    illegalConstructor();
    this.joints = new Map();
  }
  get size(): number {
    return this.joints.size;
  }
  get(name: string): XRJointSpace | undefined {
    return this.joints.get(name);
  }
  has(name: string): boolean {
    return this.joints.has(name);
  }
  keys(): IterableIterator<string> {
    return this.joints.keys();
  }
  values(): IterableIterator<XRJointSpace> {
    return this.joints.values();
  }
  entries(): IterableIterator<[string, XRJointSpace]> {
    return this.joints.entries();
  }
  forEach(callback: (value: XRJointSpace, key: string, hand: XRHand) => void, thisArg?: unknown): void {
    this.joints.forEach((value, key) => callback.call(thisArg, value, key, this));
  }
  [Symbol.iterator](): IterableIterator<[string, XRJointSpace]> {
    return this.joints.entries();
  }
}

export class XRInputSource {
  readonly handedness!: 'left' | 'right' | 'none';
  readonly targetRayMode!: 'tracked-pointer';
  readonly targetRaySpace!: XRSpace;
  readonly gripSpace!: XRSpace | null;
  readonly profiles!: readonly string[];
  readonly hand!: XRHand | null;
  readonly gamepad!: XrGamepad | null;
  readonly skipRendering = false;
  constructor() {
    illegalConstructor();
  }
}

export class XRInputSourceArray {
  [S]: XRInputSource[] = [];
  constructor() {
    illegalConstructor();
  }
  get length(): number {
    return this[S].length;
  }
  [Symbol.iterator](): IterableIterator<XRInputSource> {
    return this[S][Symbol.iterator]();
  }
  forEach(callback: (value: XRInputSource, index: number, array: XRInputSourceArray) => void, thisArg?: unknown): void {
    this[S].forEach((value, index) => callback.call(thisArg, value, index, this));
  }
  keys(): IterableIterator<number> {
    return this[S].keys();
  }
  values(): IterableIterator<XRInputSource> {
    return this[S].values();
  }
  entries(): IterableIterator<[number, XRInputSource]> {
    return this[S].entries();
  }
}

/** An input-source array whose indexed properties follow `sources`. */
export function makeInputSourceArray(): XRInputSourceArray {
  const array = Object.create(XRInputSourceArray.prototype) as XRInputSourceArray;
  array[S] = [];
  return new Proxy(array, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) return target[S][Number(key)];
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) return Number(key) < target[S].length;
      return Reflect.has(target, key);
    },
  });
}

/** The Gamepad an `xr-standard` controller exposes (the DOM's Gamepad has no public constructor). */
export interface XrGamepad {
  readonly id: string;
  readonly index: number;
  readonly connected: boolean;
  timestamp: number;
  readonly mapping: 'xr-standard';
  axes: readonly number[];
  readonly buttons: readonly { pressed: boolean; touched: boolean; value: number }[];
  readonly hapticActuators: readonly unknown[];
  readonly vibrationActuator: null;
}

const HAND_PROFILES = Object.freeze(['generic-hand-select', 'generic-hand']);
const CONTROLLER_PROFILES = Object.freeze(['generic-trigger-squeeze-thumbstick', 'generic-button']);
const BUTTON_PRESS = 0.5;

/** Offsets in a source's floats. */
const GRIP = 0;
const RAY = 7;
const REST = 14;

function poseAt(data: SourceData, offset: number): Resolver {
  return () => (data.floats ? Array.from(data.floats.subarray(offset, offset + 7)) : null);
}

/** A new input source reading `data`. Hands get an XRHand only with the `hand-tracking` feature, as in browsers. */
export function makeInputSource(handedness: 'left' | 'right', isHand: boolean, data: SourceData, handTracking: boolean): XRInputSource {
  let hand: XRHand | null = null;
  if (isHand && handTracking) {
    hand = Object.create(XRHand.prototype) as XRHand;
    const joints = new Map<string, XRJointSpace>();
    const index = new Map<XRJointSpace, number>();
    HAND_JOINTS.forEach((name, k) => {
      const space = makeSpace(XRJointSpace, poseAt(data, REST + k * 8), { jointName: name });
      joints.set(name, space);
      index.set(space, k);
      handOfJoint.set(space, hand!);
    });
    Object.defineProperty(hand, 'joints', { value: joints });
    hand[S] = { radius: (k) => (data.floats ? data.floats[REST + k * 8 + 7] : null), index };
  }
  let gamepad: XrGamepad | null = null;
  if (!isHand) {
    gamepad = {
      id: '',
      index: -1,
      connected: true,
      timestamp: 0,
      mapping: 'xr-standard',
      axes: Object.freeze([0, 0, 0, 0]),
      buttons: Object.freeze(Array.from({ length: 6 }, () => ({ pressed: false, touched: false, value: 0 }))),
      hapticActuators: Object.freeze([]),
      vibrationActuator: null,
    };
  }
  const source = internal(() => Object.create(XRInputSource.prototype) as XRInputSource);
  Object.assign(source, {
    handedness,
    targetRayMode: 'tracked-pointer',
    targetRaySpace: makeSpace(XRSpace, poseAt(data, RAY)),
    gripSpace: makeSpace(XRSpace, poseAt(data, GRIP)),
    profiles: isHand ? HAND_PROFILES : CONTROLLER_PROFILES,
    hand,
    gamepad,
    skipRendering: false,
  });
  return source;
}

/** Copies this tick's button values and axes into a controller's gamepad. */
export function updateGamepad(gamepad: XrGamepad, floats: Float64Array, timestamp: number): void {
  gamepad.buttons.forEach((button, b) => {
    button.value = floats[REST + b];
    button.pressed = button.value >= BUTTON_PRESS;
    button.touched = button.value > 0;
  });
  gamepad.axes = Object.freeze(Array.from(floats.subarray(REST + 6, REST + 10)));
  gamepad.timestamp = timestamp;
}

/** A joint's pose and radius now, or null when its hand is untracked. */
export function jointState(space: XRJointSpace, hand: XRHand): { pose: Pose; radius: number } | null {
  const pose = space[S].resolve();
  const k = hand[S].index.get(space);
  const radius = k === undefined ? null : hand[S].radius(k);
  return pose && radius !== null ? { pose, radius } : null;
}

/** The hand a joint space belongs to (spaces are created per hand). */
export const handOfJoint = new WeakMap<XRJointSpace, XRHand>();
