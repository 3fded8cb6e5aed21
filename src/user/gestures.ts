/**
 * The quantities real gesture detectors measure on a tracked hand, and detectors built from them in the
 * style of three.js (pinch by thumb-to-index distance) and XR Blocks (fingertip-to-palm distances, finger
 * straightness, thumb direction against world up). Tests use them to prove the simulated hands are
 * accepted by detectors like these; they also serve validators.
 */
import { DIGIT_BASES, DIGIT_LENGTHS, J } from '../../kernels/hand-fk.js';

/** Per-hand features. Distances in metres. */
export interface HandFeatures {
  /** Thumb tip to index tip. */
  pinchDistance: number;
  /** Per finger (index, middle, ring, little): tip to palm joint. */
  tipToPalm: [number, number, number, number];
  /** Per finger: knuckle-to-tip distance over the summed phalanx lengths (1 = straight). */
  straightness: [number, number, number, number];
  /** Thumb MCP-to-tip distance over its summed phalanx lengths. */
  thumbStraightness: number;
  /** Unit vector from the thumb's MCP joint to its tip, world frame. */
  thumbDirection: [number, number, number];
}

/** Criteria of {@link classifyGesture}, after XR Blocks' heuristics, relative to hand length. */
export const GESTURE_CRITERIA = {
  /** A finger is extended when its straightness is at least this. */
  extendedStraightness: 0.9,
  /** A finger is curled when its tip is within this fraction of the hand length from the palm joint. */
  curledTipToPalm: 0.4,
  /** The thumb is extended when its straightness is at least this. */
  thumbExtendedStraightness: 0.95,
  /** Thumbs up/down: the thumb direction's dot product with world ±Y is at least this. */
  thumbVertical: 0.7,
  /** three.js WebXRController: pinch starts at or below this thumb-index distance… */
  pinchStart: 0.015,
  /** …and ends above this one. */
  pinchEnd: 0.025,
} as const;

/** Gestures {@link classifyGesture} recognises. */
export type Gesture = 'pinch' | 'fist' | 'point' | 'thumbs-up' | 'thumbs-down' | 'open' | 'none';

/** Features of one hand from its 26 world joint positions (3 floats each, OpenXR order). */
export function handFeatures(positions: ArrayLike<number>): HandFeatures {
  const p = (j: number) => [positions[j * 3], positions[j * 3 + 1], positions[j * 3 + 2]];
  const distance = (a: number, b: number) => {
    const u = p(a);
    const v = p(b);
    return Math.hypot(u[0] - v[0], u[1] - v[1], u[2] - v[2]);
  };
  const tipToPalm = [0, 0, 0, 0] as HandFeatures['tipToPalm'];
  const straightness = [0, 0, 0, 0] as HandFeatures['straightness'];
  for (let f = 0; f < 4; f++) {
    const proximal = DIGIT_BASES[f + 1] + 1;
    const tip = DIGIT_BASES[f + 1] + DIGIT_LENGTHS[f + 1] - 1;
    tipToPalm[f] = distance(tip, J.Palm);
    let path = 0;
    for (let j = proximal; j < tip; j++) path += distance(j, j + 1);
    straightness[f] = distance(proximal, tip) / path;
  }
  const thumbPath = distance(J.ThumbProximal, J.ThumbDistal) + distance(J.ThumbDistal, J.ThumbTip);
  const [tx, ty, tz] = p(J.ThumbTip);
  const [mx, my, mz] = p(J.ThumbProximal);
  const length = Math.hypot(tx - mx, ty - my, tz - mz);
  return {
    pinchDistance: distance(J.ThumbTip, J.IndexTip),
    tipToPalm,
    straightness,
    thumbStraightness: length / thumbPath,
    thumbDirection: [(tx - mx) / length, (ty - my) / length, (tz - mz) / length],
  };
}

/** Classifies a hand's features, given its hand length (metres). */
export function classifyGesture(features: HandFeatures, handLength: number): Gesture {
  const c = GESTURE_CRITERIA;
  const curled = features.tipToPalm.map((d) => d <= c.curledTipToPalm * handLength);
  const extended = features.straightness.map((s) => s >= c.extendedStraightness);
  const thumbOut = features.thumbStraightness >= c.thumbExtendedStraightness;
  if (features.pinchDistance <= c.pinchStart) return 'pinch';
  if (curled.every(Boolean)) {
    if (thumbOut && features.thumbDirection[1] >= c.thumbVertical) return 'thumbs-up';
    if (thumbOut && features.thumbDirection[1] <= -c.thumbVertical) return 'thumbs-down';
    return 'fist';
  }
  if (extended[0] && curled[1] && curled[2] && curled[3]) return 'point';
  if (extended.every(Boolean)) return 'open';
  return 'none';
}
