/**
 * The tick protocol between the Node side (the kernel's browser host) and the shim in the page.
 *
 * Each round trip the host sends a batch of ticks (`TickInput[]`) and gets back one `TickOutput` per tick.
 * A tick's input is everything the in-process host would give an app that tick (`XrFrameLike`), encoded
 * compactly by `tick-encoder.ts`: the bulk (viewer, views, input-source poses and 25-joint hands) as one
 * base64 Float64Array, so every number crosses bit-exact; planes, depth and anchors only when they change.
 *
 * This file is shared by both sides: it holds types and constants only, no code that needs Node or the DOM.
 */

/** Bumped when the wire format changes; the shim refuses a host of another version. (2: `TickOutput.audio`.) */
export const PROTOCOL_VERSION = 2;

/** Input source ids on the wire: the in-process host's four sources. */
export const SourceId = { LeftHand: 0, RightHand: 1, LeftController: 2, RightController: 3 } as const;

/** Input event codes on the wire (`TickInput.e`). */
export const INPUT_EVENT_TYPES = ['selectstart', 'selectend', 'select', 'squeezestart', 'squeezeend', 'squeeze'] as const;

/** Floats per pose on the wire: position xyz, quaternion xyzw. */
export const POSE_FLOATS = 7;
/** The viewer pose, then the left and the right view. */
export const VIEWER_FLOATS = 3 * POSE_FLOATS;
/** Floats per hand joint: pose and radius. */
export const JOINT_FLOATS = 8;
/** WebXR hand joints, in the order of the XRHand interface (and of `WEBXR_JOINTS`). */
export const JOINT_COUNT = 25;
/** Floats of a hand source after its id: grip pose, target-ray pose, joints. */
export const HAND_SOURCE_FLOATS = 2 * POSE_FLOATS + JOINT_COUNT * JOINT_FLOATS;
/** Floats of a controller source after its id: grip pose, target-ray pose, 6 button values, 4 axes. */
export const CONTROLLER_SOURCE_FLOATS = 2 * POSE_FLOATS + 6 + 4;

/** A plane as sent when it appears or one of its attributes changes. */
export interface PlaneInput {
  id: number;
  /** Semantic label (`table`, `wall`, ...). */
  label: string;
  orientation: 'horizontal' | 'vertical' | null;
  /** World pose of the plane space (Y = normal). */
  pose: number[];
  /** Outline in plane space, flat x, z pairs (y = 0). */
  polygon: number[];
  /** `lastChangedTime`, ms on the frame clock. */
  changed: number;
}

/** Plane changes since the previous tick. */
export interface PlanesInput {
  /** Planes that appeared or whose attributes changed (the page keeps the XRPlane object). */
  set?: PlaneInput[];
  /** Planes whose pose alone changed: `[id, ...pose]`. */
  move?: number[][];
  /** Planes gone. */
  del?: number[];
}

/** A new depth frame. */
export interface DepthInput {
  width: number;
  height: number;
  /** Millimetres, u16, row-major from the top left, base64. 0 = no reading. */
  mm: string;
  /** The depth camera's world pose. */
  pose: number[];
  /** Its projection (column-major, WebGL clip space). */
  projection: number[];
  /** normDepthBufferFromNormView, column-major 4×4. */
  normFromView: number[];
}

/** One hit: world pose (Y = surface normal), distance, entity type, plane id (−1 for depth). */
export type HitInput = [px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number, distance: number, entity: 'plane' | 'depth', planeId: number];

/** One tick as the page receives it. */
export interface TickInput {
  /** Tick number. */
  k: number;
  /** Frame time, seconds. */
  t: number;
  /** Input source ids present this tick, in the in-process host's order. */
  s: number[];
  /** base64 Float64Array: viewer pose and views, then per present source its floats (no id). */
  f: string;
  /** Input events: flat pairs (INPUT_EVENT_TYPES index, source id). */
  e?: number[];
  p?: PlanesInput;
  d?: DepthInput;
  /** Tracked anchors when the set or a pose changed: `[anchorId, ...pose]`. An empty list clears them. */
  a?: number[][];
  /** Results per page hit-test source id. */
  h?: [number, HitInput[]][];
  /** Answers to the page's requests of the previous tick. */
  r?: Replies;
  /** The host ends the session. */
  end?: true;
  /** Read the XR layer back after this tick's frame (videos of what the page rendered); see `TickOutput.layer`. */
  c?: 1;
}

/** Answers to page requests. */
export interface Replies {
  /** Hit-test sources now registered (page ids). */
  hitTestSources?: number[];
  /** Anchors created: `[pageRequestId, anchorId]`. */
  anchors?: [number, number][];
}

/** What the page asks of the host (answered in a later tick's `r`). */
export type PageRequest =
  | { type: 'hit-test-source'; id: number; space: 'viewer' | number; entityTypes: ('plane' | 'depth')[] }
  | { type: 'cancel-hit-test-source'; id: number }
  | { type: 'anchor'; id: number; pose: number[]; planeId: number | null };

