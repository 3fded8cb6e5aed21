/**
 * The design observer: watches a session's committed frames (after the validators, from the same decoded
 * frame state) and rates the app on the ten heuristics at the end. It reads only what the stream holds, so
 * a replayed stream gives the same report; it writes nothing into frames, so hashes do not depend on it.
 * Per frame it costs a few vector operations per tagged object and allocates nothing.
 */
import { PrimitiveKind } from '../../kernels/scene-geometry.js';
import { quatAxesInto } from '../../kernels/quat.js';
import { signedDistance } from '../../kernels/sdf.js';
import { EventType } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { RecordedScene } from '../sensing/recorded-scene.js';
import type { FrameState, UnreachableData } from '../validate/frame-state.js';
import { AT_HAND, ContentRecord } from './content.js';
import { MotionComfort } from './motion.js';
import { PlacementScore, Worst } from './placement.js';
import { designReport } from './report.js';
import { ResponseLog } from './responses.js';
import type { DesignReport } from './types.js';
import { UserView } from './user-view.js';

/** Fingertip contact: within 5 mm of a sized object's box (Meta's poke sphere), or 2 cm of an unsized one's point. */
const TOUCH_MARGIN = 0.005;
const TOUCH_POINT = 0.02;
/** A touch ends once the fingertip is this far out (hysteresis, as touch detectors have). */
const TOUCH_RELEASE = 0.03;
/** Sinking deeper than this (metres) for 0.1 s is inside a surface: the centre's depth, plus the content's half-extent along the surface's normal when it has a size. */
const INSIDE_DEPTH = 0.01;
const INSIDE_FRAMES = 9;
/** Content within this angle of the arm's line, beyond the wrist, is what a hand strained toward. */
const STRAIN_COS = Math.cos((20 * Math.PI) / 180);

export class DesignObserver {
  private readonly view: UserView;
  private readonly records: ContentRecord[] = [];
  private readonly placements: PlacementScore[] = [];
  private readonly responses: ResponseLog;
  private readonly motion = new MotionComfort();
  /** Wrist extension over arm length when touching or straining toward content. */
  private readonly reach = new Worst('higher', 0);
  private readonly scene: RecordedScene;
  private readonly inside = new Worst('higher', 0);
  private insideRuns = new Int32Array(0);
  private insideDeepest = new Float64Array(0);
  /**
   * Per content, its depth last measured, and what it was measured with: its pose (7 numbers) and the room's
   * version (8 numbers a content), and its size. The version counts the frames in which surfaces changed.
   */
  private depths = new Float64Array(0);
  private measuredWith = new Float64Array(0);
  private readonly measuredSizes: (readonly number[] | null)[] = [];
  private roomVersion = 0;
  private contentSeen = false;
  private readonly normal = new Float64Array(3);
  private readonly owner = new Int32Array(1);
  private readonly local = new Float64Array(3);
  private readonly axes = new Float64Array(9);

  constructor(
    private readonly model: SimModel,
    private readonly state: FrameState,
  ) {
    this.view = new UserView(model, model.timing.dt);
    this.responses = new ResponseLog(model.timing.dt);
    this.scene = new RecordedScene(model, true);
  }

  /** Observes a committed frame, after `state` decoded it. */
  observe(frame: FrameView): void {
    const view = this.view;
    const tick = frame.tick;
    const time = frame.time;
    view.update(frame);
    if (hasSurfaceEvent(frame)) {
      this.scene.advance(frame, false);
      this.roomVersion++;
    }
    this.responses.expire(time);
    let answered = false;
    const events = this.state.events;
    for (let i = 0; i < events.length; i++) {
      const name = events[i].name;
      if (name.startsWith('input:selectstart') || name.startsWith('input:squeezestart')) this.responses.input(tick, time);
      else if (name === 'audio:start') answered = true;
    }
    const tags = this.state.tagList;
    while (this.records.length < tags.length) this.addRecord(tags[this.records.length]);
    this.motion.beginFrame();
    for (let k = 0; k < this.records.length; k++) {
      const record = this.records[k];
      record.update(view);
      if (record.changed) answered = true;
      if (!record.tag.present) {
        this.insideRuns[k] = 0;
        continue;
      }
      this.contentSeen = true;
      if (record.placed) this.placements[k].place(view, record.tag, tick);
      this.touches(record, tick, time);
      if (this.atAHand(record)) continue;
      this.sinking(k, record, tick);
      this.motion.observe(view, record);
    }
    this.motion.endFrame(view, tick);
    for (let i = 0; i < events.length; i++) if (events[i].name === 'target-unreachable') this.strain(events[i].data as UnreachableData, tick);
    if (answered) this.responses.respond(time);
  }

