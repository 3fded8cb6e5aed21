/**
 * Hand models (`hand-models/*.json`): loading, validating and compiling a skeleton for the FK kernel.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ANGLES_PER_JOINT, JOINT_COUNT, type CompiledSkeleton } from '../../kernels/hand-fk.js';
import { XrsimInputError } from '../errors.js';
import { quatFromEulerDeg } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import { ContentCache, deepFreeze } from '../json/cache.js';
import { parseJsonText, readTextFile, validateAgainstSchema } from '../json/load.js';
import { HAND_MODEL_SCHEMA, HAND_MODELS_DIR } from '../paths.js';
import { looksLikePath } from '../scene/load.js';
import { hasBone, isMetacarpal, OPENXR_JOINTS, type JointName } from './joints.js';

/** One joint of a hand-model file. */
export interface JointSpec {
  radius: number;
  length?: number;
  base?: Vec3;
  restEulerDeg?: Vec3;
  limits?: { flexion: [number, number]; abduction: [number, number] };
  description?: string;
}

/** A hand-model file. */
export interface HandModelSpec {
  $schema?: string;
  id: string;
  name: string;
  description?: string;
  /** Wrist crease to middle fingertip, metres. */
  handLength: number;
  /** Shoulder to wrist, metres. */
  armLength: number;
  sources: string[];
  joints: Record<JointName, JointSpec>;
}

/** A validated hand model, compiled for the kernel. */
export interface HandModel {
  spec: HandModelSpec;
  skeleton: CompiledSkeleton;
  /** Per joint: flexion min, flexion max, abduction min, abduction max (radians). */
  limits: Float64Array;
}

/** Ids of the shipped hand models. */
export function listHandModelIds(): string[] {
  return readdirSync(HAND_MODELS_DIR)
    .filter((n) => n.endsWith('.json') && !n.endsWith('.schema.json') && n !== 'poses.json')
    .map((n) => n.slice(0, -5))
    .sort();
}

/** Loads a hand model by id (`small`, `medium`, `large`), path, or inline spec. */
export function loadHandModel(ref: string | HandModelSpec): HandModel {
  if (typeof ref !== 'string') {
    // A frozen spec (as every model holds) cannot change, so it is compiled once.
    if (!Object.isFrozen(ref)) return compileHandModel(validateHandModel(ref, '<inline hand model>'));
    let model = frozenSpecs.get(ref);
    if (!model) frozenSpecs.set(ref, (model = compileHandModel(validateHandModel(ref, '<inline hand model>'))));
    return model;
  }
  let file = ref;
  if (!looksLikePath(ref)) {
    file = join(HAND_MODELS_DIR, `${ref}.json`);
    if (!listHandModelIds().includes(ref) || !existsSync(file)) {
      throw new XrsimInputError(`unknown hand model "${ref}". Known hand models: ${listHandModelIds().join(', ')}`, {
        expected: 'a hand model id or a path to a hand-model .json file',
      });
    }
  }
  const text = readTextFile(file);
  return handModelFiles.get(file, text, () => compileHandModel(deepFreeze(validateHandModel(parseJsonText(text, file), file))));
}

/** Hand models loaded from files, by content, and compiled from frozen specs, by identity. */
const handModelFiles = new ContentCache<HandModel>();
const frozenSpecs = new WeakMap<HandModelSpec, HandModel>();

/** Schema validation plus limit ordering. */
export function validateHandModel(data: unknown, file: string): HandModelSpec {
  validateAgainstSchema(HAND_MODEL_SCHEMA, data, file);
  const spec = data as HandModelSpec;
  for (const name of OPENXR_JOINTS) {
    const limits = spec.joints[name].limits;
    if (!limits) continue;
    for (const axis of ['flexion', 'abduction'] as const) {
      if (limits[axis][0] > limits[axis][1]) {
        throw new XrsimInputError(`${axis} limits are reversed: ${limits[axis][0]} > ${limits[axis][1]}`, {
          file,
          jsonPath: `$.joints["${name}"].limits.${axis}`,
          expected: '[min, max] with min ≤ max',
        });
      }
    }
  }
  return spec;
}

function compileHandModel(spec: HandModelSpec): HandModel {
  const skeleton: CompiledSkeleton = {
    boneLength: new Float64Array(JOINT_COUNT),
    restRotation: new Float64Array(JOINT_COUNT * 4),
    base: new Float64Array(JOINT_COUNT * 3),
    radius: new Float64Array(JOINT_COUNT),
  };
  const limits = new Float64Array(JOINT_COUNT * 4);
  const rad = Math.PI / 180;
  OPENXR_JOINTS.forEach((name, j) => {
    const joint = spec.joints[name];
    skeleton.radius[j] = joint.radius;
    skeleton.restRotation.set(quatFromEulerDeg(joint.restEulerDeg), j * 4);
    if (hasBone(name)) skeleton.boneLength[j] = joint.length ?? 0;
    if (isMetacarpal(name) && joint.base) skeleton.base.set(joint.base, j * 3);
    if (joint.limits) {
      limits.set([joint.limits.flexion[0] * rad, joint.limits.flexion[1] * rad, joint.limits.abduction[0] * rad, joint.limits.abduction[1] * rad], j * 4);
    }
  });
  return { spec, skeleton, limits };
}

/** Clamps joint angles (2 per joint, radians) to a model's limits, in place. */
export function clampToLimits(model: HandModel, angles: Float64Array): void {
  for (let j = 0; j < JOINT_COUNT; j++) {
    const l = j * 4;
    const a = j * ANGLES_PER_JOINT;
    angles[a] = Math.min(model.limits[l + 1], Math.max(model.limits[l], angles[a]));
    angles[a + 1] = Math.min(model.limits[l + 3], Math.max(model.limits[l + 2], angles[a + 1]));
  }
}
