/**
 * Kinematic invariants of the simulated hands, over every pose, every size and both hands.
 */
import { describe, expect, it } from 'vitest';
import { DIGIT_BASES, DIGIT_LENGTHS, J, JOINT_COUNT } from '../kernels/hand-fk.js';
import { quatFromEulerDeg, rotateVec } from '../src/geometry/math.js';
import type { Quat, Vec3 } from '../src/geometry/types.js';
import { listHandModelIds, loadHandModel } from '../src/hand/hand-model.js';
import { OPENXR_JOINTS, WEBXR_JOINTS, webxrIndex } from '../src/hand/joints.js';
import { poseHand, type PosedHand } from '../src/user/posed-hand.js';
import { anglesOf, listPoseNames, poseLibrary, resolvePose } from '../src/hand/poses.js';

const SIZES = ['small', 'medium', 'large'];
const SIDES = ['left', 'right'] as const;
/** Every pose, with grab at three diameters. */
const POSES = listPoseNames().flatMap((name) => (name === 'grab' ? [0.04, 0.07, 0.1].map((d) => ({ name, diameter: d })) : [{ name, diameter: undefined }]));
/** A wrist somewhere in the room, turned arbitrarily: invariants must not depend on it. */
const WRIST = [0.3, 1.2, -0.4, ...quatFromEulerDeg([20, -35, 50])];

const position = (h: PosedHand, j: number): Vec3 => [h.positions[j * 3], h.positions[j * 3 + 1], h.positions[j * 3 + 2]];
const orientation = (h: PosedHand, j: number): Quat => [h.orientations[j * 4], h.orientations[j * 4 + 1], h.orientations[j * 4 + 2], h.orientations[j * 4 + 3]];
const distance = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** Float32 outputs: positions about 1 m from the origin carry about 1e-7 m of rounding. */
const EPS = 2e-6;

describe('hand models', () => {
  it('ship small, medium and large, scaled by hand length', () => {
    expect(listHandModelIds()).toEqual(['large', 'medium', 'small']);
    const medium = loadHandModel('medium');
    for (const id of ['small', 'large']) {
      const m = loadHandModel(id);
      const k = m.spec.handLength / medium.spec.handLength;
      for (let j = 0; j < JOINT_COUNT; j++) expect(m.skeleton.boneLength[j]).toBeCloseTo(medium.skeleton.boneLength[j] * k, 4);
      expect(m.spec.sources.join(' ')).toMatch(/Buchholz/);
    }
  });
});

