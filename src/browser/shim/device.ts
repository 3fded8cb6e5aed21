/**
 * The simulated device as the page sees it: the state of the current tick, decoded from the host's
 * `TickInput`. Planes keep their XRPlane objects while they persist; depth frames, anchors and hit-test
 * results are replaced when the host sends new ones.
 */
import {
  CONTROLLER_SOURCE_FLOATS,
  HAND_SOURCE_FLOATS,
  INPUT_EVENT_TYPES,
  POSE_FLOATS,
  SourceId,
  VIEWER_FLOATS,
  type HitInput,
  type Replies,
  type TickInput,
} from '../protocol.js';
import { S, transformOf } from './primitives.js';
import { matrixPose, type Pose } from './math.js';
import { makePlane, polygonOf, type DepthFrame, type XRPlane } from './sensing.js';

export type InputEventType = (typeof INPUT_EVENT_TYPES)[number];

export class DeviceState {
  tick = -1;
  /** Frame time, ms on the frame clock. */
  timeMs = 0;
  /** Viewer pose and the two views (world), or null before the first tick. */
  viewer: Pose | null = null;
  views: [Pose, Pose] | null = null;
  /** This tick's floats per present source id, in the host's order. */
  readonly sources = new Map<number, Float64Array>();
  events: [InputEventType, number][] = [];
  readonly planes = new Map<number, XRPlane>();
  depth: DepthFrame | null = null;
  readonly anchors = new Map<number, Pose>();
  readonly hits = new Map<number, HitInput[]>();
  replies: Replies = {};
  endRequested = false;

  apply(input: TickInput): void {
    this.tick = input.k;
    this.timeMs = input.t * 1000;
    const block = decodeFloat64(input.f);
    this.viewer = Array.from(block.subarray(0, POSE_FLOATS));
    this.views = [Array.from(block.subarray(POSE_FLOATS, 2 * POSE_FLOATS)), Array.from(block.subarray(2 * POSE_FLOATS, VIEWER_FLOATS))];
    this.sources.clear();
    let offset = VIEWER_FLOATS;
    for (const id of input.s) {
      const size = id <= SourceId.RightHand ? HAND_SOURCE_FLOATS : CONTROLLER_SOURCE_FLOATS;
      this.sources.set(id, block.subarray(offset, offset + size));
      offset += size;
    }
    if (offset !== block.length) throw new Error(`xrsim shim: tick ${input.k} carries ${block.length} floats, expected ${offset}`);
    this.events = [];
    const e = input.e ?? [];
    for (let i = 0; i < e.length; i += 2) this.events.push([INPUT_EVENT_TYPES[e[i]], e[i + 1]]);
    this.applyPlanes(input);
    if (input.d) {
      const d = input.d;
      this.depth = {
        width: d.width,
        height: d.height,
        mm: new Uint16Array(decodeBytes(d.mm).buffer),
        metres: null,
        pose: d.pose,
        projection: new Float32Array(d.projection),
        normFromView: exactTransform(d.normFromView),
      };
    }
    if (input.a) {
      this.anchors.clear();
      for (const [id, ...pose] of input.a) this.anchors.set(id, pose);
    }
    this.hits.clear();
    for (const [id, results] of input.h ?? []) this.hits.set(id, results);
    this.replies = input.r ?? {};
    if (input.end) this.endRequested = true;
  }

  private applyPlanes(input: TickInput): void {
    const p = input.p;
    if (!p) return;
    for (const id of p.del ?? []) this.planes.delete(id);
    for (const plane of p.set ?? []) {
      let object = this.planes.get(plane.id);
      if (!object) this.planes.set(plane.id, (object = makePlane(plane.id, plane.pose)));
      object[S].pose = plane.pose;
      object.polygon = polygonOf(plane.polygon);
      object.orientation = plane.orientation;
      object.semanticLabel = plane.label;
      object.lastChangedTime = plane.changed;
    }
    for (const [id, ...pose] of p.move ?? []) {
      const object = this.planes.get(id);
      if (object) object[S].pose = pose;
    }
  }
}

function decodeBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function decodeFloat64(base64: string): Float64Array {
  const bytes = decodeBytes(base64);
  return new Float64Array(bytes.buffer, 0, bytes.length / 8);
}

/** A transform whose matrix is exactly the one the host sent (the in-process depth information reads its f32 matrix). */
function exactTransform(m: number[]) {
  const transform = transformOf(matrixPose(m));
  Object.defineProperty(transform, 'cachedMatrix', { value: new Float32Array(m), writable: true });
  return transform;
}
