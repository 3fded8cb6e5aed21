/**
 * What an app under test sees and can do. An app is a module exporting `setup(ctx)` and
 * `frame(frame, ctx)` (named exports, or a default object with both). The frame mirrors WebXR's names
 * and shapes; `ctx` is the app's handle on the simulated world.
 *
 * Each session run in a session worker (sweeps, `xrsim run`, `runSessionIsolated`) gets fresh instances of
 * the app's own modules, so module-level variables start anew. In-process sessions (`runSession`) share
 * them within the process; keep per-session state in `ctx.state` to be safe everywhere.
 */
import type { Vec3 } from '../geometry/types.js';
import type { Anchor } from '../sensing/anchors.js';
import type { CpuDepthInformation } from '../sensing/depth-information.js';
import type { HitTestEntity, HitTestResult } from '../sensing/hit-test.js';
import type { DetectedPlane } from '../sensing/planes.js';
import type { ShapeSpec } from '../geometry/types.js';

/** A position or orientation as WebXR's DOMPointReadOnly. */
export interface XrPoint {
  x: number;
  y: number;
  z: number;
  w: number;
}

/** WebXR's XRRigidTransform (without the matrix, which apps rarely need; see `matrixOf`). */
export interface XrTransform {
  position: XrPoint;
  orientation: XrPoint;
}

/** A pose: `{ transform }`, as XRPose. */
export interface XrPose {
  transform: XrTransform;
}

/** One joint of an XRHand: its pose and radius (XRJointPose). */
export interface XrJointPose extends XrPose {
  radius: number;
}

/** A view of the viewer pose (XRView): the eye and its transform. */
export interface XrView {
  eye: 'left' | 'right';
  transform: XrTransform;
}

/** XRViewerPose. */
export interface XrViewerPose extends XrPose {
  views: XrView[];
}

/** A gamepad button (GamepadButton). */
export interface XrGamepadButton {
  pressed: boolean;
  touched: boolean;
  value: number;
}

/** An input source (XRInputSource), its poses resolved for this frame. */
export interface XrInputSource {
  handedness: 'left' | 'right';
  targetRayMode: 'tracked-pointer';
  profiles: string[];
  /** 25 WebXR joints by name (`index-finger-tip`, ...), or null for a controller. Null joints: untracked. */
  hand: Map<string, XrJointPose> | null;
  gamepad: { mapping: 'xr-standard'; buttons: XrGamepadButton[]; axes: number[] } | null;
  /** Target-ray and grip poses (null when untracked). */
  targetRayPose: XrPose | null;
  gripPose: XrPose | null;
}

/** An input event delivered with the frame (XRInputSourceEvent, by type). */
export interface XrInputEvent {
  type: 'selectstart' | 'selectend' | 'select' | 'squeezestart' | 'squeezeend' | 'squeeze';
  inputSource: XrInputSource;
}

/** What an app's `frame` receives each tick. */
export interface XrFrameLike {
  /** Simulated seconds and tick. */
  time: number;
  tick: number;
  viewerPose: XrViewerPose;
  /** Connected, tracked input sources: hands (when tracked) and controllers (when connected). */
  inputSources: XrInputSource[];
  /** Input events since the last frame, in order. */
  events: XrInputEvent[];
  /** Detected planes (WebXR `frame.detectedPlanes`); the same objects while they persist. */
  detectedPlanes: Set<DetectedPlane>;
  /** The latest depth frame, or null without a depth camera. */
  getDepthInformation(): CpuDepthInformation | null;
  /** Anchors still tracked. */
  trackedAnchors: Set<Anchor>;
  /** This frame's results of a hit-test source (`ctx.requestHitTestSource`), sorted by distance. */
  getHitTestResults(source: HitTestSource): HitTestResult[];
}

/** A hit-test source: a ray from the viewer or an input source's target ray, tested every frame. */
export interface HitTestSource {
  readonly space: 'viewer' | XrInputSource;
  readonly entityTypes: HitTestEntity[];
  cancel(): void;
}

/**
 * How a tagged object looks, for the design heuristics: `size` its extent along its own x, y and z axes in
 * metres (one number: a cube), `text` the height of the capital letters of its smallest text (metres), and
 * `look` a name for its visual state (`idle`, `hovered`, `pressed`, ...): re-tagging it with another look is a
 * change the user sees, as a highlight or a colour change is in a page.
 */
export interface TagExtent {
  size?: number | Vec3;
  text?: number;
  look?: string;
}

/** Options of {@link AppContext.addBody}. */
export interface AppBodyOptions {
  shape: ShapeSpec;
  position: Vec3;
  /** Quaternion [x, y, z, w] (default identity). */
  rotation?: [number, number, number, number];
  /** kg (default 0.1). */
  mass?: number;
  friction?: number;
  restitution?: number;
  /** Initial linear velocity, m/s. */
  velocity?: Vec3;
  /** Kinematic: moved only by the app (a menu, a held object), not by forces. */
  kinematic?: boolean;
  /** Whether the user's hands collide with it (default false: hands pass through virtual objects). */
  handContact?: boolean;
  /** Gravity scale (default 1). */
  gravityScale?: number;
}

