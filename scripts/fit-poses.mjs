// Fits the contact-defined angles of the pose library (hand-models/poses.json) to anatomical targets, on the
// medium right hand (the sizes are uniform scalings of it and a left hand is its mirror, so the angles carry
// over). What each target means and where it comes from: hand-models/README.md. The pinch has its own fit
// (scripts/fit-pinch.mjs).
//
//   fist     the fingers close first: each fingertip's pulp rests on the palm's surface (1 mm off the skin),
//            well inside the palm's outline; then the thumb flexes over them, its pulp on the index finger's
//            middle phalanx, across the middle phalanges of the index and middle fingers.
//   point, poke, thumbs-up, thumbs-down, frame, victory
//            their curled fingers take the fingers' closure of the fist; the thumb of point rests on the middle
//            finger's middle phalanx, of poke lies across it, of victory across the ring and little fingers'.
//   open     the thumb lies in the palm plane, straight and radially abducted.
//
// Run after `npm run build`: node scripts/fit-poses.mjs [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import { createFkScratch, handLocalPoses } from '../dist/kernels/hand-fk.js';
import { loadHandModel } from '../dist/src/hand/hand-model.js';
import { anglesOf } from '../dist/src/hand/poses.js';
import { OPENXR_JOINTS } from '../dist/src/hand/joints.js';
import { coordinateDescent } from './coordinate-descent.mjs';

const FILE = new URL('../hand-models/poses.json', import.meta.url);
const library = JSON.parse(readFileSync(FILE, 'utf8'));
const model = loadHandModel('medium');
const local = createFkScratch();
const J = Object.fromEntries(OPENXR_JOINTS.map((name, i) => [name, i]));
const radius = (joint) => model.skeleton.radius[J[joint]];

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a) => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Joint positions of a pose (wrist frame, right hand) and its palm: surface point, outward normal, outline. */
function geometry(spec) {
  handLocalPoses(model.skeleton, anglesOf(spec, model), local);
  const at = (joint) => [local[J[joint] * 7], local[J[joint] * 7 + 1], local[J[joint] * 7 + 2]];
  const wrist = at('wrist');
  const normal = unit(cross(sub(at('index-proximal'), wrist), sub(at('little-proximal'), wrist)));
  const palm = at('palm');
  const surface = palm.map((v, i) => v + radius('palm') * normal[i]);
  const outline = ['wrist', 'index-metacarpal', 'index-proximal', 'middle-proximal', 'ring-proximal', 'little-proximal', 'little-metacarpal'].map(at);
  return { at, normal, surface, outline };
}

/** Signed distance of p's projection inside a convex polygon (in the plane with normal n); < 0 outside. */
function insideMargin(polygon, n, p) {
  let margin = Infinity;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i];
    const b = polygon[(i + 1) % polygon.length];
    const inward = unit(cross(n, sub(b, a)));
    margin = Math.min(margin, dot(sub(p, a), inward));
  }
  return margin;
}

/** Where the thumb tip lies relative to a band of middle phalanges: height above it and margin inside it. */
function overPhalanges(g, fingers) {
  const quad = [g.at(`${fingers[0]}-intermediate`), g.at(`${fingers[0]}-distal`), g.at(`${fingers[1]}-distal`), g.at(`${fingers[1]}-intermediate`)];
  let n = unit(cross(sub(quad[2], quad[0]), sub(quad[3], quad[1])));
  if (dot(n, g.normal) < 0) n = n.map((v) => -v);
  const centre = quad.reduce((s, p) => s.map((v, i) => v + p[i] / 4), [0, 0, 0]);
  const tip = g.at('thumb-tip');
  // Wind the quad so the inward normals point inside.
  const wound = dot(cross(sub(quad[1], quad[0]), sub(quad[2], quad[1])), n) > 0 ? quad : [...quad].reverse();
  return { height: dot(sub(tip, centre), n), margin: insideMargin(wound, n, tip) };
}

/** Distance from p to the segment a–b. */
function segmentDistance(p, a, b) {
  const ab = sub(b, a);
  const t = Math.max(0, Math.min(1, dot(sub(p, a), ab) / dot(ab, ab)));
  return Math.hypot(...sub(p, a.map((v, i) => v + t * ab[i])));
}

/** The angle between the bones a→b and b→c (flexion at b, abduction included), degrees. */
const bend = (g, a, b, c) => (Math.acos(Math.max(-1, Math.min(1, dot(unit(sub(g.at(b), g.at(a))), unit(sub(g.at(c), g.at(b))))))) * 180) / Math.PI;

const curledTips = (g, fingers, targetSkin = 0.001) =>
  fingers.reduce((c, f) => {
    const tip = g.at(`${f}-tip`);
    const skin = dot(sub(tip, g.surface), g.normal) - radius(`${f}-tip`);
    const wound = dot(cross(sub(g.outline[1], g.outline[0]), sub(g.outline[2], g.outline[1])), g.normal) > 0 ? g.outline : [...g.outline].reverse();
    return c + ((skin - targetSkin) * 300) ** 2 + Math.max(0, 0.004 - insideMargin(wound, g.normal, tip)) ** 2 * 1e5;
  }, 0);

