// Fits the thumb and index angles of the `pinch` pose: the thumb tip meets the index tip 2 mm apart (the
// captured Quest pinch), angles staying within the joint limits and near natural values. The support fingers
// are fixed as in hand-models/poses.json. Run after `npm run build`: node scripts/fit-pinch.mjs
import { createFkScratch, handLocalPoses, J } from '../dist/kernels/hand-fk.js';
import { loadHandModel } from '../dist/src/hand/hand-model.js';
import { anglesOf, poseLibrary } from '../dist/src/hand/poses.js';
import { coordinateDescent } from './coordinate-descent.mjs';

const model = loadHandModel('medium');
const pinch = poseLibrary().pinch;
// [joint, angle index (0 flexion, 1 abduction), min, max, natural value], degrees.
const free = [
  ['thumb-metacarpal', 0, -15, 45, 15], ['thumb-metacarpal', 1, -15, 60, 0],
  ['thumb-proximal', 0, -10, 55, 15], ['thumb-proximal', 1, -10, 10, 0], ['thumb-distal', 0, -15, 80, 25],
  ['index-proximal', 0, 0, 90, 50], ['index-intermediate', 0, 0, 100, 55], ['index-distal', 0, 0, 80, 20],
];
const TARGET = 0.002;
const local = createFkScratch();
const withFree = (x) => {
  const spec = structuredClone(pinch);
  free.forEach(([joint, axis], k) => {
    spec.joints[joint] ??= [0, 0];
    spec.joints[joint][axis] = x[k];
  });
  return spec;
};
const gap = (x) => {
  handLocalPoses(model.skeleton, anglesOf(withFree(x), model), local);
  const a = J.ThumbTip * 7;
  const b = J.IndexTip * 7;
  return Math.hypot(local[a] - local[b], local[a + 1] - local[b + 1], local[a + 2] - local[b + 2]);
};
const cost = (x) => ((gap(x) - TARGET) * 1000) ** 2 + 0.002 * free.reduce((s, f, k) => s + (x[k] - f[4]) ** 2, 0);

const best = coordinateDescent(free, cost);
const rounded = best.map((v) => Math.round(v * 10) / 10);
console.log(JSON.stringify(withFree(rounded).joints));
console.log(`thumb tip to index tip: ${(gap(rounded) * 1000).toFixed(2)} mm (medium hand)`);
