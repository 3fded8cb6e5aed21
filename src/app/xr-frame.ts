/**
 * Builds the WebXR-shaped frame an app receives from what the headset reports this tick: the frame's
 * channels (so tracking noise and untracked hands are what the app sees), the detected planes, the depth
 * camera and the anchors. Input sources keep their identity while they persist, as in WebXR, and
 * select/squeeze events come from pinches and controller buttons with the hysteresis real runtimes use.
 */
import { EventType, INPUT_EVENT_KINDS } from '../frame/events.js';
import { quatAxis, quatFromAxes } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { Frame } from '../frame/frame.js';
import { J } from '../../kernels/hand-fk.js';
import { CONTROLLER, HAND_JOINT_FLOATS, HAND_JOINT_RADIUS, handTracked } from '../frame/layout.js';
import { GESTURE_CRITERIA } from '../user/gestures.js';
import { WEBXR_JOINTS } from '../hand/joints.js';
import { XR_STANDARD_BUTTONS } from '../user/controller.js';
import { shoulderFromHead } from '../user/placement.js';
import type { Sensing } from '../sensing/sensing.js';
import type { DetectedPlane } from '../sensing/planes.js';
import type { Anchor } from '../sensing/anchors.js';
import { forward } from './xr-math.js';
import type { XrFrameLike, XrInputEvent, XrInputSource, XrTransform } from './types.js';

/** Controller buttons count as pressed above this value and released below the lower one. */
const BUTTON_PRESS = 0.5;
const BUTTON_RELEASE = 0.3;
/** Codes of InputEvent records. */
/** Where the trigger (select) and squeeze buttons' values are in a controller channel. */
const TRIGGER = CONTROLLER.buttons + XR_STANDARD_BUTTONS.indexOf('trigger');
const SQUEEZE = CONTROLLER.buttons + XR_STANDARD_BUTTONS.indexOf('squeeze');

interface SourceState {
  source: XrInputSource;
  selecting: boolean;
  squeezing: boolean;
  present: boolean;
}

/** Turns frames into app frames for one session. */
export class XrFrameBuilder {
  private readonly hands: [SourceState, SourceState];
  private readonly controllers: [SourceState, SourceState];
  private readonly planes = new Set<DetectedPlane>();
  private readonly anchors = new Set<Anchor>();

  /**
   * @param shoulderOffset the user model's `shoulderOffset` (right shoulder, from the eyes in the body frame):
   *   where hand rays come from
   */
  constructor(
    private readonly sensing: Sensing,
    private readonly ipd: number,
    private readonly shoulderOffset: ArrayLike<number>,
  ) {
    const source = (handedness: 'left' | 'right', hand: boolean): SourceState => ({
      source: {
        handedness,
        targetRayMode: 'tracked-pointer',
        profiles: hand ? ['generic-hand-select', 'generic-hand'] : ['generic-trigger-squeeze-thumbstick', 'generic-button'],
        hand: hand ? new Map(WEBXR_JOINTS.map((name) => [name, { transform: transform(), radius: 0 }])) : null,
        gamepad: hand ? null : { mapping: 'xr-standard', buttons: XR_STANDARD_BUTTONS.map(() => ({ pressed: false, touched: false, value: 0 })), axes: [0, 0, 0, 0] },
        targetRayPose: { transform: transform() },
        gripPose: { transform: transform() },
      },
      selecting: false,
      squeezing: false,
      present: false,
    });
    this.hands = [source('left', true), source('right', true)];
    this.controllers = [source('left', false), source('right', false)];
  }

  /** The app frame for `frame`. Input events are also recorded into `frame` as InputEvent records. */
  build(frame: Frame): XrFrameLike {
    const head = frame.channel('head')!;
    const events: XrInputEvent[] = [];
    const inputSources: XrInputSource[] = [];
    const emit = (type: XrInputEvent['type'], state: SourceState, side: number) => {
      events.push({ type, inputSource: state.source });
      const code = (INPUT_EVENT_KINDS as readonly string[]).indexOf(type);
      if (code >= 0) {
        frame.beginRecord(EventType.InputEvent);
        frame.word(code);
        frame.word(side);
        frame.endRecord();
      }
    };
    ['hand-left', 'hand-right'].forEach((name, side) => {
      const channel = frame.channel(name);
      const state = this.hands[side];
      const tracked = handTracked(channel);
      if (tracked) this.updateHand(state.source, channel!, head);
      // A pinch selects (three.js' thresholds); losing the hand mid-pinch ends the select without `select`.
      const distance = tracked ? jointDistance(channel!, J.ThumbTip, J.IndexTip) : Infinity;
      if (!state.selecting && distance <= GESTURE_CRITERIA.pinchStart) {
        state.selecting = true;
        emit('selectstart', state, side);
      } else if (state.selecting && distance > GESTURE_CRITERIA.pinchEnd) {
        state.selecting = false;
        if (tracked) emit('select', state, side);
        emit('selectend', state, side);
      }
      state.present = tracked;
      if (tracked) inputSources.push(state.source);
    });
    ['controller-left', 'controller-right'].forEach((name, side) => {
      const channel = frame.channel(name);
      const state = this.controllers[side];
      const connected = channel !== undefined && channel[CONTROLLER.connected] === 1;
      if (connected) this.updateController(state.source, channel!);
      const trigger = connected ? channel![TRIGGER] : 0;
      const squeeze = connected ? channel![SQUEEZE] : 0;
      for (const [kind, value] of [['select', trigger], ['squeeze', squeeze]] as const) {
        const active = kind === 'select' ? state.selecting : state.squeezing;
        const now = active ? value >= BUTTON_RELEASE : value >= BUTTON_PRESS;
        if (now === active) continue;
        if (kind === 'select') state.selecting = now;
        else state.squeezing = now;
        if (now) emit(`${kind}start`, state, side);
        else {
          if (connected) emit(kind, state, side);
          emit(`${kind}end`, state, side);
        }
      }
      if (connected) inputSources.push(state.source);
    });
    this.planes.clear();
    for (const plane of this.sensing.detectedPlanes()) this.planes.add(plane);
    this.anchors.clear();
    for (const anchor of this.sensing.anchors.all()) if (anchor.tracked) this.anchors.add(anchor);
    const sensing = this.sensing;
    return {
      time: frame.time,
      tick: frame.tick,
      viewerPose: viewerPose(head, this.ipd),
      inputSources,
      events,
      detectedPlanes: this.planes,
      getDepthInformation: () => sensing.depthInformation(),
      trackedAnchors: this.anchors,
      // The host fills in the hit-test sources' results.
      getHitTestResults: () => [],
    };
  }

