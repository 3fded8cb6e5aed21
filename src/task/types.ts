/**
 * The task file format (`tasks/<id>/task.json`, schema in `tasks/task.schema.json`).
 */
import type { MaterialSpec, PlacedGeometrySpec, SemanticLabel, Vec3 } from '../geometry/types.js';
import type { UserOptions } from '../user/config.js';
import type { SensingOptions } from '../sensing/options.js';

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

/** Any validator a task can list. */
export type ValidatorSpec =
  | CheckpointsValidatorSpec
  | SettleValidatorSpec
  | DriftValidatorSpec
  | FinalDistanceValidatorSpec
  | ContactValidatorSpec
  | RegionValidatorSpec;

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
  validators: ValidatorSpec[];
}
