/**
 * The simulated hands are accepted by the gesture detectors real software uses (reference §3).
 */
import { describe, expect, it } from 'vitest';
import { J } from '../kernels/hand-fk.js';
import { HAND_JOINT_FLOATS } from '../src/frame/layout.js';
import { classifyGesture, GESTURE_CRITERIA, handFeatures } from '../src/user/gestures.js';
import { loadHandModel } from '../src/hand/hand-model.js';
import { defaultWristPose, poseHand } from '../src/user/posed-hand.js';
import { resolvePose } from '../src/hand/poses.js';
import { benchSession, stepFor } from './helpers/user.js';

const SIZES = ['small', 'medium', 'large'];
const SIDES = ['left', 'right'] as const;

/** Features of a pose at its default wrist placement (which turns thumbs-up thumbs up). */
function features(size: string, side: 'left' | 'right', pose: string) {
  const model = loadHandModel(size);
  const resolved = resolvePose(pose, model);
  const hand = poseHand(model, resolved, side, defaultWristPose(model, side, resolved));
  return { f: handFeatures(hand.positions), handLength: model.spec.handLength };
}

describe.each(SIZES)('%s hand', (size) => {
  describe.each(SIDES)('%s', (side) => {
    it('pinch closes thumb tip to index tip within 15 mm (three.js pinchstart), in fact within 5 mm', () => {
      const { f } = features(size, side, 'pinch');
      expect(f.pinchDistance).toBeLessThanOrEqual(0.005);
    });

    it('open, relaxed and point keep thumb and index at least 5 cm apart (beyond every exit threshold), fist at least 3 cm (beyond every start threshold: its thumb lies on the index finger)', () => {
      for (const pose of ['open', 'relaxed', 'point']) expect(features(size, side, pose).f.pinchDistance, pose).toBeGreaterThanOrEqual(0.05);
      expect(features(size, side, 'fist').f.pinchDistance).toBeGreaterThanOrEqual(0.03);
    });

    it('fist: every fingertip within 0.4 × hand length of the palm; the thumb not extended', () => {
      const { f, handLength } = features(size, side, 'fist');
      for (const d of f.tipToPalm) expect(d).toBeLessThanOrEqual(GESTURE_CRITERIA.curledTipToPalm * handLength);
      expect(f.thumbStraightness).toBeLessThan(GESTURE_CRITERIA.thumbExtendedStraightness);
      expect(classifyGesture(f, handLength)).toBe('fist');
    });

    it('point: index straightness ≥ 0.9; middle, ring and little tips within 0.4 × hand length of the palm', () => {
      const { f, handLength } = features(size, side, 'point');
      expect(f.straightness[0]).toBeGreaterThanOrEqual(GESTURE_CRITERIA.extendedStraightness);
      for (const d of f.tipToPalm.slice(1)) expect(d).toBeLessThanOrEqual(GESTURE_CRITERIA.curledTipToPalm * handLength);
      expect(classifyGesture(f, handLength)).toBe('point');
    });

    it('thumbs-up / thumbs-down: fingers curled, thumb straightness ≥ 0.95, thumb direction · world ±Y ≥ 0.7', () => {
      for (const [pose, sign] of [['thumbs-up', 1], ['thumbs-down', -1]] as const) {
        const { f, handLength } = features(size, side, pose);
        for (const d of f.tipToPalm) expect(d).toBeLessThanOrEqual(GESTURE_CRITERIA.curledTipToPalm * handLength);
        expect(f.thumbStraightness).toBeGreaterThanOrEqual(GESTURE_CRITERIA.thumbExtendedStraightness);
        expect(sign * f.thumbDirection[1]).toBeGreaterThanOrEqual(GESTURE_CRITERIA.thumbVertical);
        expect(classifyGesture(f, handLength)).toBe(pose);
      }
    });
  });
});

describe('a pinch-then-release sequence in a session', () => {
  it.each(SIDES)('crosses three.js’s pinchstart (≤ 0.015 m) and pinchend (> 0.025 m) exactly once each (%s hand)', async (side) => {
    const session = await benchSession({ dominantHand: side });
    const hand = session.user.hand('dominant');
    const distances: number[] = [];
    const record = () => {
      const channel = session.frame.channel(`hand-${side}`)!;
      const at = (j: number) => [0, 1, 2].map((k) => channel[j * HAND_JOINT_FLOATS + k]);
      const [a, b] = [at(J.ThumbTip), at(J.IndexTip)];
      distances.push(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    };
    stepFor(session, 0.2, record);
    hand.pinch(1, { duration: 0.3 });
    stepFor(session, 0.5, record);
    hand.release({ duration: 0.3 });
    stepFor(session, 0.5, record);
    session.dispose();

    // three.js WebXRController's rule, with its hysteresis.
    let pinching = false;
    let starts = 0;
    let ends = 0;
    for (const d of distances) {
      if (!pinching && d <= GESTURE_CRITERIA.pinchStart) {
        pinching = true;
        starts++;
      } else if (pinching && d > GESTURE_CRITERIA.pinchEnd) {
        pinching = false;
        ends++;
      }
    }
    expect({ starts, ends }).toEqual({ starts: 1, ends: 1 });
    // And no chatter at all: each threshold is crossed once going in and once coming out.
    const crossings = (threshold: number) => distances.slice(1).filter((d, i) => (d <= threshold) !== (distances[i] <= threshold)).length;
    expect(crossings(GESTURE_CRITERIA.pinchStart)).toBe(2);
    expect(crossings(GESTURE_CRITERIA.pinchEnd)).toBe(2);
    expect(Math.min(...distances)).toBeLessThanOrEqual(0.005);
    expect(distances[0]).toBeGreaterThan(0.05);
    expect(distances[distances.length - 1]).toBeGreaterThan(0.05);
  });
});
