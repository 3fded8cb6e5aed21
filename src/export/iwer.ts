/**
 * `xrsim export --format iwer`: the session as an IWER action recording (the JSON that IWER's
 * `ActionRecorder` writes and `ActionPlayer` / `XRDevice.createActionPlayer` replays):
 *
 * ```
 * { schema: [[index, { handedness, targetRayMode, profiles, hasGrip, hasHand, jointSequence?,
 *                      hasGamepad, mapping?, numButtons?, numAxes? }], ...],
 *   frames: [[timeMs, head x y z, head qx qy qz qw,
 *             [index, targetRay x y z qx qy qz qw, [grip 7]?, [25 joints × (7 + radius)]?, [buttons [pressed,
 *              touched, value] × n, axes × m]?], ...], ...] }
 * ```
 * Input sources are listed in a frame while WebXR would list them: tracked hands, connected controllers.
 * Hand joints are the 25 WebXR joints relative to the hand's target-ray space, as IWER records them.
 * Positions and quaternions keep 6 decimals (a micrometre), where IWER's own recorder keeps 3.
 */
import { startsWith, type OutputKind } from '../output-file.js';
import { closeSync, openSync, writeSync } from 'node:fs';
import { handTargetRay } from '../app/xr-frame.js';
import { HAND_JOINT_FLOATS } from '../frame/layout.js';
import type { Frame } from '../frame/frame.js';
import { composePose, quatConjugate, rotateVec, type Pose } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { modelFromHeader } from '../stream/header.js';
import type { StreamReader } from '../stream/reader.js';
import { XR_STANDARD_BUTTONS } from '../user/controller.js';
import { WEBXR_JOINTS } from '../hand/joints.js';

/** An IWER recording, as an output that may replace an existing file: it starts with its schema (src/output-file.ts). */
export const IWER_OUTPUT: OutputKind = startsWith('an IWER recording written by xrsim', '{"schema":[');

/** Controller buttons count as pressed from this value (as in the app host's frame builder). */
const PRESSED = 0.5;

/** IWER's input schema (its `InputSchema`). */
export interface IwerInputSchema {
  handedness: 'left' | 'right';
  targetRayMode: 'tracked-pointer';
  profiles: string[];
  hasGrip: boolean;
  hasHand: boolean;
  jointSequence?: string[];
  hasGamepad: boolean;
  mapping?: 'xr-standard';
  numButtons?: number;
  numAxes?: number;
}

/** Schema entries: left hand 0, right hand 1, left controller 2, right controller 3 (those the stream has). */
export function iwerSchema(reader: StreamReader): [number, IwerInputSchema][] {
  const has = (name: string) => reader.layout.channels.some((c) => c.name === name);
  const entries: [number, IwerInputSchema][] = [];
  (['left', 'right'] as const).forEach((side, k) => {
    if (has(`hand-${side}`)) {
      entries.push([k, { handedness: side, targetRayMode: 'tracked-pointer', profiles: ['generic-hand-select', 'generic-hand'], hasGrip: true, hasHand: true, jointSequence: [...WEBXR_JOINTS], hasGamepad: false }]);
    }
  });
  (['left', 'right'] as const).forEach((side, k) => {
    if (has(`controller-${side}`)) {
      entries.push([
        2 + k,
        { handedness: side, targetRayMode: 'tracked-pointer', profiles: ['generic-trigger-squeeze-thumbstick', 'generic-button'], hasGrip: true, hasHand: false, hasGamepad: true, mapping: 'xr-standard', numButtons: XR_STANDARD_BUTTONS.length, numAxes: 4 },
      ]);
    }
  });
  return entries;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;
const pose7 = (p: Pose) => [...p.position, ...p.rotation].map(round);
const poseAt = (v: ArrayLike<number>, o: number): Pose => ({ position: [v[o], v[o + 1], v[o + 2]], rotation: [v[o + 3], v[o + 4], v[o + 5], v[o + 6]] });
const inverse = (p: Pose): Pose => {
  const q = quatConjugate(p.rotation as Quat);
  const t = rotateVec(q, p.position as Vec3);
  return { position: [-t[0], -t[1], -t[2]], rotation: q };
};

/**
 * One IWER frame row for `frame`. `shoulderOffset` is the session's user model's (`modelFromHeader(header).user`),
 * where its hand rays come from.
 */
export function iwerFrame(frame: Frame, schema: readonly [number, IwerInputSchema][], shoulderOffset: ArrayLike<number>): unknown[] {
  const head = frame.channel('head')!;
  const row: unknown[] = [round(frame.time * 1000), ...pose7(poseAt(head, 0))];
  for (const [index, input] of schema) {
    if (input.hasHand) {
      const c = frame.channel(`hand-${input.handedness}`)!;
      if (c[26 * HAND_JOINT_FLOATS] !== 1) continue;
      const ray = poseAt(handTargetRay(c, head, shoulderOffset, input.handedness === 'left'), 0);
      const toRay = inverse(ray);
      const joints: number[] = [];
      // WebXR joint k is OpenXR joint k + 1 (the palm has none).
      for (let k = 0; k < 25; k++) joints.push(...pose7(composePose(toRay, poseAt(c, (k + 1) * HAND_JOINT_FLOATS))), round(c[(k + 1) * HAND_JOINT_FLOATS + 7]));
      row.push([index, ...pose7(ray), pose7(poseAt(c, 0)), joints]);
    } else {
      const c = frame.channel(`controller-${input.handedness}`)!;
      if (c[0] !== 1) continue;
      const buttons = XR_STANDARD_BUTTONS.map((_, b) => [c[15 + b] >= PRESSED ? 1 : 0, c[15 + b] > 0 ? 1 : 0, round(c[15 + b])]);
      row.push([index, ...pose7(poseAt(c, 8)), pose7(poseAt(c, 1)), [...buttons, ...[c[21], c[22], c[23], c[24]].map(round)]]);
    }
  }
  return row;
}

/** Writes the recording of `reader`'s session to `out` (streamed: one frame row at a time); returns the frame count. */
export function exportIwer(reader: StreamReader, out: string, progress?: (tick: number) => void): number {
  const schema = iwerSchema(reader);
  const { shoulderOffset } = modelFromHeader(reader.header).user;
  const fd = openSync(out, 'w');
  let frames = 0;
  try {
    writeSync(fd, `{"schema":${JSON.stringify(schema)},"frames":[`);
    let pending: string[] = [];
    for (const frame of reader.framesInOrder()) {
      pending.push(JSON.stringify(iwerFrame(frame as Frame, schema, shoulderOffset)));
      if (++frames % 256 === 0) {
        writeSync(fd, (frames > 256 ? ',' : '') + pending.join(','));
        pending = [];
        progress?.(frame.tick);
      }
    }
    if (pending.length) writeSync(fd, (frames > pending.length ? ',' : '') + pending.join(','));
    writeSync(fd, ']}\n');
  } finally {
    closeSync(fd);
  }
  return frames;
}
