/**
 * What the viewer's server answers and its page reads (types only: both sides import them).
 *
 * ```
 * GET /api/sessions                  SessionsResponse: one stream, or every session of a sweep folder
 * GET /api/session/ID/meta           StreamMeta: header, chunk index and the scene to draw
 * GET /api/session/ID/chunk/I        chunk I as stored (deflate-raw); the page inflates it with fflate
 * GET /api/session/ID/timeline       Timeline: events, planes, surfaces, tags, validator traces, milestones
 * ```
 */
import type { ChannelDescriptor, DepthCameraDescriptor } from '../frame/layout.js';
import type { ShapeSpec } from '../geometry/types.js';
import type { Milestone } from '../validate/types.js';

/** Seven numbers: position xyz, quaternion xyzw. */
export type Pose7 = number[];

/** One session the viewer can open. */
export interface SessionSummary {
  /** Opaque id used in URLs (a sweep's result key, or `stream` for a single file). */
  id: string;
  task: string;
  app: string | null;
  scene: string;
  seed: number;
  hand: 'right' | 'left';
  /** From the sweep's results; null for a single stream until its timeline is scored. */
  status: 'passed' | 'failed' | 'errored' | null;
  score: number | null;
  milestones: Milestone[] | null;
  error: { kind: string; message: string } | null;
  /** Whether a stream is there to replay. */
  hasStream: boolean;
}

/** `GET /api/sessions`. */
export interface SessionsResponse {
  kind: 'stream' | 'sweep';
  title: string;
  sessions: SessionSummary[];
}

/** A drawable object: parts (shapes at poses relative to the object) at a pose. */
export interface ObjectDescription {
  id: string;
  kind: 'static' | 'body' | 'sensor' | 'surface';
  label: string;
  /** RGB 0–255, the colour `xrsim render` uses. */
  colour: number[];
  /** Initial world pose (bodies move with the `bodies` channel, surfaces with their events). */
  pose: Pose7;
  parts: { shape: ShapeSpec; pose: Pose7 }[];
  /** For bodies: the slot in the `bodies` channel. For statics and surfaces: the static index. */
  index: number;
}

/** The scene of a stream, for drawing. */
export interface SceneDescription {
  /** Room size x, y, z in metres. */
  room: number[];
  objects: ObjectDescription[];
  depthCamera: DepthCameraDescriptor | null;
  /** The head's view frustum as drawn: horizontal field of view and aspect (those of `xrsim render --camera head`). */
  headFrustum: { fovDeg: number; aspect: number };
  /** OpenXR joint names, in channel order. */
  jointNames: string[];
}

/** `GET /api/session/ID/meta`. */
export interface StreamMeta {
  id: string;
  title: string;
  task: string;
  scene: string;
  app: string | null;
  seed: number;
  dominantHand: 'right' | 'left';
  /** Seconds per tick. */
  dt: number;
  frames: number;
  chunks: { firstTick: number; frames: number }[];
  fixedBytes: number;
  channels: ChannelDescriptor[];
  encoding: 'lossless' | 'quantised';
  /** Footer index, or scanned because the footer is damaged or missing (a killed writer). */
  indexSource: string;
  sceneDescription: SceneDescription;
}

/** An event worth marking on the timeline. */
export interface EventMarker {
  tick: number;
  name: string;
  /** One line for a tooltip. */
  text: string;
}

/** A detected plane's state from a tick on (null pose: removed). */
export interface PlaneRecord {
  plane: number;
  tick: number;
  label: string;
  pose: Pose7 | null;
  polygon: number[][];
}

/** A surface added, moved or removed at run time (static index `surface`). */
export interface SurfaceRecord {
  surface: number;
  tick: number;
  kind: 'added' | 'moved' | 'removed';
  /** For `added`: the object to draw. */
  object?: ObjectDescription;
  /** For `moved`: the new pose. */
  pose?: Pose7;
}

/** One validator's watched quantity over the session. */
export interface TraceSeries {
  formula: string;
  description: string;
  milestones: { id: string; threshold: number; comparison: string }[];
  /** [seconds, value] pairs, thinned for plotting. */
  points: number[][];
}

/** `GET /api/session/ID/timeline`: what needs the whole stream, computed once in the background. */
export interface Timeline {
  events: EventMarker[];
  /** Events of each name in the whole stream (markers are capped; counts are not). */
  eventCounts: Record<string, number>;
  planes: PlaneRecord[];
  surfaces: SurfaceRecord[];
  /** Tags the app declared: index → role and id. */
  tags: { index: number; role: string; id: string; tick: number }[];
  traces: TraceSeries[];
  /** Milestones scored on the replay (with their evidence ticks). */
  milestones: Milestone[];
  /** Set when the stream could not be read to its end (damage); what was read is still here. */
  error: string | null;
}

/**
 * What the page exposes as `window.xrsimViewer` to scripts that drive it (the screenshot, the tests, the
 * benchmark). The page's own type (`page/main.ts`) extends it.
 */
export interface ViewerPageHandle {
  kind: 'sweep' | 'replay';
  /** Resolves when the first frame is drawn (or the sweep shown); rejects when loading fails. */
  ready: Promise<void>;
  /** The page's `performance.now` reading when the first frame was drawn. */
  firstFrameAt?: number | null;
  replay?: {
    /** The tick drawn last. */
    tick: number;
    /** The timeline, once loaded. */
    timeline: Timeline | null;
    /** Shows a tick; resolves when it is drawn. */
    seek(tick: number): Promise<void>;
    user: { jointPositions(side: 0 | 1): number[][] | null };
    drawInfo(): { calls: number; triangles: number; points: number; lines: number };
  };
}
