/**
 * The task file format (`tasks/<id>/task.json`, schema in `tasks/task.schema.json`).
 */
import type { DesignHeuristicId } from './design-heuristics.js';
import type { MaterialSpec, PlacedGeometrySpec, SemanticLabel, Vec3 } from '../geometry/types.js';
import type { UserOptions } from './user-options.js';
import type { SensingOptions } from './sensing-options.js';
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
  /**
   * Milestones of the task that must pass for this one to pass: a guard ("never more than five presses")
   * means something only once the behaviour it guards happened. Failed requirements cap its score at
   * theirs (`validate/requirements.ts`).
   */
  requires?: string[];
}

/** Axes a distance is measured over, in the task frame. */
export type AxesSpec = 'xyz' | 'xz' | 'y' | 'x' | 'z';

/**
 * One validator of a task: a formula (`type`), its milestones and its options. The options of each
 * formula, and their types, are declared once in the formula registry (`validate/registry.ts`, whose
 * `ValidatorSpec` is the precise union); a task file names objects in them by reference
 * (`task/references.ts`).
 */
export interface ValidatorSpecBase {
  type: string;
  description?: string;
  milestones: MilestoneSpec[];
  [option: string]: unknown;
}

/**
 * A moment (`at`) is a time in seconds or an event name: `app:<name>` (the app's `ctx.emit`),
 * `input:<selectstart|selectend|squeezestart|squeezeend>:<dominant|other|left|right>`, `app-error` or
 * `actor-failure`; it is that event's first occurrence (a check with `occurrence` may measure each one,
 * the Nth or the last). `visual` validators also take
 * `milestone:<id>[:last]`: the earliest (latest) evidence tick of that milestone, once it passed.
 * Windows are `[from, to]` seconds.
 */
export type Moment = number | string;
/** Seconds [from, to]. */
export type Window = [number, number];
/** How a metric is held to its thresholds. */
export type PassRule = 'atMost' | 'atLeast' | 'exactly';

/** What every app entry carries: its description and, for an adversarial app, what it fails. */
interface AppEntryBase {
  description?: string;
  /** Milestone ids this app fails (every other milestone it passes). Empty or absent for the reference. */
  expectFail?: string[];
  /** For an adversarial app: the failure mode its mistake stands for (required when `expectFail` is set). */
  category?: FailureCategory;
  /** The app fails `expectFail` only with this dominant hand and passes everything with the other. */
  failsWithHand?: 'left' | 'right';
  /**
   * The design heuristic the app is built to violate: its design score rates it lower than the reference on
   * exactly this heuristic (docs/TASKS.md, "Design score"), whatever milestones it passes.
   */
  designFlaw?: DesignHeuristicId;
}

/** An in-process app: an ES module run in the session's process. */
export interface ModuleAppEntrySpec extends AppEntryBase {
  /** ES module path, relative to the task file. */
  module: string;
}

/** A browser app: an unmodified WebXR page run in Chromium through the shim (docs/BROWSER.md). */
export interface BrowserAppEntrySpec extends AppEntryBase {
  host: 'browser';
  /** The directory served to the page, relative to the task file. */
  dir: string;
  /** The page to open, relative to `dir` (default `index.html`). */
  page?: string;
  /** A CSS selector of the element the simulated user clicks to enter XR (default: found; docs/BROWSER.md, "Entering XR"). */
  start?: string;
  /** Sensing the page needs on top of the task's (a page knows the room only through sensing). */
  sensing?: SensingOptions;
}

/** An app a task can run, in process or in the browser, by name in the task's `apps`. */
export type AppEntrySpec = ModuleAppEntrySpec | BrowserAppEntrySpec;

/** How a task names its apps (the schema's `propertyNames`): an app named otherwise is a path or URL, a candidate. */
const APP_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Whether `app` is written as a task's app name (`reference`, `counts-frames`), not a path, glob or URL. */
export function isAppName(app: string): boolean {
  return APP_NAME.test(app);
}

/** True for a browser app entry. */
export function isBrowserAppEntry(entry: AppEntrySpec): entry is BrowserAppEntrySpec {
  return (entry as BrowserAppEntrySpec).host === 'browser';
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
  /** Who answers the actor script's `a.agent` steps by default: `reference`, `replay:STREAM` or a command line. */
  agent?: string;
  /** Apps that run under this task, by name; `reference` is the one that passes every milestone. */
  apps?: Record<string, AppEntrySpec>;
  validators: ValidatorSpecBase[];
}
