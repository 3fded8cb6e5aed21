/**
 * Building a {@link SimModel} from a scene and a task.
 */
import { XrsimInputError } from '../errors.js';
import { composePose, partsOf, quatFromEulerDeg, rotateVec, shapeVolume, type Pose } from '../geometry/math.js';
import type { MaterialSpec, PlacedGeometrySpec, Vec3 } from '../geometry/types.js';
import { anchorPose, type LoadedScene } from '../scene/load.js';
import type { LoadedTask } from '../task/load.js';
import { KERNEL_VERSION } from '../version.js';
import { contentHash } from './canonical.js';
import { deepFreeze } from '../json/cache.js';
import { listNames, ownEntry } from '../json/names.js';
import type { SurfaceSpec } from '../scene/types.js';
import type { FixtureSpec } from '../task/types.js';
import { createFkScratch, DIGIT_BASES, handLocalPoses, J } from '../../kernels/hand-fk.js';
import { resolveUser } from '../task/user-options.js';
import { resolveSensing } from '../task/sensing-options.js';
import { checkPrograms, resolvePrograms, type ProgramSources } from '../task/programs.js';
import { loadHandModel, type HandModel } from '../hand/hand-model.js';
import { resolvePose } from '../hand/poses.js';
import { checkValidatorReferences } from './references.js';
import type { BodyModel, ColliderModel, HandPartModel, ModelOptions, ObjectOrigin, SensorModel, SimModel, StaticModel } from './types.js';
import { POSE_FLOATS } from '../../kernels/pose-compose.js';

/** Default tick: 90 Hz, the common headset refresh rate. */
export const DEFAULT_DT = 1 / 90;

/**
 * The most ticks one session may run (`duration / dt`). A day at 90 Hz is 7,776,000; past the limit a
 * tiny `dt` (1e-300) or a huge duration would run until the wall-clock limit, so it is bad input instead.
 */
export const MAX_SESSION_TICKS = 10_000_000;

/** Rapier's own default. */
export const DEFAULT_SOLVER_ITERATIONS = 4;
/** Standard gravity, m/s². */
export const DEFAULT_GRAVITY: Vec3 = [0, -9.81, 0];

