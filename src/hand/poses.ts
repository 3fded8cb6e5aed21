/**
 * The pose library (`hand-models/poses.json`): named poses as joint angles, and `grab`, solved for the
 * diameter of the object held.
 */
import { ANGLES_PER_JOINT, createFkScratch, DIGIT_BASES, DIGIT_LENGTHS, handLocalPoses, J, JOINT_COUNT } from '../../kernels/hand-fk.js';
import { XrsimInputError } from '../errors.js';
import { quatFromEulerDeg } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { readJsonFile, validateAgainstSchema } from '../json/load.js';
import { ownEntry } from '../json/names.js';
import { HAND_MODELS_DIR, POSES_SCHEMA } from '../paths.js';
import { join } from 'node:path';
import { clampToLimits, type HandModel } from './hand-model.js';
import { OPENXR_JOINTS, type JointName } from './joints.js';
import { POSE_FLOATS } from '../../kernels/pose-compose.js';

/** A pose as written in the library. */
export interface PoseSpec {
  description: string;
  /** [flexion, abduction] degrees per joint. */
  joints: Partial<Record<JointName, [number, number]>>;
  /** How a right wrist is usually turned for this gesture, relative to palm down, fingers forward. */
  wristEulerDeg?: Vec3;
}

/** A resolved pose: angles (radians, 2 per joint) and the wrist turn that goes with it. */
export interface HandPose {
  name: string;
  angles: Float64Array;
  /** Wrist rotation relative to the default placement, for a right hand (mirrored for a left). */
  wristRotation: Quat;
}

/** Pose names the library ships, plus the solved `grab`. */
export const GRAB = 'grab';

let library: Record<string, PoseSpec> | undefined;

/** The pose library, validated once. */
export function poseLibrary(): Record<string, PoseSpec> {
  if (!library) {
    const file = join(HAND_MODELS_DIR, 'poses.json');
    const data = readJsonFile(file);
    validateAgainstSchema(POSES_SCHEMA, data, file);
    library = (data as { poses: Record<string, PoseSpec> }).poses;
  }
  return library;
}

/** Every pose name, `grab` included. */
export function listPoseNames(): string[] {
  return [...Object.keys(poseLibrary()), GRAB].sort();
}

/** The angles of a pose spec, in radians, clamped to the model's limits. */
export function anglesOf(spec: PoseSpec, model: HandModel): Float64Array {
  const angles = new Float64Array(JOINT_COUNT * ANGLES_PER_JOINT);
  const rad = Math.PI / 180;
  // One array of names, not an array per joint: every session resolves its hands' poses.
  const joints = spec.joints;
  const names = Object.keys(joints);
  for (let i = 0; i < names.length; i++) {
    const j = OPENXR_JOINTS.indexOf(names[i] as JointName);
    const value = joints[names[i] as JointName]!;
    angles[j * 2] = value[0] * rad;
    angles[j * 2 + 1] = value[1] * rad;
  }
  clampToLimits(model, angles);
  return angles;
}

/**
 * Resolves a pose by name for a hand model. `grab` takes `options.diameter` (metres, default 0.07).
 * Throws {@link XrsimInputError} for an unknown name, listing the known ones.
 */
export function resolvePose(name: string, model: HandModel, options: { diameter?: number } = {}): HandPose {
  if (name === GRAB) return grabPose(model, options.diameter ?? 0.07);
  const spec = ownEntry(poseLibrary(), name);
  if (!spec) {
    throw new XrsimInputError(`unknown pose "${name}". Known poses: ${listPoseNames().join(', ')}`, { expected: 'a pose from hand-models/poses.json' });
  }
  return { name, angles: anglesOf(spec, model), wristRotation: quatFromEulerDeg(spec.wristEulerDeg) };
}

/**
 * `grab`: the hand closed around a sphere of `diameter` held against the palm. Each digit curls from the
 * open pose toward the fist until its tip first touches the sphere's surface.
 */
export function grabPose(model: HandModel, diameter: number): HandPose {
  if (!(diameter > 0 && diameter < 0.3)) {
    throw new XrsimInputError(`grab diameter must be between 0 and 0.3 m, got ${diameter}`, { expected: 'a diameter in metres' });
  }
  const library = poseLibrary();
  const open = anglesOf(library.open, model);
  const fist = anglesOf(library.fist, model);
  const angles = open.slice();
  const local = createFkScratch();
  const radius = diameter / 2;
  // The sphere sits against the palm, centred between the palm joint and the knuckles of the index and middle
  // fingers (a ball is held toward the thumb side, where the index and middle fingers close on it).
  handLocalPoses(model.skeleton, open, local);
  const p = J.Palm * POSE_FLOATS;
  const i = J.IndexProximal * POSE_FLOATS;
  const k = J.MiddleProximal * POSE_FLOATS;
  const lift = radius + model.skeleton.radius[J.Palm];
  const knuckles = [(local[i] + local[k]) / 2, (local[i + 1] + local[k + 1]) / 2, (local[i + 2] + local[k + 2]) / 2];
  const centre = [(local[p] + knuckles[0]) / 2, (local[p + 1] + knuckles[1]) / 2 - lift, (local[p + 2] + knuckles[2]) / 2];
  for (let d = 0; d < 5; d++) {
    const first = DIGIT_BASES[d];
    const tip = first + DIGIT_LENGTHS[d] - 1;
    const gap = (curl: number) => {
      for (let j = first; j < tip; j++) {
        for (let a = 0; a < 2; a++) angles[j * 2 + a] = open[j * 2 + a] + curl * (fist[j * 2 + a] - open[j * 2 + a]);
      }
      handLocalPoses(model.skeleton, angles, local);
      const t = tip * POSE_FLOATS;
      return Math.hypot(local[t] - centre[0], local[t + 1] - centre[1], local[t + 2] - centre[2]) - (radius + model.skeleton.radius[tip]);
    };
    // The tip sweeps an arc that can enter the sphere and leave it again, so find the first contact by
    // stepping forward, then bisect within that step. No contact at all: the digit closes fully.
    const STEP = 0.02;
    let lo = 1;
    let hi = 1;
    for (let curl = STEP; curl <= 1 + 1e-9; curl += STEP) {
      if (gap(curl) <= 0) {
        lo = curl - STEP;
        hi = curl;
        break;
      }
    }
    for (let i = 0; i < 20 && hi - lo > 1e-6; i++) {
      const mid = (lo + hi) / 2;
      if (gap(mid) > 0) lo = mid;
      else hi = mid;
    }
    gap(lo);
  }
  return { name: GRAB, angles, wristRotation: [0, 0, 0, 1] };
}