/** An error in page code, as the page saw it. */
export interface PageError {
  /** `exception` (uncaught, in a callback), `rejection` (unhandled), `console` (console.error), `network` (a request the host refused). */
  kind: 'exception' | 'rejection' | 'console' | 'network';
  message: string;
  stack: string;
}

/** Where the page's XR session is. */
export type SessionState = 'none' | 'requested' | 'running' | 'ended';

/** What the page's `status()` answers (the host polls it while the page starts). */
export interface PageStatus {
  session: SessionState;
  /** Whether the next tick will run an XR animation frame (a session with a base layer, or one pending, and callbacks). */
  frameReady: boolean;
  /**
   * Whether the running session can ask the host for things (`hit-test` or `anchors` enabled): its requests
   * change the next tick's input, so the host then sends one tick per round trip.
   */
  requests: boolean;
  /** The page's end of the host's tick channel (`ShimConfig.bridge`); `none` when the host gave none. */
  bridge: BridgeState;
  /** The page's first immersive session request: its mode, and whether it had transient user activation (null before). */
  start: { mode: string; activation: boolean } | null;
}

/** Where the shim's tick channel stands: until it is `open`, the host ticks the page over DevTools. */
export type BridgeState = 'none' | 'connecting' | 'open' | 'closed';

/** What the page published in one tick. */
export interface TickOutput {
  k: number;
  /** Tags sorted by role: `[role, pose | null]`, the pose as position xyz and quaternion xyzw in world coordinates. */
  tags: [string, number[] | null][];
  /** `xrsim.emit(name, data)` calls, in order. */
  events: [string, unknown][];
  errors: PageError[];
  requests: PageRequest[];
  session: SessionState;
  /** What the page drew into its XR layer this tick, when the input asked (`c`) and the session has a layer. */
  layer?: LayerImage;
  /** What the page's WebAudio voices did this tick (`shim/web-audio.ts`), in voice order; absent when nothing. */
  audio?: AudioRecord[];
  /** Tags whose extent or look changed this tick (first shown, resized, recoloured): `shim/extent.ts`; absent when none. */
  extents?: TagExtentRecord[];
  /**
   * The URL of the new document the page began to navigate to during this tick or before (the Navigation
   * API's `navigate` event, which fires as the navigation starts): it is leaving, and the session ends
   * `errored` at this tick, whenever the navigation itself would land. Absent while it stays.
   */
  left?: string;
}

/**
 * A tag's extent: its role, size [x, y, z] in metres (null: unknown), its smallest text's height (null: none)
 * and a fingerprint of how it looks (its meshes' visibility, colours and opacity): a new one is a change the user sees.
 */
export type TagExtentRecord = [role: string, size: [number, number, number] | null, text: number | null, look: string | null];

/**
 * One voice's change in a tick, as the shim observed the page's WebAudio graph. Voices are numbered from 1
 * in the order they started. Positions are world coordinates (where the user hears the sound), or null for
 * a source that reaches the destination through no PannerNode; gains are the product of the GainNodes on
 * the way (0 when the source reaches no destination).
 */
export type AudioRecord =
  | { type: 'start'; voice: number; sound: string; position: [number, number, number] | null; gain: number; loop: boolean }
  | { type: 'update'; voice: number; position?: [number, number, number] | null; gain?: number }
  | { type: 'stop'; voice: number };

/** An XR layer's pixels: both eyes side by side, as the page drew them. */
export interface LayerImage {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, rows from the top, base64. */
  rgb: string;
}

/** The XR layer's size when the host does not set one: both eyes side by side. */
export const DEFAULT_LAYER_SIZE = { width: 256, height: 128 } as const;

/** What the host gives the shim when it installs it (before any page script runs). */
export interface ShimConfig {
  protocol: number;
  /** The page's `Math.random` seed (the session's `app` stream gives it). */
  seed: number;
  /** The page's `Date.now` at frame time 0, ms since the epoch. */
  epochMs: number;
  /** XRWebGLLayer size, pixels, both eyes side by side (default 256 × 128). */
  layerWidth?: number;
  layerHeight?: number;
  /** Each view's vertical and horizontal field of view, radians (default π/2). */
  fov?: number;
  /** Session modes offered (default both). */
  modes?: ('immersive-vr' | 'immersive-ar')[];
  /**
   * The host's tick channel, `ws://127.0.0.1:<port>/<secret>` (`tick-socket.ts`): the shim connects to it
   * when it installs. Empty or absent: the host reaches the page handle over DevTools only.
   */
  bridge?: string;
}

/** The name of the page-side handle the host calls. Not enumerable; holds no Node capability. */
export const PAGE_HANDLE = '__xrsimHost';