const thumbOver = (g, fingers) => {
  const { height, margin } = overPhalanges(g, fingers);
  const touching = radius('thumb-tip') + radius(`${fingers[1]}-intermediate`);
  return ((height - touching) * 300) ** 2 + Math.max(0, 0.004 - margin) ** 2 * 1e5;
};

const pinchGap = (g) => Math.hypot(...sub(g.at('thumb-tip'), g.at('index-tip')));

// [joint, 0 flexion | 1 abduction, min, max, natural], degrees. Naturals: a full fist (MCP about 90°, PIP 100°,
// DIP 60-80°, reference §2: the middle of that, 70°); the ring and little fingers' flexion planes tilt ulnarly
// so the flexed fingers converge toward the scaphoid (Kapandji).
const THUMB_FREE = [
  ['thumb-metacarpal', 0, -15, 45, 20], ['thumb-metacarpal', 1, -15, 60, 0],
  ['thumb-proximal', 0, -10, 55, 30], ['thumb-proximal', 1, -10, 10, 0], ['thumb-distal', 0, -15, 80, 40],
];
const CURL_FREE = [
  ['index-proximal', 0, 0, 90, 88], ['index-intermediate', 0, 0, 100, 100], ['index-distal', 0, 0, 80, 70],
  ['middle-proximal', 0, 0, 90, 88], ['middle-intermediate', 0, 0, 100, 100], ['middle-distal', 0, 0, 80, 70],
  ['ring-metacarpal', 0, 0, 15, 10], ['ring-proximal', 0, 0, 90, 88], ['ring-proximal', 1, -20, 20, -5], ['ring-intermediate', 0, 0, 100, 100], ['ring-distal', 0, 0, 80, 70],
  ['little-metacarpal', 0, 0, 20, 15], ['little-proximal', 0, 0, 90, 88], ['little-proximal', 1, -20, 20, -10], ['little-intermediate', 0, 0, 100, 95], ['little-distal', 0, 0, 80, 70],
];

/** Fits `free` (starting from the natural values) to minimise `cost` plus a pull toward the natural values. */
function fit(spec, free, cost) {
  const withX = (x) => {
    const s = structuredClone(spec);
    free.forEach(([joint, axis], k) => {
      s.joints[joint] ??= [0, 0];
      s.joints[joint][axis] = x[k];
    });
    return s;
  };
  const total = (x) => cost(geometry(withX(x))) + 0.002 * free.reduce((s, f, k) => s + (x[k] - f[4]) ** 2, 0);
  const best = coordinateDescent(free, total, { minStep: 0.02, rounds: 400 });
  const rounded = withX(best.map((v) => Math.round(v * 10) / 10));
  return { spec: rounded, cost: total(best.map((v) => Math.round(v * 10) / 10)) };
}

const poses = library.poses;
const FINGERS = ['index', 'middle', 'ring', 'little'];
const report = [];

// The fist closes as a hand does ("the thumb is opposed and then flexed against the fingers", Gray's Anatomy):
// first the fingers, each fingertip's pulp onto the palm; then the thumb over them, flexed at its MCP and IP
// joints toward the ends of their ranges (55° and 80°), its pulp on the index finger's middle phalanx and
// across the index and middle fingers' middle phalanges, the two fingers giving way to it a little. Its tip
// stays well beyond every pinch detector's start distance from the index tip (the fit asks 4.2 cm of the
// medium hand).
const FIST_THUMB_FLEXION = { mcp: 50, ip: 55 };
const FIST_THUMB = [
  ['thumb-metacarpal', 0, -15, 45, 0], ['thumb-metacarpal', 1, -15, 60, 0],
  ['thumb-proximal', 0, -10, 55, FIST_THUMB_FLEXION.mcp], ['thumb-proximal', 1, -10, 10, 0], ['thumb-distal', 0, -15, 80, FIST_THUMB_FLEXION.ip],
];
const thumbFlexed = (g, { mcp, ip }) =>
  (Math.max(0, mcp - bend(g, 'thumb-metacarpal', 'thumb-proximal', 'thumb-distal')) ** 2 + Math.max(0, ip - bend(g, 'thumb-proximal', 'thumb-distal', 'thumb-tip')) ** 2) * 10;
