/**
 * Anatomical measurements of a posed hand, from its joint positions and radii only (OpenXR order), as a hand
 * surgeon or an anthropometric study would take them: how far each fingertip is from the palm's surface and
 * whether it lies over the palm, the flexion at each joint, how a finger lies against the palm plane, and where
 * the thumb's tip rests. Nothing here reads joint angles or our gesture classifier; the pose tests compare
 * these numbers with the targets in hand-models/README.md.
 */
import { OPENXR_JOINTS, type JointName } from '../../src/hand/joints.js';

export type Vec = [number, number, number];
export type Finger = 'index' | 'middle' | 'ring' | 'little';
export const FINGERS: Finger[] = ['index', 'middle', 'ring', 'little'];

const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec, k: number): Vec => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = (a: Vec) => Math.hypot(a[0], a[1], a[2]);
const unit = (a: Vec): Vec => scale(a, 1 / length(a));
const degrees = (radians: number) => (radians * 180) / Math.PI;
/** Angle between two directions, degrees. */
export const angleBetween = (a: Vec, b: Vec) => degrees(Math.acos(Math.max(-1, Math.min(1, dot(unit(a), unit(b))))));

/** A hand as a tracker reports it: 26 joint positions (3 floats each), orientations (4 each) and radii, and which hand it is. */
export interface MeasuredHand {
  positions: ArrayLike<number>;
  orientations?: ArrayLike<number>;
  radii: ArrayLike<number>;
  side: 'left' | 'right';
}

/** Signed distance of `p` inside the convex polygon `polygon` lying in the plane with normal `n` (< 0: outside). */
function insideMargin(polygon: Vec[], n: Vec, p: Vec): number {
  // Wind the polygon counter-clockwise about n, so every edge's inward direction is n × edge.
  const turn = dot(cross(sub(polygon[1], polygon[0]), sub(polygon[2], polygon[1])), n);
  const loop = turn > 0 ? polygon : [...polygon].reverse();
  let margin = Infinity;
  for (let i = 0; i < loop.length; i++) {
    const a = loop[i];
    const inward = unit(cross(n, sub(loop[(i + 1) % loop.length], a)));
    margin = Math.min(margin, dot(sub(p, a), inward));
  }
  return margin;
}

/** Distance from `p` to the segment `a`–`b`. */
function segmentDistance(p: Vec, a: Vec, b: Vec): number {
  const ab = sub(b, a);
  const t = Math.max(0, Math.min(1, dot(sub(p, a), ab) / dot(ab, ab)));
  return length(sub(p, add(a, scale(ab, t))));
}

/** Anatomical measurements of one hand. Distances in metres, angles in degrees. */
export class HandAnatomy {
  /** Unit normal of the palm plane (through the wrist and the index and little knuckles), out of the palm. */
  readonly palmNormal: Vec;
  /** A point on the palm's skin: the palm joint moved out along the normal by its radius. */
  readonly palmSurface: Vec;

  constructor(private readonly hand: MeasuredHand) {
    const wrist = this.at('wrist');
    const normal = unit(cross(sub(this.at('index-proximal'), wrist), sub(this.at('little-proximal'), wrist)));
    // For a right hand (thumb toward −X, fingers −Z) that cross product points out of the palm; a left hand mirrors it.
    this.palmNormal = hand.side === 'right' ? normal : scale(normal, -1);
    this.palmSurface = add(this.at('palm'), scale(this.palmNormal, this.radius('palm')));
  }

  at(joint: JointName): Vec {
    const j = OPENXR_JOINTS.indexOf(joint);
    return [this.hand.positions[j * 3], this.hand.positions[j * 3 + 1], this.hand.positions[j * 3 + 2]];
  }

  radius(joint: JointName): number {
    return this.hand.radii[OPENXR_JOINTS.indexOf(joint)];
  }

  /** The palm's breadth across the knuckles, skin to skin (the anthropometric hand breadth). */
  palmWidth(): number {
    return length(sub(this.at('index-proximal'), this.at('little-proximal'))) + this.radius('index-proximal') + this.radius('little-proximal');
  }

  /** From a digit's tip to the palm's centre (the palm joint: the middle of the middle metacarpal), centre to centre. */
  tipToPalmCentre(digit: Finger | 'thumb'): number {
    return length(sub(this.at(`${digit}-tip`), this.at('palm')));
  }

  /**
   * The palm normal the tracker reports: the palm joint's −Y axis (OpenXR: +Y points out of the back of the
   * hand). Needs the orientations.
   */
  reportedPalmNormal(): Vec {
    const q = this.hand.orientations;
    if (!q) throw new Error('the hand has no orientations');
    const j = OPENXR_JOINTS.indexOf('palm') * 4;
    const [x, y, z, w] = [q[j], q[j + 1], q[j + 2], q[j + 3]];
    // −(the rotation's Y axis)
    return [-2 * (x * y - w * z), -(1 - 2 * (x * x + z * z)), -2 * (y * z + w * x)];
  }

  /** Angle of the thumb's whole length (CMC to tip) out of the palm plane: + toward the palm side. */
  thumbElevationFromCmc(): number {
    return degrees(Math.asin(dot(unit(sub(this.at('thumb-tip'), this.at('thumb-metacarpal'))), this.palmNormal)));
  }

  /** How far a fingertip's pulp (its skin toward the palm) stands off the palm's skin; negative: sunk into it. */
  tipSkinToPalm(finger: Finger | 'thumb'): number {
    return this.heightAbovePalm(`${finger}-tip`) - this.radius(`${finger}-tip`);
  }