/** Builds, validates, freezes and hashes the model of a task in a scene. */
export function buildModel(scene: LoadedScene, task: LoadedTask, options: ModelOptions = {}): SimModel {
  const sceneSpec = withoutSchemaKey(scene.spec);
  const taskSpec = withoutSchemaKey(task.spec);

  const anchorName = taskSpec.placement.anchor;
  const anchor = ownEntry(sceneSpec.anchors, anchorName);
  if (!anchor) {
    throw new XrsimInputError(`scene "${sceneSpec.id}" has no anchor "${anchorName}"`, {
      file: task.file,
      jsonPath: '$.placement.anchor',
      expected: `one of the scene's anchors: ${listNames(Object.keys(sceneSpec.anchors))}`,
    });
  }
  const [needLength, needWidth] = taskSpec.placement.clear;
  if (anchor.clear[0] < needLength || anchor.clear[1] < needWidth) {
    throw new XrsimInputError(
      `scene "${sceneSpec.id}" anchor "${anchorName}" is clear for ${anchor.clear[0]} × ${anchor.clear[1]} m, but the task needs ${needLength} × ${needWidth} m`,
      { file: task.file, jsonPath: '$.placement.clear', expected: 'a scene whose anchor is large enough' },
    );
  }

  const timing = resolveTiming(taskSpec, options, task.file);
  const taskFrame = anchorPose(anchor);
  const colliders: ColliderModel[] = [];
  const statics: StaticModel[] = [];
  const sensors: SensorModel[] = [];
  const bodies: BodyModel[] = [];

  // Creation order is fixed: statics (scene, then task), sensors, bodies (scene, then task). Rapier handles,
  // collider indices in events and the slots of the `bodies` channel all follow it.
  const addColliders = (
    object: PlacedGeometrySpec,
    owner: ColliderModel['owner'],
    material: { friction: number; restitution: number; density: number },
    sensor: boolean,
  ): number[] =>
    partsOf(object).map((part) => {
      const index = colliders.length;
      colliders.push({ index, owner, shape: part.shape, localPose: part.pose, ...material, sensor });
      return index;
    });
  const addStatic = (object: SurfaceSpec | FixtureSpec, origin: ObjectOrigin, pose: Pose, material: MaterialSpec) => {
    const owner = { kind: 'static' as const, index: statics.length };
    const colliderMaterial = { friction: material.friction, restitution: material.restitution, density: 0 };
    statics.push({ id: object.id, origin, label: object.label, pose, colliders: addColliders(object, owner, colliderMaterial, false) });
  };

  for (const surface of sceneSpec.surfaces) {
    addStatic(surface, 'scene', objectPose(surface), sceneSpec.materials[surface.material]);
  }
  for (const fixture of taskSpec.fixtures ?? []) {
    addStatic(fixture, 'task', composePose(taskFrame, objectPose(fixture)), (taskSpec.materials ?? {})[fixture.material]);
  }
  for (const sensor of taskSpec.sensors ?? []) {
    const owner = { kind: 'sensor' as const, index: sensors.length };
    sensors.push({
      id: sensor.id,
      pose: composePose(taskFrame, objectPose(sensor)),
      colliders: addColliders(sensor, owner, { friction: 0, restitution: 0, density: 0 }, true),
    });
  }
  for (const prop of sceneSpec.props) {
    const owner = { kind: 'body' as const, index: bodies.length };
    bodies.push({
      id: prop.id,
      origin: 'scene',
      kind: prop.kind,
      label: prop.label,
      mass: prop.mass,
      pose: objectPose(prop),
      linearVelocity: [0, 0, 0],
      angularVelocity: [0, 0, 0],
      ccd: false,
      colliders: addColliders(prop, owner, dynamicMaterial(prop), false),
    });
  }
  for (const body of taskSpec.bodies ?? []) {
    const owner = { kind: 'body' as const, index: bodies.length };
    bodies.push({
      id: body.id,
      origin: 'task',
      kind: 'task-body',
      mass: body.mass,
      pose: composePose(taskFrame, objectPose(body)),
      linearVelocity: rotateVec(taskFrame.rotation, body.linearVelocity ?? [0, 0, 0]),
      angularVelocity: rotateVec(taskFrame.rotation, body.angularVelocity ?? [0, 0, 0]),
      ccd: body.ccd ?? false,
      colliders: addColliders(body, owner, dynamicMaterial(body), false),
    });
  }
  // The loader checked the task's own objects; the scene's are known now.
  checkValidatorReferences({ statics, sensors, bodies }, taskSpec.validators, task.file);

  const handModel = loadHandModel(options.handModel ?? 'medium');
  const handModelSpec = withoutSchemaKey(handModel.spec);
  const user = resolveUser(handModelSpec, taskSpec.user, options.user, taskFrame, needWidth, task.file);
  const handParts: HandPartModel[] = [];
  if (user.inputs.hands) {
    for (const hand of [0, 1] as const) {
      for (const part of handPartShapes(handModel)) {
        const index = colliders.length;
        colliders.push({
          index,
          owner: { kind: 'hand', index: handParts.length },
          shape: part.shape,
          localPose: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
          // Skin on most surfaces: grippy, barely bouncy.
          friction: 0.9,
          restitution: 0.05,
          density: 0,
          sensor: false,
        });
        handParts.push({ hand, kind: part.kind, joint: part.joint, halfLength: part.halfLength, collider: index });
      }
    }
  }

  const sensing = resolveSensing(taskSpec.sensing, options.sensing, task.file);
  if (options.programs) checkPrograms(options.programs);
  const programs = options.programs ?? resolvePrograms(taskSpec, task.file, options.app, options.start);
  const hasPrograms = programs.actors !== undefined || programs.app !== undefined;
  // The spec's sensing joins the hash only when given, so models without it keep their hashes.
  const hashInputs = {
    kernelVersion: KERNEL_VERSION,
    scene: sceneSpec,
    task: taskSpec,
    timing,
    handModel: handModelSpec,
    user: options.user ?? null,
    ...(options.sensing ? { sensing: options.sensing } : {}),
    // Programs by content, not by path: the same files hash the same wherever the checkout lives.
    ...(hasPrograms ? { programs: { actors: programs.actors?.sha256 ?? null, app: programs.app ? appHashInputs(programs.app) : null } } : {}),
  };
  const model: SimModel = {
    hash: contentHash(hashInputs),
    kernelVersion: KERNEL_VERSION,
    timing,
    gravity: sceneSpec.gravity ? [...sceneSpec.gravity] : [...DEFAULT_GRAVITY],
    sceneId: sceneSpec.id,
    taskId: taskSpec.id,
    taskFrame,
    statics,
    sensors,
    bodies,
    colliders,
    randomize: taskSpec.randomize ?? [],
    validators: taskSpec.validators,
    user,
    handParts,
    sensing,
    sources: {
      scene: sceneSpec,
      task: taskSpec,
      handModel: handModelSpec,
      ...(options.user ? { user: options.user } : {}),
      ...(options.sensing ? { sensing: options.sensing } : {}),
      ...(hasPrograms ? { programs } : {}),
    },
  };
  return deepFreeze(model);
}