const thumbOnIndex = (g) => {
  const gap = segmentDistance(g.at('thumb-tip'), g.at('index-intermediate'), g.at('index-distal')) - radius('thumb-tip') - radius('index-intermediate');
  return ((gap - 0.001) * 300) ** 2;
};
const fingersClosed = fit(poses.fist, CURL_FREE, (g) => curledTips(g, FINGERS));
// The index and middle fingers start where they closed and may give way to the thumb.
const givingWay = CURL_FREE.filter(([joint]) => /^(index|middle)-/.test(joint)).map(([joint, axis, min, max]) => [joint, axis, min, max, fingersClosed.spec.joints[joint][axis]]);
const fist = fit(fingersClosed.spec, [...FIST_THUMB, ...givingWay], (g) =>
  curledTips(g, FINGERS) + thumbOver(g, ['index', 'middle']) + thumbOnIndex(g) + thumbFlexed(g, FIST_THUMB_FLEXION) + Math.max(0, 0.042 - pinchGap(g)) ** 2 * 1e5,
);
poses.fist.joints = fist.spec.joints;
report.push(['fist', fist.cost]);

// The fingers' own closure (before the thumb presses on them), for the fingers each other pose curls.
const curlOf = (finger) => Object.fromEntries(Object.entries(fingersClosed.spec.joints).filter(([joint]) => joint.startsWith(`${finger}-`)));
const curled = { point: ['middle', 'ring', 'little'], poke: ['middle', 'ring', 'little'], 'thumbs-up': FINGERS, 'thumbs-down': FINGERS, frame: ['middle', 'ring', 'little'], victory: ['ring', 'little'] };
for (const [name, fingers] of Object.entries(curled)) {
  for (const finger of fingers) {
    for (const joint of Object.keys(poses[name].joints)) if (joint.startsWith(`${finger}-`)) delete poses[name].joints[joint];
    Object.assign(poses[name].joints, curlOf(finger));
  }
}

// Thumbs that rest on the curled fingers.
const restsOnMiddle = (g) => {
  const gap = segmentDistance(g.at('thumb-tip'), g.at('middle-intermediate'), g.at('middle-distal')) - radius('thumb-tip') - radius('middle-intermediate');
  return ((gap - 0.001) * 300) ** 2;
};
for (const [name, cost] of [
  ['point', (g) => restsOnMiddle(g) + Math.max(0, 0.06 - pinchGap(g)) ** 2 * 1e5],
  ['poke', (g) => thumbOver(g, ['middle', 'ring']) + Math.max(0, 0.055 - pinchGap(g)) ** 2 * 1e5],
  ['victory', (g) => thumbOver(g, ['ring', 'little'])],
]) {
  const result = fit(poses[name], THUMB_FREE, cost);
  poses[name].joints = result.spec.joints;
  report.push([name, result.cost]);
}

// The open hand's thumb: straight (MCP and IP under 8°), in the palm plane with the fingers (its MCP-to-tip and
// CMC-to-tip directions within 2°), and radially abducted from the index finger within that plane (aiming for
// 42°: with the captured thumb's joint axes, about 41° is as far as it goes in the plane).
const OPEN_THUMB_SPREAD = 42;
const openThumb = fit(
  poses.open,
  [['thumb-metacarpal', 0, -15, 45, -10], ['thumb-metacarpal', 1, -15, 60, 0], ['thumb-proximal', 0, -10, 55, -5], ['thumb-proximal', 1, -10, 10, 0], ['thumb-distal', 0, -15, 80, -5]],
  (g) => {
    const elevation = (from) => (Math.asin(dot(unit(sub(g.at('thumb-tip'), g.at(from))), g.normal)) * 180) / Math.PI;
    const flat = (v) => unit(sub(v, g.normal.map((n) => n * dot(v, g.normal))));
    const spread = (Math.acos(dot(flat(sub(g.at('thumb-tip'), g.at('thumb-proximal'))), flat(sub(g.at('index-tip'), g.at('index-proximal'))))) * 180) / Math.PI;
    const straight = Math.max(0, bend(g, 'thumb-metacarpal', 'thumb-proximal', 'thumb-distal') - 8) ** 2 + Math.max(0, bend(g, 'thumb-proximal', 'thumb-distal', 'thumb-tip') - 8) ** 2;
    return (Math.max(0, Math.abs(elevation('thumb-proximal')) - 2) ** 2 + Math.max(0, Math.abs(elevation('thumb-metacarpal')) - 2) ** 2 + Math.max(0, OPEN_THUMB_SPREAD - spread) ** 2 + straight) * 10;
  },
);
poses.open.joints = openThumb.spec.joints;
report.push(['open', openThumb.cost]);

for (const [name, cost] of report) console.log(`${name.padEnd(8)} residual ${cost.toFixed(4)}  ${JSON.stringify(poses[name].joints)}`);
if (process.argv.includes('--write')) {
  // Joints in OpenXR order, one [flexion, abduction] pair a line.
  for (const pose of Object.values(poses)) {
    pose.joints = Object.fromEntries(OPENXR_JOINTS.filter((joint) => pose.joints[joint]).map((joint) => [joint, pose.joints[joint]]));
  }
  const text = JSON.stringify(library, null, 2).replace(/\[\n\s+(-?[\d.]+),\n\s+(-?[\d.]+)\n\s+\]/g, '[$1, $2]');
  writeFileSync(FILE, `${text}\n`);
  console.log('wrote hand-models/poses.json');
}
