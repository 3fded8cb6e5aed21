/**
 * `SimModel`: everything about a session that does not change while it runs (MuJoCo's model/data split).
 * It is built once from a scene, a task and timing options, validated, deep-frozen and content-hashed.
 * All poses are in world coordinates. Array order is creation order and never changes.
 */
import type { Pose } from '../geometry/math.js';
import type { SemanticLabel, ShapeSpec, Vec3 } from '../geometry/types.js';
import type { SceneSpec } from '../scene/types.js';
import type { RandomizeSpec, TaskSpec, ValidatorSpecBase } from '../task/types.js';
import type { UserModel, UserOptions } from '../task/user-options.js';
import type { HandModelSpec } from '../hand/hand-model.js';
import type { SensingModel, SensingOptions } from '../task/sensing-options.js';
import type { ProgramSources } from '../task/programs.js';

/** Where an object was declared. Scene and task ids live in separate namespaces. */
export type ObjectOrigin = 'scene' | 'task';

/** One collision primitive, in creation order (its index is stable and used in events). */
export interface ColliderModel {
  readonly index: number;
  /** What owns it. For `hand`, the index is the hand part (see `SimModel.handParts`). */
  readonly owner: { readonly kind: 'static' | 'sensor' | 'body' | 'hand'; readonly index: number };
  readonly shape: ShapeSpec;
  /** Pose relative to the owning body. */
  readonly localPose: Pose;
  readonly friction: number;
  readonly restitution: number;
  /** kg/m³; 0 for static colliders and sensors. */
  readonly density: number;
  readonly sensor: boolean;
}

/** A fixed object: a scene surface or a task fixture. */
export interface StaticModel {
  readonly id: string;
  readonly origin: ObjectOrigin;
  readonly label: SemanticLabel;
  readonly pose: Pose;
  readonly colliders: readonly number[];
}

/** A trigger volume. */
export interface SensorModel {
  readonly id: string;
  readonly pose: Pose;
  readonly colliders: readonly number[];
}

/** A dynamic body: a scene prop or a task body. Its index is its slot in the `bodies` channel. */
export interface BodyModel {
  readonly id: string;
  readonly origin: ObjectOrigin;
  readonly kind: string;
  readonly label?: SemanticLabel;
  readonly mass: number;
  /** Initial pose and velocities, before any seeded randomisation. */
  readonly pose: Pose;
  readonly linearVelocity: Vec3;
  readonly angularVelocity: Vec3;
  readonly ccd: boolean;
  readonly colliders: readonly number[];
}

/**
 * A piece of a hand that pushes the physical world: a capsule along one phalanx, or the palm box. Each is a
 * kinematic body moved to the hand's pose every tick.
 */
export interface HandPartModel {
  /** 0 = left hand, 1 = right hand. */
  readonly hand: 0 | 1;
  /** A capsule along a bone (its axis is the bone), or the palm box (axes of the joint frame). */
  readonly kind: 'bone' | 'palm';
  /** The OpenXR joint the part is posed from: the bone's base joint; the wrist for the palm. */
  readonly joint: number;
  /** How far along the joint's −Z axis the part's centre lies. */
  readonly halfLength: number;
  readonly collider: number;
}

/** Fixed-step timing. */
export interface TimingModel {
  /** Seconds per tick. */
  readonly dt: number;
  /** Physics steps per tick. */
  readonly substeps: number;
  readonly solverIterations: number;
  /** Simulated seconds. */
  readonly duration: number;
  /** Ticks a full run steps: `round(duration / dt)`. */
  readonly durationTicks: number;
}

/** The immutable, validated, content-hashed model of a session. */
export interface SimModel {
  /** SHA-256 (hex) of the canonical JSON of the inputs that define the model, kernel version included. */
  readonly hash: string;
  readonly kernelVersion: string;
  readonly timing: TimingModel;
  readonly gravity: Vec3;
  readonly sceneId: string;
  readonly taskId: string;
  /** The task frame: the scene anchor the task's objects are placed in. */
  readonly taskFrame: Pose;
  readonly statics: readonly StaticModel[];
  readonly sensors: readonly SensorModel[];
  readonly bodies: readonly BodyModel[];
  readonly colliders: readonly ColliderModel[];
  readonly randomize: readonly RandomizeSpec[];
  readonly validators: readonly ValidatorSpecBase[];
  /** The simulated user: hand model, posture, start, inputs, tracking volume, contact limit, perturbation. */
  readonly user: UserModel;
  /** Kinematic hand parts (empty when the session has no hands), left hand first. */
  readonly handParts: readonly HandPartModel[];
  /** The depth camera and plane detection (each null when off). */
  readonly sensing: SensingModel;
  /** The validated source documents, embedded in stream headers so a stream replays without the files. */
  readonly sources: {
    readonly scene: SceneSpec;
    readonly task: TaskSpec;
    readonly handModel: HandModelSpec;
    readonly user?: UserOptions;
    readonly sensing?: SensingOptions;
    /** The actor script and the app, with their content hashes (absent when the task has neither). */
    readonly programs?: ProgramSources;
  };
}

/** Options that change the model without editing files. */
export interface ModelOptions {
  /** Physics steps per tick (overrides the task's `timing.substeps`). */
  substeps?: number;
  /** Simulated seconds (overrides the task's `duration`). */
  duration?: number;
  /** The hand model (default: the shipped `medium`). */
  handModel?: HandModelSpec;
  /** User options overriding the task's `user` section. */
  user?: UserOptions;
  /** Sensing options overriding the task's `sensing` section. */
  sensing?: SensingOptions;
  /** The app to run: a name from the task's `apps` (default `reference` when it has apps) or a module path. */
  app?: string;
  /** A browser app's way in: the CSS selector of the element the simulated user clicks (overrides the app entry's `start`). */
  start?: string;
  /** Programs as recorded in a stream header (they must be unchanged); overrides `app`. */
  programs?: ProgramSources;
}
