/**
 * The task file format (`tasks/<id>/task.json`, schema in `tasks/task.schema.json`).
 */
import type { MaterialSpec, PlacedGeometrySpec, SemanticLabel, Vec3 } from '../geometry/types.js';
import type { UserOptions } from '../user/config.js';
import type { SensingOptions } from '../sensing/options.js';
import type { FailureCategory } from './failure-categories.js';

/** A static object the task adds to the scene, placed in the task frame. */
export interface FixtureSpec extends PlacedGeometrySpec {
  id: string;
  label: SemanticLabel;
  /** Key into {@link TaskSpec.materials}. */
  material: string;
  description?: string;
}

/** A dynamic body the task adds, with its initial velocities in the task frame. */
export interface BodySpec extends PlacedGeometrySpec {
  id: string;
  description?: string;
  mass: number;
  friction: number;
  restitution: number;
  linearVelocity?: Vec3;
  angularVelocity?: Vec3;
  /** Continuous collision detection, for fast bodies. */
  ccd?: boolean;
}

/** A trigger volume: entries and exits become events. */
export interface SensorSpec extends PlacedGeometrySpec {
  id: string;
  description?: string;
}

/** A seeded, uniform perturbation of one initial condition, per task-frame axis. */
export interface RandomizeSpec {
  body: string;
  property: 'position' | 'linearVelocity' | 'angularVelocity';
  uniform: [[number, number], [number, number], [number, number]];
}

/** One scored threshold of a validator. */
export interface MilestoneSpec {
  id: string;
  threshold: number;
  description?: string;
}

/** Axes a distance is measured over, in the task frame. */
export type AxesSpec = 'xyz' | 'xz' | 'y' | 'x' | 'z';

interface ValidatorBase {
  description?: string;
  milestones: MilestoneSpec[];
}

/** Ordered checkpoints entered by one body. Metric: count reached in order. */
export interface CheckpointsValidatorSpec extends ValidatorBase {
  type: 'checkpoints';
  body: string;
  sensors: string[];
  within?: number;
}
/** Settle time of a set of bodies. Metric: seconds. */
export interface SettleValidatorSpec extends ValidatorBase {
  type: 'settle';
  bodies: string[];
  linearSpeedBelow: number;
  angularSpeedBelow?: number;
  holdFor?: number;
}
/** Largest displacement since time `from`. Metric: metres. */
export interface DriftValidatorSpec extends ValidatorBase {
  type: 'drift';
  bodies: string[];
  from: number;
  axes?: AxesSpec;
}
/** Final distance to a target. Metric: metres. */
export interface FinalDistanceValidatorSpec extends ValidatorBase {
  type: 'final-distance';
  body: string;
  target: Vec3;
  axes?: AxesSpec;
  pass?: 'atMost' | 'atLeast';
}
/** First contact between two task objects. Metric: seconds. */
export interface ContactValidatorSpec extends ValidatorBase {
  type: 'contact';
  a: string;
  b: string;
}
/** Excursion outside a task-frame box. Metric: metres. */
export interface RegionValidatorSpec extends ValidatorBase {
  type: 'region';
  body: string;
  min: Vec3;
  max: Vec3;
}

/**
 * XR formulas follow subjects: a task body id, `scene:<prop>`, `tag:<role>` (an app's tagged object),
 * `hand:<dominant|other|left|right>:<joint|pinch-point>` or `head`. A moment (`at`) is a time in seconds or
 * an event name: `app:<name>` (the app's `ctx.emit`), `input:<selectstart|selectend|squeezestart|squeezeend>:<dominant|other|left|right>`,
 * `app-error` or `actor-failure`; it is that event's first occurrence. Windows are `[from, to]` seconds.
 */
export type Moment = number | string;
/** Seconds [from, to]. */
export type Window = [number, number];
/** How a metric is held to its thresholds. */
export type PassRule = 'atMost' | 'atLeast' | 'exactly';

/** Distance a subject moves between two times (sampled displacement). Metric: metres. */
export interface DisplacementValidatorSpec extends ValidatorBase {
  type: 'displacement';
  subject: string;
  from: Moment;
  to: Moment;
  axes?: AxesSpec;
  /** A task-frame direction: the metric is then the signed displacement along it. */
  along?: Vec3;
  pass?: PassRule;
}
/** How deep a sphere around a subject sinks into the scene's surfaces (as they are then). Metric: metres. */
export interface PenetrationValidatorSpec extends ValidatorBase {
  type: 'penetration';
  subject: string;
  radius: number;
  window?: Window;
}
/** RMS distance between a subject and a reference subject or task-frame point over a window. Metric: metres. */
export interface RmsValidatorSpec extends ValidatorBase {
  type: 'rms';
  subject: string;
  reference: string | Vec3;
  window?: Window;
  axes?: AxesSpec;
}
/**
 * Follow error between a subject and a leader (a hand joint) while both are present, during a window or
 * between two events. `offset: 'initial'` measures the change of their offset from its first sample
 * (a held object need not sit exactly on the joint); `none` (default) the distance itself. Metric: metres.
 */