function resolveTiming(task: LoadedTask['spec'], options: ModelOptions, file: string) {
  const dt = task.timing?.dt ?? DEFAULT_DT;
  const substeps = options.substeps ?? task.timing?.substeps ?? 1;
  if (!Number.isInteger(substeps) || substeps < 1 || substeps > 64) {
    throw new XrsimInputError(`substeps must be an integer from 1 to 64, got ${substeps}`, { file, expected: 'an integer 1..64' });
  }
  const duration = options.duration ?? task.duration;
  if (!(duration > 0) || !Number.isFinite(duration)) {
    throw new XrsimInputError(`duration must be a positive number of seconds, got ${duration}`, { file, expected: 'seconds > 0' });
  }
  const durationTicks = Math.round(duration / dt);
  if (!(durationTicks <= MAX_SESSION_TICKS)) {
    const fromSpec = options.duration !== undefined;
    throw new XrsimInputError(`${duration} s at a tick of ${dt} s is ${durationTicks.toPrecision(3)} ticks, more than a session may run`, {
      file: fromSpec && task.timing?.dt === undefined ? '<session spec>' : file,
      jsonPath: task.timing?.dt !== undefined ? '$.timing.dt' : '$.duration',
      expected: `duration / dt of at most ${MAX_SESSION_TICKS} ticks (a day at 90 Hz is ${86400 * 90})`,
    });
  }
  return {
    dt,
    substeps,
    solverIterations: task.timing?.solverIterations ?? DEFAULT_SOLVER_ITERATIONS,
    duration,
    durationTicks,
  };
}

function objectPose(object: PlacedGeometrySpec): Pose {
  return { position: [...object.position], rotation: quatFromEulerDeg(object.eulerDeg) };
}

/** Rapier derives mass from collider density; spread the given mass over the object's volume. */
function dynamicMaterial(object: PlacedGeometrySpec & { mass: number; friction: number; restitution: number }) {
  const volume = partsOf(object).reduce((sum, part) => sum + shapeVolume(part.shape), 0);
  return { friction: object.friction, restitution: object.restitution, density: object.mass / volume };
}

/** `$schema` is an editor hint with a machine-relative path; it is not part of the content. */
function withoutSchemaKey<T extends { $schema?: string }>(spec: T): T {
  const { $schema: _ignored, ...rest } = spec;
  return structuredClone(rest) as T;
}

/**
 * The shapes of one hand's kinematic parts: a capsule along each phalanx (thumb from its metacarpal, fingers
 * from their proximal phalanx; the finger metacarpals lie inside the palm box), and the palm as a box from
 * the wrist to the knuckles, as wide as the knuckles and as thick as the palm (twice the palm radius).
 */
function handPartShapes(model: HandModel): { kind: 'bone' | 'palm'; joint: number; halfLength: number; shape: ColliderModel['shape'] }[] {
  const { boneLength, radius } = model.skeleton;
  const parts: { kind: 'bone' | 'palm'; joint: number; halfLength: number; shape: ColliderModel['shape'] }[] = [];
  const bone = (joint: number) =>
    parts.push({
      kind: 'bone',
      joint,
      halfLength: boneLength[joint] / 2,
      shape: { type: 'capsule', radius: Math.min(radius[joint], radius[joint + 1]), length: boneLength[joint] },
    });
  for (const joint of [J.ThumbMetacarpal, J.ThumbMetacarpal + 1, J.ThumbMetacarpal + 2]) bone(joint);
  for (const base of DIGIT_BASES.slice(1)) for (const joint of [base + 1, base + 2, base + 3]) bone(joint);
  const local = createFkScratch();
  handLocalPoses(model.skeleton, resolvePose('open', model).angles, local);
  const x = (j: number) => local[j * POSE_FLOATS];
  const z = (j: number) => local[j * POSE_FLOATS + 2];
  const index = DIGIT_BASES[1] + 1;
  const little = DIGIT_BASES[4] + 1;
  const length = Math.abs(z(J.MiddleProximal));
  parts.push({
    kind: 'palm',
    joint: J.Wrist,
    halfLength: length / 2,
    shape: { type: 'box', size: [Math.abs(x(little) - x(index)) + radius[index], 2 * radius[J.Palm], length] },
  });
  return parts;
}

/** What of the app joins the model hash: its name and content, and how a page is entered when that is named. */
function appHashInputs(app: NonNullable<ProgramSources['app']>): string[] {
  return 'host' in app && app.start !== undefined ? [app.name, app.sha256, app.start] : [app.name, app.sha256];
}