  /** Height of a joint's centre above the palm's surface, along the palm normal. */
  heightAbovePalm(joint: JointName): number {
    return dot(sub(this.at(joint), this.palmSurface), this.palmNormal);
  }

  /**
   * How far inside the palm's outline a fingertip projects onto the palm plane (negative: outside). The outline
   * joins the wrist, the index and little metacarpal bases and the four knuckles.
   */
  tipInsidePalmOutline(finger: Finger | 'thumb'): number {
    const outline = (['wrist', 'index-metacarpal', 'index-proximal', 'middle-proximal', 'ring-proximal', 'little-proximal', 'little-metacarpal'] as const).map((j) => this.project(this.at(j)));
    return insideMargin(outline, this.palmNormal, this.project(this.at(`${finger}-tip`)));
  }

  /** Flexion at a finger's MCP, PIP and DIP joints: the angle between successive bones. */
  fingerFlexion(finger: Finger): { mcp: number; pip: number; dip: number } {
    const [m, p, i, d, t] = (['metacarpal', 'proximal', 'intermediate', 'distal', 'tip'] as const).map((part) => this.at(`${finger}-${part}`));
    // The MCP also abducts; flexion is the part of the bend out of the palm plane's direction.
    const metacarpal = sub(p, m);
    const proximal = sub(i, p);
    const sideways = unit(cross(this.palmNormal, metacarpal));
    const mcp = angleBetween(metacarpal, sub(proximal, scale(sideways, dot(proximal, sideways))));
    return { mcp, pip: angleBetween(proximal, sub(d, i)), dip: angleBetween(sub(d, i), sub(t, d)) };
  }

  /** Flexion at the thumb's MCP and IP joints. */
  thumbFlexion(): { mcp: number; ip: number } {
    const [c, m, i, t] = (['thumb-metacarpal', 'thumb-proximal', 'thumb-distal', 'thumb-tip'] as const).map((j) => this.at(j));
    return { mcp: angleBetween(sub(m, c), sub(i, m)), ip: angleBetween(sub(i, m), sub(t, i)) };
  }

  /** Direction of a digit from its knuckle (the thumb: its MCP) to its tip. */
  direction(digit: Finger | 'thumb'): Vec {
    const base = digit === 'thumb' ? this.at('thumb-proximal') : this.at(`${digit}-proximal`);
    return unit(sub(this.at(`${digit}-tip`), base));
  }

  /** Angle of a digit (knuckle to tip) out of the palm plane: + toward the palm side. */
  elevationFromPalmPlane(digit: Finger | 'thumb'): number {
    return degrees(Math.asin(dot(this.direction(digit), this.palmNormal)));
  }

  /** Angle between two digits' directions seen in the palm plane. */
  spread(a: Finger | 'thumb', b: Finger | 'thumb'): number {
    const flat = (v: Vec) => sub(v, scale(this.palmNormal, dot(v, this.palmNormal)));
    return angleBetween(flat(this.direction(a)), flat(this.direction(b)));
  }

  /**
   * Where the thumb's tip lies over the middle phalanges of two adjacent fingers (the band from one finger's
   * PIP and DIP joints to the other's): `over` is its height above that band, out of the fist; `inside` how far
   * its projection lies inside the band (negative: beside it); `skinGap` the gap between the thumb pulp and the
   * nearer middle phalanx's skin.
   */
  thumbOverMiddlePhalanges(a: Finger, b: Finger): { over: number; inside: number; skinGap: number } {
    const band = [this.at(`${a}-intermediate`), this.at(`${a}-distal`), this.at(`${b}-distal`), this.at(`${b}-intermediate`)];
    let n = unit(cross(sub(band[2], band[0]), sub(band[3], band[1])));
    if (dot(n, this.palmNormal) < 0) n = scale(n, -1);
    const centre = scale(band.reduce(add), 0.25);
    const tip = this.at('thumb-tip');
    const onBand = sub(tip, scale(n, dot(sub(tip, centre), n)));
    return { over: dot(sub(tip, centre), n), inside: insideMargin(band, n, onBand), skinGap: Math.min(this.thumbGapToMiddlePhalanx(a), this.thumbGapToMiddlePhalanx(b)) };
  }

  /** Gap between the thumb tip's skin and the skin of a finger's middle phalanx (negative: overlapping). */
  thumbGapToMiddlePhalanx(finger: Finger): number {
    const d = segmentDistance(this.at('thumb-tip'), this.at(`${finger}-intermediate`), this.at(`${finger}-distal`));
    return d - this.radius('thumb-tip') - this.radius(`${finger}-intermediate`);
  }

  /** Index tip to the nearest of the thumb's bones (CMC to MCP, MCP to IP, IP to tip), centre to centre: what Meta's pinch measures. */
  indexTipToThumbBones(): number {
    const tip = this.at('index-tip');
    const [c, m, i, t] = (['thumb-metacarpal', 'thumb-proximal', 'thumb-distal', 'thumb-tip'] as const).map((j) => this.at(j));
    return Math.min(segmentDistance(tip, c, m), segmentDistance(tip, m, i), segmentDistance(tip, i, t));
  }

  /** Thumb tip to index tip, centre to centre (what pinch detectors measure). */
  pinchDistance(): number {
    return length(sub(this.at('thumb-tip'), this.at('index-tip')));
  }

  private project(p: Vec): Vec {
    return sub(p, scale(this.palmNormal, dot(sub(p, this.palmSurface), this.palmNormal)));
  }
}