  /** The design report, after the last frame. */
  finish(): DesignReport {
    return designReport({
      contentSeen: this.contentSeen,
      records: this.records,
      placements: this.placements,
      reach: this.reach,
      inside: this.inside,
      motion: this.motion,
      responses: this.responses,
    });
  }

  private addRecord(tag: FrameState['tagList'][number]): void {
    this.records.push(new ContentRecord(tag));
    this.measuredSizes.push(null);
    this.placements.push(new PlacementScore());
    const n = this.records.length;
    if (this.insideRuns.length < n) {
      const runs = new Int32Array(2 * n);
      runs.set(this.insideRuns);
      this.insideRuns = runs;
      const deepest = new Float64Array(2 * n);
      deepest.set(this.insideDeepest);
      this.insideDeepest = deepest;
      const depths = new Float64Array(2 * n);
      depths.set(this.depths);
      this.depths = depths;
      const measuredWith = new Float64Array(16 * n).fill(NaN); // NaN: never measured
      measuredWith.set(this.measuredWith);
      this.measuredWith = measuredWith;
    }
  }

  /** Fingertips entering the content: inputs, and how far the arm stretched to touch. */
  private touches(record: ContentRecord, tick: number, time: number): void {
    const tag = record.tag;
    for (let s = 0; s < 2; s++) {
      const hand = this.view.hands[s];
      if (!hand.tracked) {
        record.touching[s] = false;
        continue;
      }
      const gap = this.gapTo(tag, hand.tip);
      // Content that appears at a fingertip (spawned in the hand) is held, not touched, until the finger leaves it.
      if (record.placed && !record.hadBefore) record.touching[s] = gap <= TOUCH_RELEASE;
      else if (!record.touching[s] && gap <= 0) {
        record.touching[s] = record.touched = true;
        this.responses.input(tick, time);
        const extension = Math.hypot(hand.wrist[0] - hand.shoulder[0], hand.wrist[1] - hand.shoulder[1], hand.wrist[2] - hand.shoulder[2]) / this.model.user.armLength;
        this.reach.offer(extension, tick, tag.role);
      } else if (record.touching[s] && gap > TOUCH_RELEASE) {
        record.touching[s] = false;
      }
    }
  }

  /** How far a point is outside the content's contact zone (≤ 0: touching). */
  private gapTo(tag: ContentRecord['tag'], p: Float64Array): number {
    const dx = p[0] - tag.position[0], dy = p[1] - tag.position[1], dz = p[2] - tag.position[2];
    if (!tag.size) return Math.hypot(dx, dy, dz) - TOUCH_POINT;
    // Into the content's frame: the conjugate rotation.
    const q = tag.rotation;
    const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
    const n = Math.hypot(qx, qy, qz, qw);
    if (!(n > 0)) return Math.hypot(dx, dy, dz) - TOUCH_POINT; // a degenerate orientation: as a point
    const x = -qx / n, y = -qy / n, z = -qz / n, w = qw / n;
    const tx = 2 * (y * dz - z * dy), ty = 2 * (z * dx - x * dz), tz = 2 * (x * dy - y * dx);
    const l = this.local;
    l[0] = dx + w * tx + (y * tz - z * ty);
    l[1] = dy + w * ty + (z * tx - x * tz);
    l[2] = dz + w * tz + (x * ty - y * tx);
    let outside = 0;
    for (let a = 0; a < 3; a++) {
      const excess = Math.abs(l[a]) - tag.size[a] / 2 - TOUCH_MARGIN;
      if (excess > 0) outside += excess * excess;
    }
    return Math.sqrt(outside);
  }