describe.each(SIZES)('%s hand', (size) => {
  const model = loadHandModel(size);

  it('every library pose is within the joint limits as written (nothing needs clamping)', () => {
    const rad = Math.PI / 180;
    for (const [name, spec] of Object.entries(poseLibrary())) {
      const clamped = anglesOf(spec, model);
      for (const [joint, [flexion, abduction]] of Object.entries(spec.joints)) {
        const j = OPENXR_JOINTS.indexOf(joint as (typeof OPENXR_JOINTS)[number]);
        expect(clamped[j * 2], `${name} ${joint} flexion`).toBeCloseTo(flexion * rad, 12);
        expect(clamped[j * 2 + 1], `${name} ${joint} abduction`).toBeCloseTo(abduction * rad, 12);
      }
    }
  });

  describe.each(SIDES)('%s', (side) => {
    it.each(POSES)('$name ($diameter): bone lengths exact, angles in limits, OpenXR axes, radii > 0', ({ name, diameter }) => {
      const pose = resolvePose(name, model, { diameter });
      const hand = poseHand(model, pose, side, WRIST);
      // Angles within limits.
      for (let j = 0; j < JOINT_COUNT; j++) {
        expect(pose.angles[j * 2]).toBeGreaterThanOrEqual(model.limits[j * 4] - 1e-12);
        expect(pose.angles[j * 2]).toBeLessThanOrEqual(model.limits[j * 4 + 1] + 1e-12);
        expect(pose.angles[j * 2 + 1]).toBeGreaterThanOrEqual(model.limits[j * 4 + 2] - 1e-12);
        expect(pose.angles[j * 2 + 1]).toBeLessThanOrEqual(model.limits[j * 4 + 3] + 1e-12);
      }
      for (let d = 0; d < 5; d++) {
        for (let j = DIGIT_BASES[d]; j < DIGIT_BASES[d] + DIGIT_LENGTHS[d] - 1; j++) {
          const from = position(hand, j);
          const to = position(hand, j + 1);
          // The bone has its length, and runs along the joint's −Z axis.
          expect(Math.abs(distance(from, to) - model.skeleton.boneLength[j]), OPENXR_JOINTS[j]).toBeLessThan(EPS);
          const along = rotateVec(orientation(hand, j), [0, 0, -1]);
          const bone = [to[0] - from[0], to[1] - from[1], to[2] - from[2]] as Vec3;
          expect(dot(along, bone) / distance(from, to), OPENXR_JOINTS[j]).toBeGreaterThan(1 - 1e-5);
        }
      }
      for (let j = 0; j < JOINT_COUNT; j++) {
        expect(hand.radii[j]).toBeGreaterThan(0);
        const q = orientation(hand, j);
        expect(Math.hypot(...q)).toBeCloseTo(1, 5);
      }
      // The palm sits halfway along the middle metacarpal.
      const mid = position(hand, J.MiddleMetacarpal).map((v, i) => (v + position(hand, J.MiddleProximal)[i]) / 2) as Vec3;
      expect(distance(position(hand, J.Palm), mid)).toBeLessThan(EPS);
    });

    it('+Y points out of the back of an open hand facing down, −Z toward the fingertips', () => {
      const hand = poseHand(model, resolvePose('open', model), side, [0, 1, 0, 0, 0, 0, 1]);
      for (let j = 0; j < JOINT_COUNT; j++) {
        if (j >= J.ThumbMetacarpal && j <= J.ThumbTip) continue; // the thumb is rolled toward the fingers
        expect(rotateVec(orientation(hand, j), [0, 1, 0])[1], OPENXR_JOINTS[j]).toBeGreaterThan(0.95);
      }
      expect(position(hand, J.MiddleTip)[2]).toBeLessThan(position(hand, J.Wrist)[2] - 0.12);
      // Thumb on the inside: −X of a right hand, +X of a left.
      expect(Math.sign(position(hand, J.ThumbTip)[0])).toBe(side === 'right' ? -1 : 1);
    });
  });

  it('the left hand mirrors the right, exactly, in every pose', () => {
    const identity = [0, 0, 0, 0, 0, 0, 1];
    for (const { name, diameter } of POSES) {
      const pose = resolvePose(name, model, { diameter });
      const right = poseHand(model, pose, 'right', identity);
      const left = poseHand(model, pose, 'left', identity);
      // Bit-exact mirror (with +0 and −0 counted equal).
      const z = (v: number[]) => v.map((x) => x + 0);
      for (let j = 0; j < JOINT_COUNT; j++) {
        const [rx, ry, rz] = position(right, j);
        expect(z(position(left, j))).toEqual(z([-rx, ry, rz]));
        const [qx, qy, qz, qw] = orientation(right, j);
        expect(z(orientation(left, j))).toEqual(z([qx, -qy, -qz, qw]));
      }
    }
  });
});

describe('WebXR joints', () => {
  it('are the OpenXR joints without the palm, index − 1, "little" as "pinky"', () => {
    expect(WEBXR_JOINTS).toHaveLength(25);
    expect(WEBXR_JOINTS[webxrIndex(J.Wrist)]).toBe('wrist');
    expect(WEBXR_JOINTS[webxrIndex(J.ThumbProximal)]).toBe('thumb-phalanx-proximal');
    expect(WEBXR_JOINTS[webxrIndex(J.IndexTip)]).toBe('index-finger-tip');
    expect(WEBXR_JOINTS[webxrIndex(J.LittleTip)]).toBe('pinky-finger-tip');
    expect(WEBXR_JOINTS[webxrIndex(J.MiddleProximal + 1)]).toBe('middle-finger-phalanx-intermediate');
  });
});
