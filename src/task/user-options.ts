/**
 * What a session fixes about its simulated user. A task can set it (`task.user`), a session spec can
 * override it (`spec.user`, `spec.handModel`), and the resolved result is part of the model and its hash.
 */
import { XrsimInputError } from '../errors.js';
import { composePose, quatFromYawDeg, type Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { HandModelSpec } from '../hand/hand-model.js';

/** Seeded perturbations for flakiness studies. Off unless given. */
export interface PerturbationOptions {
  /** Physiological tremor of the wrists: sinusoids in a frequency band. `false` turns it off. */
  tremor?: { amplitude?: number; frequency?: [number, number] } | false;
  /** Standard deviation of joint-angle jitter, degrees (default 0.5). */
  jointJitterDeg?: number;
  /** Standard deviation of position noise on reported joints, metres (default 0.0005). */
  trackingNoise?: number;
  /** Actor waits last ±this fraction of themselves (default 0.1). */
  timingJitter?: number;
}

/** User options as written in a task or a session spec. Every field is optional. */
export interface UserOptions {
  /** `standing` (default) or `seated`. */
  posture?: 'standing' | 'seated';
  /** Where the user stands, in the task frame: a floor point and a facing (yaw 0 faces −Z). */
  start?: { position: Vec3; yawDeg: number };
  /** Which inputs exist. Default: hands only. Both may be present at once. */
  inputs?: { hands?: boolean; controllers?: boolean };
  /** The headset's hand-tracking volume: a cone from the head. */
  tracking?: { halfAngleDeg?: number; range?: number; pitchDeg?: number; handsFrom?: number };
  /** How far a hand may sink into a static surface, metres (default 0.003). */
  contact?: { maxPenetration?: number };
  /** Seeded perturbation mode (off by default). `true` means the defaults. */
  perturbation?: PerturbationOptions | boolean;
  /** Interpupillary distance, metres (default 0.063). */
  ipd?: number;
}

/** The resolved user of a model. */
export interface UserModel {
  handModel: HandModelSpec;
  posture: 'standing' | 'seated';
  /** Floor point under the eyes and the body's facing, in world coordinates. */
  start: Pose;
  /** Eye heights above the floor for the two postures, from the body size. */
  eyeHeight: { standing: number; seated: number };
  /** Shoulder position relative to the eyes in the body frame (right shoulder; the left mirrors x). */
  shoulderOffset: Vec3;
  /** Resting wrist position relative to the eyes in the body frame (right hand; the left mirrors x). */
  restWristOffset: Vec3;
  armLength: number;
  inputs: { hands: boolean; controllers: boolean };
  /** The tracking cone, and when the headset first finds the hands (seconds; 0 = from the start). */
  tracking: { halfAngle: number; range: number; pitch: number; handsFrom: number };
  maxPenetration: number;
  perturbation: { tremorAmplitude: number; tremorBand: [number, number]; jointJitter: number; trackingNoise: number; timingJitter: number } | null;
  ipd: number;
}

/** Hand length of the medium model: body dimensions scale with hand length / this. */
const MEDIUM_HAND_LENGTH = 0.189;

/**
 * Resolves the user of a task in a scene. `taskFrame` is the anchor the task is placed in; `clearWidth` is
 * the width of the task's area, used to stand the user just outside it by default, facing it.
 */
export function resolveUser(
  handModel: HandModelSpec,
  taskUser: UserOptions | undefined,
  specUser: UserOptions | undefined,
  taskFrame: Pose,
  clearWidth: number,
  file: string,
): UserModel {
  const o: UserOptions = { ...taskUser, ...specUser };
  const k = handModel.handLength / MEDIUM_HAND_LENGTH;
  const start = o.start ?? { position: [0, 0, -(clearWidth / 2 + 0.45)] as Vec3, yawDeg: 180 };
  const tracking = o.tracking ?? {};
  const halfAngleDeg = tracking.halfAngleDeg ?? 60;
  if (!(halfAngleDeg > 0 && halfAngleDeg <= 180)) throw new XrsimInputError(`tracking.halfAngleDeg must be in (0, 180], got ${halfAngleDeg}`, { file, jsonPath: '$.user.tracking.halfAngleDeg' });
  // The start is a floor point: whatever the anchor's height (a table top), the feet are on the floor.
  const startPose = composePose(taskFrame, { position: [start.position[0], 0, start.position[2]], rotation: quatFromYawDeg(start.yawDeg) });
  startPose.position[1] = 0;
  return {
    handModel,
    posture: o.posture ?? 'standing',
    start: startPose,
    // Standing eye height 1.60 m and sitting eye height 0.79 m above a 0.45 m seat for a medium body,
    // scaled with hand length (about 1.41 m and 1.77 m standing for the small and large bodies).
    eyeHeight: { standing: 1.6 * k, seated: 0.45 + 0.79 * k },
    shoulderOffset: [0.19 * k, -0.24 * k, 0.06 * k],
    restWristOffset: [0.16 * k, -0.45 * k, -0.3 * k],
    armLength: handModel.armLength,
    inputs: { hands: o.inputs?.hands ?? true, controllers: o.inputs?.controllers ?? false },
    tracking: { halfAngle: (halfAngleDeg * Math.PI) / 180, range: tracking.range ?? 1.0, pitch: ((tracking.pitchDeg ?? -30) * Math.PI) / 180, handsFrom: tracking.handsFrom ?? 0 },
    maxPenetration: o.contact?.maxPenetration ?? 0.003,
    perturbation: resolvePerturbation(o.perturbation),
    ipd: o.ipd ?? 0.063,
  };
}

function resolvePerturbation(p: UserOptions['perturbation']): UserModel['perturbation'] {
  if (!p) return null;
  const options: PerturbationOptions = p === true ? {} : p;
  const tremor = options.tremor === false ? null : (options.tremor ?? {});
  return {
    tremorAmplitude: tremor ? (tremor.amplitude ?? 0.0005) : 0,
    tremorBand: tremor?.frequency ?? [8, 12],
    jointJitter: ((options.jointJitterDeg ?? 0.5) * Math.PI) / 180,
    trackingNoise: options.trackingNoise ?? 0.0005,
    timingJitter: options.timingJitter ?? 0.1,
  };
}