/** An app's own physics body. */
export interface AppBody {
  readonly id: string;
  /** Current world position and rotation. */
  position(): Vec3;
  rotation(): [number, number, number, number];
  linearVelocity(): Vec3;
  /** Teleports it (dynamic) or sets its next pose (kinematic). */
  setPose(position: Vec3, rotation?: [number, number, number, number]): void;
  setVelocity(velocity: Vec3): void;
  /** The surfaces it touches now: their references (`scene:floor`, `task:tray`) and labels. */
  touching(): { ref: string; label: string }[];
  remove(): void;
  readonly removed: boolean;
}

/** Options of {@link AppAudio.play}. */
export interface AudioPlayOptions {
  /** World position `[x, y, z]` of the sound. Absent or null: not spatialised (heard at the listener, in the user's head). */
  position?: Vec3 | null;
  /** Linear gain, at least 0 (default 1). */
  gain?: number;
  /** Whether the sound loops (default false). Recorded with the voice; in-process sounds have no length of their own. */
  loop?: boolean;
  /** Simulated seconds after which the voice ends by itself. Without one, it plays until `stop()`. */
  duration?: number;
}

/** A playing sound (as a WebAudio source node started into a panner and a gain). */
export interface AudioVoice {
  /** Its number in the session (1, 2, ...), as recorded in the stream's audio events. */
  readonly id: number;
  /** The sound's name. */
  readonly sound: string;
  /** Whether it still plays: false once stopped, or once its duration is over. */
  readonly playing: boolean;
  /** Stops it (nothing when it already stopped). */
  stop(): void;
  /** Moves it: a world position, or null (not spatialised). Ignored once it stopped. */
  setPosition(position: Vec3 | null): void;
  /** Changes its gain (at least 0). Ignored once it stopped. */
  setGain(gain: number): void;
}

/**
 * The app's sounds (`ctx.audio`). Sounds are names; where and when they play is recorded in the stream
 * (`audio-start`, `audio-update`, `audio-stop` events), where validators check them. Changes within a tick
 * are recorded once, at the end of the app's frame.
 */
export interface AppAudio {
  /** Starts a voice of `sound` now. Throws a TypeError for a wrong argument, a RangeError past 1,024 voices playing. */
  play(sound: string, options?: AudioPlayOptions): AudioVoice;
  /** Stops every playing voice. */
  stopAll(): void;
  /** How many voices play now. */
  readonly playing: number;
}

/** The app's handle on the session. */
export interface AppContext {
  /** Per-session state: put anything the app remembers here. */
  readonly state: Record<string, unknown>;
  readonly time: number;
  readonly dt: number;
  /** A seeded uniform number in [0, 1) (the session's `app` stream). Apps must not use Math.random. */
  random(): number;
  /** Adds a body to the physics world: a virtual object the app owns. */
  addBody(id: string, options: AppBodyOptions): AppBody;
  /**
   * Publishes a tagged object: `role` is what tests look for (`start-button`), `id` this app's name for it,
   * `poseOf` where it is now (a position, or null when it does not exist), and `extent` how large it is
   * (its size and the height of its smallest text, which the design heuristics judge; docs/TASKS.md,
   * "Design score"). Re-tagging a role replaces it: re-tag it to change its extent.
   */
  tag(role: string, id: string, poseOf: () => Vec3 | { position: Vec3; rotation?: [number, number, number, number] } | null, extent?: TagExtent): void;
  /** Removes a tag. */
  untag(role: string): void;
  /** Records an app event (`{ name, data }`) in the stream; validators can check order and timing. */
  emit(name: string, data?: unknown): void;
  /** A hit test against detected planes (and depth) now; results sorted by distance, and recorded. */
  requestHitTest(origin: Vec3, direction: Vec3, options?: { entityTypes?: HitTestEntity[] }): HitTestResult[];
  /**
   * A hit-test source, as WebXR's `session.requestHitTestSource({ space })`: the viewer's forward ray or an
   * input source's target ray, tested every frame; read with `frame.getHitTestResults(source)`.
   */
  requestHitTestSource(options: { space: 'viewer' | XrInputSource; entityTypes?: HitTestEntity[] }): HitTestSource;
  /** Creates an anchor at a pose, on a plane if given. */
  createAnchor(pose: { position: Vec3; rotation: [number, number, number, number] }, plane?: DetectedPlane): Anchor;
  /** Sounds: `ctx.audio.play('chime', { position, duration: 0.3 })` (see {@link AppAudio}). */
  readonly audio: AppAudio;
}

/** An app module. */
export interface AppModule {
  setup?(ctx: AppContext): void;
  frame(frame: XrFrameLike, ctx: AppContext): void;
}