  /** Whether the content is at a tracked palm now (hand content: the user's doing, not the app's placement). */
  private atAHand(record: ContentRecord): boolean {
    const p = record.tag.position;
    for (let s = 0; s < 2; s++) {
      const hand = this.view.hands[s];
      if (hand.tracked && Math.hypot(p[0] - hand.palm[0], p[1] - hand.palm[1], p[2] - hand.palm[2]) < AT_HAND) return true;
    }
    return false;
  }

  /**
   * Content sunk into a physical surface, kept when it stays there 0.1 s. Measured again only when the
   * content or a surface moved: most content rests, and the distance to the room costs most of a frame here.
   */
  private sinking(k: number, record: ContentRecord, tick: number): void {
    const tag = record.tag;
    const p = tag.position;
    const q = tag.rotation;
    const m = this.measuredWith;
    const o = 8 * k;
    if (m[o] === p[0] && m[o + 1] === p[1] && m[o + 2] === p[2] && m[o + 3] === q[0] && m[o + 4] === q[1] && m[o + 5] === q[2] && m[o + 6] === q[3] && m[o + 7] === this.roomVersion && tag.size === this.measuredSizes[k]) {
      this.keepSinking(k, this.depths[k], record, tick);
      return;
    }
    m[o] = p[0];
    m[o + 1] = p[1];
    m[o + 2] = p[2];
    m[o + 3] = q[0];
    m[o + 4] = q[1];
    m[o + 5] = q[2];
    m[o + 6] = q[3];
    m[o + 7] = this.roomVersion;
    this.measuredSizes[k] = tag.size;
    const n = this.normal;
    const d = signedDistance(this.scene.geometry, PrimitiveKind.Static, p[0], p[1], p[2], 0.5, n, this.owner);
    // How far the content reaches toward the surface: its box's half-extent along the surface normal.
    let reach = 0;
    if (tag.size) {
      const a = this.axes;
      quatAxesInto(q[0], q[1], q[2], q[3], a, 0);
      for (let i = 0; i < 3; i++) reach += (Math.abs(n[0] * a[3 * i] + n[1] * a[3 * i + 1] + n[2] * a[3 * i + 2]) * tag.size[i]) / 2;
      if (!Number.isFinite(reach)) reach = 0; // a degenerate orientation: as a point
    }
    this.depths[k] = reach - d;
    this.keepSinking(k, reach - d, record, tick);
  }

  private keepSinking(k: number, depth: number, record: ContentRecord, tick: number): void {
    if (depth <= INSIDE_DEPTH) {
      this.insideRuns[k] = 0;
      this.insideDeepest[k] = 0;
      return;
    }
    this.insideDeepest[k] = Math.max(this.insideDeepest[k], depth);
    if (++this.insideRuns[k] >= INSIDE_FRAMES) this.inside.offer(this.insideDeepest[k], tick, record.tag.role);
  }

  /** A hand that could not reach its target: the arm strained toward content when content lies along it. */
  private strain(data: UnreachableData, tick: number): void {
    const hand = this.view.hands[data.part];
    if (!hand?.tracked) return;
    const sx = hand.shoulder[0], sy = hand.shoulder[1], sz = hand.shoulder[2];
    const ax = hand.wrist[0] - sx, ay = hand.wrist[1] - sy, az = hand.wrist[2] - sz;
    const arm = Math.hypot(ax, ay, az);
    for (let k = 0; k < this.records.length; k++) {
      const record = this.records[k];
      if (!record.tag.present) continue;
      const p = record.tag.position;
      const bx = p[0] - sx, by = p[1] - sy, bz = p[2] - sz;
      const b = Math.hypot(bx, by, bz);
      if (b > arm && (ax * bx + ay * by + az * bz) / (arm * b) >= STRAIN_COS) {
        this.reach.offer(data.distance / data.reach, tick, record.tag.role);
        return;
      }
    }
  }
}

/** Whether the frame adds, moves or removes a surface. */
function hasSurfaceEvent(frame: FrameView): boolean {
  const e = frame.events;
  for (let i = 0; i < frame.eventWords; i += 1 + (e[i] & 0xffff)) {
    const type = e[i] >>> 16;
    if (type === EventType.SurfaceAdded || type === EventType.SurfaceMoved || type === EventType.SurfaceRemoved) return true;
  }
  return false;
}