  private updateHand(source: XrInputSource, channel: Float32Array, head: Float32Array): void {
    WEBXR_JOINTS.forEach((name, k) => {
      const joint = source.hand!.get(name)!;
      // WebXR joint k is OpenXR joint k + 1 (the palm has none).
      const o = (k + 1) * HAND_JOINT_FLOATS;
      setTransform(joint.transform, channel, o);
      joint.radius = channel[o + HAND_JOINT_RADIUS];
    });
    setTransform(source.gripPose!.transform, channel, J.Palm * HAND_JOINT_FLOATS);
    setTransform(source.targetRayPose!.transform, handTargetRay(channel, head, this.shoulderOffset, source.handedness === 'left'), 0);
  }

  private updateController(source: XrInputSource, channel: Float32Array): void {
    setTransform(source.gripPose!.transform, channel, CONTROLLER.grip);
    setTransform(source.targetRayPose!.transform, channel, CONTROLLER.targetRay);
    source.gamepad!.buttons.forEach((button, b) => {
      button.value = channel[CONTROLLER.buttons + b];
      button.pressed = button.value >= BUTTON_PRESS;
      button.touched = button.value > 0;
    });
    for (let a = 0; a < CONTROLLER.axisCount; a++) source.gamepad!.axes[a] = channel[CONTROLLER.axes + a];
  }
}

function transform(): XrTransform {
  return { position: { x: 0, y: 0, z: 0, w: 1 }, orientation: { x: 0, y: 0, z: 0, w: 1 } };
}

function setTransform(t: XrTransform, c: ArrayLike<number>, o: number): void {
  t.position.x = c[o];
  t.position.y = c[o + 1];
  t.position.z = c[o + 2];
  t.orientation.x = c[o + 3];
  t.orientation.y = c[o + 4];
  t.orientation.z = c[o + 5];
  t.orientation.w = c[o + 6];
}

function jointDistance(c: Float32Array, a: number, b: number): number {
  const oa = a * HAND_JOINT_FLOATS;
  const ob = b * HAND_JOINT_FLOATS;
  return Math.hypot(c[oa] - c[ob], c[oa + 1] - c[ob + 1], c[oa + 2] - c[ob + 2]);
}

/**
 * A tracked hand's target ray (seven numbers: position, quaternion) from its joints channel and the head:
 * it starts at the index knuckle and points away from that hand's shoulder, as on headsets. The shoulder is
 * the user model's `shoulderOffset` from the eyes in the body frame (mirrored for the left hand), as arm reach
 * uses it; the ray's Y axis is as close to world up as it can be. Browser pages get the same ray (the tick
 * encoder sends this pose), and exports (IWER recordings) use it to express joints as WebXR apps see them.
 */
export function handTargetRay(channel: ArrayLike<number>, head: ArrayLike<number>, shoulderOffset: ArrayLike<number>, left: boolean): number[] {
  const o = J.IndexProximal * HAND_JOINT_FLOATS;
  const origin = [channel[o], channel[o + 1], channel[o + 2]];
  shoulderFromHead(head, shoulderOffset, left, shoulder);
  const forward = [origin[0] - shoulder[0], origin[1] - shoulder[1], origin[2] - shoulder[2]];
  return [...origin, ...quatFromAxes([0, 1, 0], [-forward[0], -forward[1], -forward[2]], 'z')];
}

const shoulder = new Float64Array(3);

/** The viewer pose: the head, and two views ±IPD/2 along its +X axis. */
function viewerPose(head: Float32Array, ipd: number): XrFrameLike['viewerPose'] {
  const [qx, qy, qz, qw] = [head[3], head[4], head[5], head[6]];
  const [ax, ay, az] = quatAxis([qx, qy, qz, qw], 'x');
  const view = (eye: 'left' | 'right', sign: number) => ({
    eye,
    transform: {
      position: { x: head[0] + (sign * ipd * ax) / 2, y: head[1] + (sign * ipd * ay) / 2, z: head[2] + (sign * ipd * az) / 2, w: 1 },
      orientation: { x: qx, y: qy, z: qz, w: qw },
    },
  });
  return {
    transform: { position: { x: head[0], y: head[1], z: head[2], w: 1 }, orientation: { x: qx, y: qy, z: qz, w: qw } },
    views: [view('left', -1), view('right', 1)],
  };
}

/** The direction of a pose's target ray (a hit-test source's ray): where it looks, its −Z axis. */
export const targetRayDirection: (t: XrTransform) => Vec3 = forward;