export interface FollowValidatorSpec extends ValidatorBase {
  type: 'follow';
  subject: string;
  leader: string;
  window?: Window;
  between?: [string, string];
  offset?: 'none' | 'initial';
  measure?: 'max' | 'rms';
}
/** Distance between two subjects (or a subject and a task-frame point) at a moment. Metric: metres. */
export interface DistanceAtValidatorSpec extends ValidatorBase {
  type: 'distance-at';
  a: string;
  b: string | Vec3;
  at: Moment;
  axes?: AxesSpec;
  pass?: PassRule;
}
/** Reach and comfort at a moment: distance from the head or the shoulder, or angle from the gaze. */
export interface ComfortValidatorSpec extends ValidatorBase {
  type: 'comfort';
  subject: string;
  at: Moment;
  measure: 'head-distance' | 'shoulder-distance' | 'gaze-angle';
  pass?: PassRule;
}
/** Visibility and occlusion from the head: fraction of the window the subject is in view and unoccluded. */
export interface VisibleValidatorSpec extends ValidatorBase {
  type: 'visible';
  subject: string;
  window?: Window;
  /** Full field of view, degrees (default 90). */
  fovDeg?: number;
  /** Whether static surfaces hide it (default true). */
  occlusion?: boolean;
}
/**
 * Presses by continuous penetration with hysteresis: a finger's depth behind a target's face (the target's
 * +Z axis is its outward normal), within `radius` of its centre. A press starts at `enterDepth` and ends
 * when the depth falls below `exitDepth`. Metric: count.
 */
export interface PressesValidatorSpec extends ValidatorBase {
  type: 'presses';
  finger: string;
  target: string;
  enterDepth: number;
  exitDepth: number;
  radius: number;
  pass?: PassRule;
}
/** Number of events of one name in a window. Metric: count. */
export interface EventCountValidatorSpec extends ValidatorBase {
  type: 'event-count';
  event: string;
  window?: Window;
  pass?: PassRule;
}
/**
 * Events in order, each within timing bounds after the previous one (or after time 0 for the first).
 * Metric: how many steps were met in order.
 */
export interface EventOrderValidatorSpec extends ValidatorBase {
  type: 'event-order';
  steps: { event: string; after?: number; within?: number }[];
}
/** Coverage ratio: the fraction of task-frame points that a subject's path came within `radius` of. */
export interface CoverageValidatorSpec extends ValidatorBase {
  type: 'coverage';
  subject: string;
  points: Vec3[];
  radius: number;
  window?: Window;
}
/**
 * Overlap ratio (intersection over union), in the head's view plane, between the rectangle an app event
 * reports (`data.corners`: two world points) and the one two subjects span at that moment. Metric: IoU.
 */
export interface OverlapValidatorSpec extends ValidatorBase {
  type: 'overlap';
  event: string;
  corners: [string, string];
}
/**
 * Graph reachability: nodes are task-frame points or subjects at the end of the run; two nodes connect
 * when they are within `maxStep` of each other with no static surface between. Metric: hops on the
 * shortest path from `from` to `to` (never reached: no metric).
 */
export interface ReachabilityValidatorSpec extends ValidatorBase {
  type: 'reachability';
  nodes: (string | Vec3)[];
  from: number;
  to: number;
  maxStep: number;
}
/** Presence: the fraction of a window's frames in which a subject exists (a tag is published). */
export interface PresenceValidatorSpec extends ValidatorBase {
  type: 'presence';
  subject: string;
  window?: Window;
  pass?: PassRule;
}
/** Speed of a subject shortly after a moment (finite differences over `afterSeconds`). Metric: m/s. */
export interface SpeedValidatorSpec extends ValidatorBase {
  type: 'speed';
  subject: string;
  at: Moment;
  afterSeconds?: number;
  pass?: PassRule;
}

/** Any validator a task can list. */
export type ValidatorSpec =
  | CheckpointsValidatorSpec
  | SettleValidatorSpec
  | DriftValidatorSpec
  | FinalDistanceValidatorSpec
  | ContactValidatorSpec
  | RegionValidatorSpec
  | DisplacementValidatorSpec
  | RmsValidatorSpec
  | FollowValidatorSpec
  | DistanceAtValidatorSpec
  | ComfortValidatorSpec
  | VisibleValidatorSpec
  | PressesValidatorSpec
  | EventCountValidatorSpec
  | EventOrderValidatorSpec
  | CoverageValidatorSpec
  | OverlapValidatorSpec
  | ReachabilityValidatorSpec
  | PresenceValidatorSpec
  | SpeedValidatorSpec
  | PenetrationValidatorSpec;

/** An app a task can run: its module and, for an adversarial app, the milestones it is expected to fail. */
export interface AppEntrySpec {
  /** ES module path, relative to the task file. */
  module: string;
  description?: string;
  /** Milestone ids this app fails (every other milestone it passes). Empty or absent for the reference. */
  expectFail?: string[];
  /** For an adversarial app: the failure mode its mistake stands for (required when `expectFail` is set). */
  category?: FailureCategory;
}

/** A whole task. */
export interface TaskSpec {
  $schema?: string;
  id: string;
  title: string;
  description?: string;
  /** Default scene id. */
  scene: string;
  /** Scenes a sweep runs this task in by default. */
  scenes?: string[];
  /** Simulated seconds. */
  duration: number;
  timing?: { dt?: number; substeps?: number; solverIterations?: number };
  placement: { anchor: string; clear: [number, number] };
  materials?: Record<string, MaterialSpec>;
  fixtures?: FixtureSpec[];
  bodies?: BodySpec[];
  sensors?: SensorSpec[];
  randomize?: RandomizeSpec[];
  /** The simulated user: where they stand (task frame), posture, inputs, tracking, contact, perturbation. */
  user?: UserOptions;
  /** The headset's senses: depth camera and plane detection (all off unless given). */
  sensing?: SensingOptions;
  /** The actor script: an ES module (relative to the task file) whose default export is a generator. */
  actors?: string;
  /** Apps that run under this task, by name; `reference` is the one that passes every milestone. */
  apps?: Record<string, AppEntrySpec>;
  validators: ValidatorSpec[];
}
