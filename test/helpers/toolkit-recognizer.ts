/**
 * A hand-gesture recognizer of the kind WebXR toolkits ship (XR Blocks' heuristics, MRTK's and Meta's hand
 * poses work the same way), written for the tests from the 25 WebXR joints alone: it never sees our joint
 * angles, our palm joint or our own classifier. Each gesture gets a confidence in [0, 1] from four cues:
 *
 * - finger curl: the summed bends at a finger's MCP, PIP and DIP joints;
 * - fingertip-to-palm distance, relative to the palm's length (wrist to middle knuckle);
 * - thumb opposition: where the thumb's tip is (on the index tip for a pinch, wrapped over the middle
 *   phalanges of the index and middle fingers for a fist, up or down in the world for thumbs up / down);
 * - alignment with the palm plane (an open or pointing finger lies along it).
 *
 * Scales are the palm's own (length and width), so the same constants serve every hand size. A toolkit fires
 * a gesture at 0.6 confidence (XR Blocks' default threshold).
 */
export type Vec = [number, number, number];
export type ToolkitGesture = 'fist' | 'open-palm' | 'point' | 'pinch' | 'thumbs-up' | 'thumbs-down';
export const TOOLKIT_THRESHOLD = 0.6;

const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = (a: Vec) => Math.hypot(a[0], a[1], a[2]);
const unit = (a: Vec): Vec => {
  const l = length(a);
  return [a[0] / l, a[1] / l, a[2] / l];
};
const clamp01 = (x: number) => Math.max(0, Math.min(1, x));
/** 0 at `none`, 1 at `full`, linear between (either direction). */
const ramp = (x: number, none: number, full: number) => clamp01((x - none) / (full - none));
const bend = (a: Vec, b: Vec, c: Vec) => (Math.acos(Math.max(-1, Math.min(1, dot(unit(sub(b, a)), unit(sub(c, b)))))) * 180) / Math.PI;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function segmentDistance(p: Vec, a: Vec, b: Vec): number {
  const ab = sub(b, a);
  const t = Math.max(0, Math.min(1, dot(sub(p, a), ab) / dot(ab, ab)));
  return length(sub(p, [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]]));
}

const FINGERS = ['index', 'middle', 'ring', 'pinky'] as const;
type FingerName = (typeof FINGERS)[number];

/** Scores every gesture for one hand: `joints` maps WebXR joint names to world positions. */
export function scoreToolkitGestures(joints: Map<string, Vec>, handedness: 'left' | 'right'): Record<ToolkitGesture, number> {
  const j = (name: string) => {
    const p = joints.get(name);
    if (!p) throw new Error(`missing joint ${name}`);
    return p;
  };
  const part = (finger: FingerName, which: string) => j(which === 'metacarpal' || which === 'tip' ? `${finger}-finger-${which}` : `${finger}-finger-phalanx-${which}`);
  const wrist = j('wrist');
  const indexKnuckle = part('index', 'proximal');
  const pinkyKnuckle = part('pinky', 'proximal');
  const middleKnuckle = part('middle', 'proximal');
  const palmLength = length(sub(middleKnuckle, wrist));
  const palmWidth = length(sub(indexKnuckle, pinkyKnuckle));
  // Palm centre: between the wrist and the middle knuckle. Normal out of the palm (mirrored for a left hand).
  const palmCentre: Vec = [(wrist[0] + middleKnuckle[0]) / 2, (wrist[1] + middleKnuckle[1]) / 2, (wrist[2] + middleKnuckle[2]) / 2];
  const crossed = unit(cross(sub(indexKnuckle, wrist), sub(pinkyKnuckle, wrist)));
  const palmNormal: Vec = handedness === 'right' ? crossed : [-crossed[0], -crossed[1], -crossed[2]];

  const finger = (f: FingerName) => {
    const [m, p, i, d, t] = ['metacarpal', 'proximal', 'intermediate', 'distal', 'tip'].map((w) => part(f, w));
    const curl = clamp01((bend(m, p, i) + bend(p, i, d) + bend(i, d, t)) / 200);
    const tipToPalm = length(sub(t, palmCentre)) / palmLength;
    const out = Math.abs(dot(unit(sub(t, p)), palmNormal));
    return { curl, tipToPalm, aligned: 1 - ramp(out, Math.sin((10 * Math.PI) / 180), Math.sin((30 * Math.PI) / 180)) };
  };
  const fingers = Object.fromEntries(FINGERS.map((f) => [f, finger(f)])) as Record<FingerName, ReturnType<typeof finger>>;
  const curled = (f: FingerName) => mean([ramp(fingers[f].curl, 0.5, 0.9), ramp(fingers[f].tipToPalm, 1.1, 0.7)]);
  const extended = (f: FingerName) => mean([ramp(fingers[f].curl, 0.35, 0.1), ramp(fingers[f].tipToPalm, 0.9, 1.15), fingers[f].aligned]);

  const thumbTip = j('thumb-tip');
  const thumbMcp = j('thumb-phalanx-proximal');
  const thumbPath = length(sub(j('thumb-phalanx-distal'), thumbMcp)) + length(sub(thumbTip, j('thumb-phalanx-distal')));
  const thumbStraight = ramp(length(sub(thumbTip, thumbMcp)) / thumbPath, 0.9, 0.98);
  const thumbUp = dot(unit(sub(thumbTip, thumbMcp)), [0, 1, 0]);
  // Wrapped: the thumb pulp on the index or middle finger's middle phalanx (a finger's width away at most).
  const wrapGap = Math.min(
    segmentDistance(thumbTip, part('index', 'intermediate'), part('index', 'distal')),
    segmentDistance(thumbTip, part('middle', 'intermediate'), part('middle', 'distal')),
  );
  const thumbWrapped = ramp(wrapGap / palmWidth, 0.6, 0.3);
  const pinchDistance = length(sub(thumbTip, part('index', 'tip')));
  const pinchThreshold = Math.max(0.025, 0.32 * palmWidth);
  const support = mean(['middle', 'ring', 'pinky'].map((f) => ramp(fingers[f as FingerName].curl, 0.1, 0.35)));
  // Every finger must curl for a fist (as Meta's and MRTK's per-finger shape rules require): the weakest decides.
  const allCurled = Math.min(...FINGERS.map(curled));
  // Thumbs up / down: a straight thumb standing clear of the fist, pointing along world ±Y.
  const thumbExtended = thumbStraight * (1 - thumbWrapped);

  return {
    // A fist closes the thumb too: a thumb standing out (a thumbs-up) leaves a weak fist.
    fist: allCurled * (0.4 + 0.6 * thumbWrapped),
    'open-palm': mean(FINGERS.map(extended)) * (0.5 + 0.5 * thumbStraight) * ramp(pinchDistance / palmWidth, 0.8, 1.2),
    point: 0.5 * extended('index') + 0.5 * mean((['middle', 'ring', 'pinky'] as const).map(curled)),
    // Full at 1.5 cm or closer, none beyond the threshold's reach; extended support fingers lower it.
    pinch: ramp(pinchDistance, pinchThreshold + 0.02, 0.015) * (0.6 + 0.4 * support),
    'thumbs-up': 0.5 * allCurled + 0.5 * thumbExtended * ramp(thumbUp, 0.5, 0.85),
    'thumbs-down': 0.5 * allCurled + 0.5 * thumbExtended * ramp(-thumbUp, 0.5, 0.85),
  };
}
