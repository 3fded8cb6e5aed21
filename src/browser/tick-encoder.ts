/**
 * Encodes the in-process host's app frame (`XrFrameLike`) as a `TickInput` for the shim, so a browser app
 * sees exactly what an in-process app sees: the same viewer pose and views, the same hands (25 joints,
 * poses and radii), controllers, input events, planes (with their ids and `lastChangedTick`), depth frame,
 * anchors and hit-test results. Numbers cross bit-exact (Float64Array in base64 for the per-tick bulk,
 * JSON numbers elsewhere). Planes, depth and anchors are sent only when they change, so an encoder belongs
 * to one page session and its ticks must all reach the page, in order.
 */
import type { HitTestResult } from '../sensing/hit-test.js';
import type { XrFrameLike, XrInputSource, XrTransform } from '../app/types.js';
import { WEBXR_JOINTS } from '../hand/joints.js';
import {
  CONTROLLER_SOURCE_FLOATS,
  HAND_SOURCE_FLOATS,
  INPUT_EVENT_TYPES,
  JOINT_FLOATS,
  VIEWER_FLOATS,
  type HitInput,
  type PlaneInput,
  type Replies,
  type TickInput,
} from './protocol.js';

/** Wire id of an in-process input source. */
export function sourceId(source: XrInputSource): number {
  return (source.hand ? 0 : 2) + (source.handedness === 'right' ? 1 : 0);
}

/** Extras of one tick that the frame itself does not carry. */
export interface TickExtras {
  /** Results of the page's hit-test sources this frame, by page id. */
  hits?: [number, HitTestResult[]][];
  replies?: Replies;
  end?: boolean;
}

export class TickEncoder {
  private readonly sentPlanes = new Map<number, { changed: number; pose: string }>();
  private lastDepth: Buffer | null = null;
  private lastAnchors = '';
  private scratch = new Float64Array(VIEWER_FLOATS + 4 * HAND_SOURCE_FLOATS);

  /** @param dt the session's tick length, seconds (plane change ticks become frame-clock times) */
  constructor(private readonly dt: number) {}

  encode(xr: XrFrameLike, extras: TickExtras = {}): TickInput {
    const f = this.scratch;
    let o = 0;
    const put = (t: XrTransform) => {
      f[o++] = t.position.x;
      f[o++] = t.position.y;
      f[o++] = t.position.z;
      f[o++] = t.orientation.x;
      f[o++] = t.orientation.y;
      f[o++] = t.orientation.z;
      f[o++] = t.orientation.w;
    };
    put(xr.viewerPose.transform);
    const left = xr.viewerPose.views.find((v) => v.eye === 'left')!;
    const right = xr.viewerPose.views.find((v) => v.eye === 'right')!;
    put(left.transform);
    put(right.transform);
    const ids: number[] = [];
    for (const source of xr.inputSources) {
      const id = sourceId(source);
      ids.push(id);
      const start = o;
      put(source.gripPose!.transform);
      put(source.targetRayPose!.transform);
      if (source.hand) {
        for (const name of WEBXR_JOINTS) {
          const joint = source.hand.get(name)!;
          put(joint.transform);
          f[o++] = joint.radius;
        }
      } else {
        for (const button of source.gamepad!.buttons) f[o++] = button.value;
        for (let a = 0; a < 4; a++) f[o++] = source.gamepad!.axes[a] ?? 0;
      }
      const expected = source.hand ? HAND_SOURCE_FLOATS : CONTROLLER_SOURCE_FLOATS;
      if (o - start !== expected) throw new Error(`tick encoder: a ${source.hand ? 'hand' : 'controller'} source has ${o - start} floats, expected ${expected}`);
    }
    const input: TickInput = { k: xr.tick, t: xr.time, s: ids, f: Buffer.from(f.buffer, 0, o * 8).toString('base64') };
    if (xr.events.length > 0) input.e = xr.events.flatMap((e) => [INPUT_EVENT_TYPES.indexOf(e.type), sourceId(e.inputSource)]);
    const planes = this.planes(xr);
    if (planes) input.p = planes;
    const depth = this.depth(xr);
    if (depth) input.d = depth;
    const anchors = [...xr.trackedAnchors].map((a) => [a.id, ...a.pose.position, ...a.pose.rotation]);
    const anchorKey = JSON.stringify(anchors);
    if (anchorKey !== this.lastAnchors) {
      input.a = anchors;
      this.lastAnchors = anchorKey;
    }
    if (extras.hits && extras.hits.length > 0) input.h = extras.hits.map(([id, results]) => [id, results.map(hitInput)]);
    if (extras.replies && (extras.replies.anchors?.length || extras.replies.hitTestSources?.length)) input.r = extras.replies;
    if (extras.end) input.end = true;
    return input;
  }

  private planes(xr: XrFrameLike): TickInput['p'] | null {
    const set: PlaneInput[] = [];
    const move: number[][] = [];
    const seen = new Set<number>();
    for (const plane of xr.detectedPlanes) {
      seen.add(plane.id);
      const pose = Array.from(plane.pose);
      const poseKey = pose.join(',');
      const sent = this.sentPlanes.get(plane.id);
      if (!sent || sent.changed !== plane.lastChangedTick) {
        set.push({
          id: plane.id,
          label: plane.semanticLabel,
          orientation: plane.orientation,
          pose,
          polygon: plane.polygon.flatMap((p) => [p.x, p.z]),
          changed: plane.lastChangedTick * this.dt * 1000,
        });
      } else if (sent.pose !== poseKey) move.push([plane.id, ...pose]);
      this.sentPlanes.set(plane.id, { changed: plane.lastChangedTick, pose: poseKey });
    }
    const del = [...this.sentPlanes.keys()].filter((id) => !seen.has(id));
    for (const id of del) this.sentPlanes.delete(id);
    if (!set.length && !move.length && !del.length) return null;
    return { ...(set.length ? { set } : {}), ...(move.length ? { move } : {}), ...(del.length ? { del } : {}) };
  }

  private depth(xr: XrFrameLike): TickInput['d'] | null {
    const info = xr.getDepthInformation();
    if (!info) return null;
    // Millimetres: the sensor's own reading (float32 data is mm × 0.001 rounded to f32, which rounds back exactly).
    const mm = info.format === 'float32' ? Uint16Array.from(new Float32Array(info.data), (m) => Math.round(m * 1000)) : new Uint16Array(info.data);
    const bytes = Buffer.from(mm.buffer, mm.byteOffset, mm.byteLength);
    if (this.lastDepth && this.lastDepth.equals(bytes)) return null;
    this.lastDepth = Buffer.from(bytes);
    const t = info.transform;
    return {
      width: info.width,
      height: info.height,
      mm: bytes.toString('base64'),
      pose: [t.position.x, t.position.y, t.position.z, t.orientation.x, t.orientation.y, t.orientation.z, t.orientation.w],
      projection: Array.from(info.projectionMatrix),
      normFromView: Array.from(info.normDepthBufferFromNormView.matrix),
    };
  }
}

function hitInput(r: HitTestResult): HitInput {
  return [...r.position, ...r.rotation, r.distance, r.entity, r.plane ? r.plane.id : -1] as HitInput;
}
