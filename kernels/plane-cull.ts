/**
 * Plane detection's pass over only the parts of a depth frame that can still change it.
 *
 * A lattice pixel changes plane detection only when it shows an observed plane's face and lands in a cell
 * not yet seen. Most pixels of a room already looked at land in seen cells, so the lattice is cut into
 * tiles, halved again and again, and a tile is dropped for a plane as soon as it is proven that no pixel of
 * that plane's face in it can land in an unseen cell; tiles with no plane left are not read at all. What the
 * pass marks is exactly what the whole pass (`observeLattice`) marks.
 *
 * The proof for one tile and plane. The tile's pixel rays (rx, ry, −1) lie in the box of rays its corner
 * pixels span (the ray tables' own values); those that can show the face also lie in the plane's box of
 * rays ({@link planeReach}: the rays meeting its grid, widened by CELL_MARGIN, at a depth the pass
 * observes, since the rasterizer fills only pixels whose centres lie on the face), so the tile's box is
 * cut down to that. If the face is turned away, or the cut box is empty, or all four of its corner rays
 * meet the plane behind the camera, the tile shows no pixel of the face. If all four meet it in front, so
 * does every ray between them, and the points they meet are convex combinations of the four corners'
 * points; plane coordinates are affine, so each pixel's exact cell coordinates lie in the corners' bounding
 * box. A pixel's computed coordinates differ from the exact ones only by the rounding of its float32
 * depth (relative 2⁻²⁴: a ten-thousandth of a cell at 65 m) and of float64 sums, which CELL_MARGIN covers
 * many times over. A box outside the grid holds no pixel of the face; a box whose cells have all been seen
 * holds no pixel that can mark anything. A tile whose corner rays meet the plane on both sides of the
 * camera (it sees the plane's horizon) proves nothing and is halved.
 *
 * The leaf tiles to read, each with the planes it is read for, go to the asm.js kernel in batches
 * (`plane-observe-asm.ts`).
 */
import { PLANE_COEFFICIENTS, PLANE_FACING, seenBitsWords, type LatticeFrame, type PlaneGrids } from './plane-observe.js';
import { EVERY_PLANE, type ObservationHeap } from './plane-observe-asm.js';

/** A tile of at most this many lattice columns and rows is read rather than halved. */
export const LEAF_COLUMNS = 12;
export const LEAF_ROWS = 12;
/** Cells added on every side of a tile's box (see the file comment). */
export const CELL_MARGIN = 0.25;
/** |n · ray| below which a corner's ray counts as parallel to the plane (rounding of the normals is ~1e-15). */
const PARALLEL = 1e-9;
/**
 * The camera's distance (metres) from a face's plane, on its back side, beyond which the rasterizer surely
 * draws none of it (its own test is n · p < 0, rounded at ~1e-15); and on its front side, within which the
 * face is seen nearly edge-on and not bounded at all.
 */
const TURNED_AWAY = 1e-9;
const EDGE_ON = 1e-3;
/** Rays added on every side of a plane's box of rays (rounding there is ~1e-14). */
const RAY_SLACK = 1e-7;
/** Numbers per plane in `reach`. */
export const PLANE_REACH = 4;
/**
 * Where the lattice is sampled more sparsely than the grid (a few metres away), the cells between samples
 * stay unseen, every tile's box holds some, and nothing can be proven: testing tiles then costs more than
 * it saves. Once the tiles read in a frame come to more than this share of the lattice, the tiles left are
 * read untested, and the next frames take the whole pass, FIRST_BACKOFF of them, twice as many after each
 * further such frame (up to MAX_BACKOFF); a frame where culling paid resets that. Either way the same
 * cells are marked.
 */
const FUTILE_SHARE = 0.5;
const FIRST_BACKOFF = 2;
const MAX_BACKOFF = 64;
/** Numbers per tile on the stack: columns, rows, where its planes' list starts in the pool, and its length. */
const TILE_WORDS = 6;

/** Scratch for {@link observeLive}, sized by the first frames and then reused. */
export class LatticeCull {
  /** Tiles waiting to be tested, TILE_WORDS numbers each. */
  stack = new Int32Array(0);
  /** The planes still in play for the tiles on the path to the current one. */
  pool = new Int32Array(0);
  /** Frames still to be read whole, and how many the next futile frame sends there. */
  wholeFrames = 0;
  backoff = FIRST_BACKOFF;
  /** Work done (for tests and benchmarks): tile tests, lattice pixels in the tiles read, frames culled and read whole. */
  readonly counts = { tests: 0, pixelsRead: 0, culledFrames: 0, wholeFrames: 0 };

  /** Whether to cull this frame, rather than read it whole (see FUTILE_SHARE); counts it either way. */
  nextFrame(): boolean {
    if (this.wholeFrames === 0) return true;
    this.wholeFrames--;
    this.counts.wholeFrames++;
    return false;
  }

  /** Makes room for a lattice of `latticeCols` × `latticeRows` and `planes` planes. */
  reserve(latticeCols: number, latticeRows: number, planes: number): void {
    // Every halving leaves a tile with at most half (rounded up) of one side: depth ≤ 2 ⌈log2 side⌉ + 2.
    const depth = 2 * (32 - Math.clz32(Math.max(latticeCols, latticeRows))) + 2;
    if (this.stack.length < (depth + 1) * TILE_WORDS) this.stack = new Int32Array((depth + 1) * TILE_WORDS);
    if (this.pool.length < (depth + 2) * planes) this.pool = new Int32Array((depth + 2) * planes);
  }
}

/**
 * Marks what `observeLattice` marks, reading only tiles where one of the planes listed in `active` (the
 * first `activeCount`) can still see an unseen cell, each for those planes only. `grids.coefficients`,
 * `facing` and `reach` must be those of the frame's camera, and `heap` bound to `grids` and `frame`: it
 * reads the tiles (and tallies what they saw in its `frameStats`). Returns how many cells were newly seen.
 */
export function observeLive(grids: PlaneGrids, frame: LatticeFrame, active: Int32Array, activeCount: number, cull: LatticeCull, heap: ObservationHeap): number {
  const { width, height, stride, rayX, rayY } = frame;
  const latticeCols = Math.ceil(width / stride);
  const latticeRows = Math.ceil(height / stride);
  cull.reserve(latticeCols, latticeRows, grids.cols.length);
  const { stack, pool } = cull;
  for (let i = 0; i < activeCount; i++) pool[i] = active[i];
  let top = pushTile(stack, 0, 0, latticeCols - 1, 0, latticeRows - 1, 0, activeCount);
  let found = 0;
  let tests = 0;
  let pixelsRead = 0;
  const futile = FUTILE_SHARE * latticeCols * latticeRows;
  while (top > 0) {
    top -= TILE_WORDS;
    const c0 = stack[top], c1 = stack[top + 1], r0 = stack[top + 2], r1 = stack[top + 3];
    if (pixelsRead > futile) {
      // Culling does not pay in this frame: read the tiles left for every plane, untested. The same cells:
      // a plane dropped from a tile has no pixel there that can land in an unseen cell.
      pixelsRead += (c1 - c0 + 1) * (r1 - r0 + 1);
      found = heap.addTile(c0, c1, r0, r1, pool, 0, EVERY_PLANE, found);
      continue;
    }
    const listStart = stack[top + 4], listCount = stack[top + 5];
    // Lists above this one belong to tiles already finished.
    const kept = listStart + listCount;
    let count = 0;
    const rxa = rayX[c0 * stride], rxb = rayX[c1 * stride], rya = rayY[r0 * stride], ryb = rayY[r1 * stride];
    tests += listCount;
    for (let i = listStart; i < kept; i++) {
      const plane = pool[i];
      if (mayReveal(grids, plane, rxa, rxb, rya, ryb)) pool[kept + count++] = plane;
    }
    if (count === 0) continue;
    if (c1 - c0 < LEAF_COLUMNS && r1 - r0 < LEAF_ROWS) {
      pixelsRead += (c1 - c0 + 1) * (r1 - r0 + 1);
      found = heap.addTile(c0, c1, r0, r1, pool, kept, count, found);
    } else if ((c1 - c0) * LEAF_ROWS >= (r1 - r0) * LEAF_COLUMNS) {
      const middle = (c0 + c1) >> 1;
      top = pushTile(stack, top, middle + 1, c1, r0, r1, kept, count);
      top = pushTile(stack, top, c0, middle, r0, r1, kept, count);
    } else {
      const middle = (r0 + r1) >> 1;
      top = pushTile(stack, top, c0, c1, middle + 1, r1, kept, count);
      top = pushTile(stack, top, c0, c1, r0, middle, kept, count);
    }
  }
  found = heap.flush(found);
  cull.counts.tests += tests;
  cull.counts.pixelsRead += pixelsRead;
  cull.counts.culledFrames++;
  if (pixelsRead > futile) {
    cull.wholeFrames = cull.backoff;
    cull.backoff = Math.min(MAX_BACKOFF, cull.backoff * 2);
  } else {
    cull.backoff = FIRST_BACKOFF;
  }
  return found;
}

function pushTile(stack: Int32Array, top: number, c0: number, c1: number, r0: number, r1: number, listStart: number, listCount: number): number {
  stack[top] = c0;
  stack[top + 1] = c1;
  stack[top + 2] = r0;
  stack[top + 3] = r1;
  stack[top + 4] = listStart;
  stack[top + 5] = listCount;
  return top + TILE_WORDS;
}

/**
 * Whether a pixel of `plane`'s face whose ray lies between x = `rxa`..`rxb` and y = `rya`..`ryb` may land in
 * a cell not yet seen (false only when proven that none can; see the file comment).
 */
function mayReveal(grids: PlaneGrids, plane: number, rxa: number, rxb: number, rya: number, ryb: number): boolean {
  // Only rays in the plane's box can show its face: cut the tile down to them (rya is the top row, y falls).
  const reach = grids.reach;
  const q = plane * PLANE_REACH;
  if (rxa < reach[q]) rxa = reach[q];
  if (rxb > reach[q + 1]) rxb = reach[q + 1];
  if (ryb < reach[q + 2]) ryb = reach[q + 2];
  if (rya > reach[q + 3]) rya = reach[q + 3];
  if (rxa > rxb || ryb > rya) return false;
  const f = grids.facing;
  const o = plane * PLANE_FACING;
  const nx = f[o], ny = f[o + 1], nz = f[o + 2], d = f[o + 3];
  // Turned away: the rasterizer draws none of it. Nearly edge-on: not worth bounding.
  if (d >= TURNED_AWAY) return false;
  if (d > -EDGE_ON) return true;
  const daa = nx * rxa + ny * rya - nz, dba = nx * rxb + ny * rya - nz;
  const dab = nx * rxa + ny * ryb - nz, dbb = nx * rxb + ny * ryb - nz;
  // d < 0: a ray meets the plane in front of the camera when n · ray < 0.
  if (daa >= PARALLEL && dba >= PARALLEL && dab >= PARALLEL && dbb >= PARALLEL) return false;
  if (!(daa <= -PARALLEL && dba <= -PARALLEL && dab <= -PARALLEL && dbb <= -PARALLEL)) return true;
  const k = grids.coefficients;
  const kc = plane * PLANE_COEFFICIENTS;
  const k0 = k[kc], k1 = k[kc + 1], k2 = k[kc + 2], k3 = k[kc + 3];
  const k4 = k[kc + 4], k5 = k[kc + 5], k6 = k[kc + 6], k7 = k[kc + 7];
  let zc = d / daa;
  let u = k0 + zc * (k1 * rxa + k2 * rya - k3), v = k4 + zc * (k5 * rxa + k6 * rya - k7);
  let uMin = u, uMax = u, vMin = v, vMax = v;
  zc = d / dba;
  u = k0 + zc * (k1 * rxb + k2 * rya - k3);
  v = k4 + zc * (k5 * rxb + k6 * rya - k7);
  if (u < uMin) uMin = u; else if (u > uMax) uMax = u;
  if (v < vMin) vMin = v; else if (v > vMax) vMax = v;
  zc = d / dab;
  u = k0 + zc * (k1 * rxa + k2 * ryb - k3);
  v = k4 + zc * (k5 * rxa + k6 * ryb - k7);
  if (u < uMin) uMin = u; else if (u > uMax) uMax = u;
  if (v < vMin) vMin = v; else if (v > vMax) vMax = v;
  zc = d / dbb;
  u = k0 + zc * (k1 * rxb + k2 * ryb - k3);
  v = k4 + zc * (k5 * rxb + k6 * ryb - k7);
  if (u < uMin) uMin = u; else if (u > uMax) uMax = u;
  if (v < vMin) vMin = v; else if (v > vMax) vMax = v;
  const cols = grids.cols[plane], rows = grids.rows[plane];
  const uLow = uMin - CELL_MARGIN, uHigh = uMax + CELL_MARGIN, vLow = vMin - CELL_MARGIN, vHigh = vMax + CELL_MARGIN;
  // NaN never arises (|n · ray| ≥ PARALLEL), but if it did, prove nothing.
  if (!(uLow <= uHigh && vLow <= vHigh)) return true;
  // The face lies within the grid, columns 0..cols and rows 0..rows: a box outside it holds none of its pixels.
  if (uHigh < 0 || vHigh < 0 || uLow >= cols || vLow >= rows) return false;
  const cMin = uLow <= 0 ? 0 : Math.floor(uLow), cMax = uHigh >= cols ? cols - 1 : Math.floor(uHigh);
  const rMin = vLow <= 0 ? 0 : Math.floor(vLow), rMax = vHigh >= rows ? rows - 1 : Math.floor(vHigh);
  return anyUnseen(grids, plane, cMin, cMax, rMin, rMax);
}

/** Whether some cell of `plane` in columns `c0`..`c1`, rows `r0`..`r1` has not been seen. */
function anyUnseen(grids: PlaneGrids, plane: number, c0: number, c1: number, r0: number, r1: number): boolean {
  const bits = grids.seenBits;
  const words = seenBitsWords(grids.cols[plane]);
  const w0 = c0 >>> 5, w1 = c1 >>> 5;
  const firstMask = -1 << (c0 & 31);
  const lastMask = (c1 & 31) === 31 ? -1 : (1 << ((c1 & 31) + 1)) - 1;
  for (let r = r0, line = grids.seenBitsStart[plane] + r0 * words; r <= r1; r++, line += words) {
    for (let w = w0; w <= w1; w++) {
      let mask = -1;
      if (w === w0) mask &= firstMask;
      if (w === w1) mask &= lastMask;
      if ((~bits[line + w] & mask) !== 0) return true;
    }
  }
  return false;
}

/**
 * Writes to `reach` from `o` the box of rays (x from, x to, y from, y to) meeting the quadrilateral whose
 * corners, in order around it, are `corners` (camera coordinates, x y z each) at a depth of at least
 * `nearest`: the quadrilateral clipped there, each vertex's ray (x / depth, y / depth), widened a little.
 * An empty box (from > to) when none does; an unbounded one when `nearest` is not positive.
 */
export function planeReach(corners: Float64Array, nearest: number, reach: Float64Array, o: number): void {
  if (!(nearest > 0)) {
    reach[o] = -Infinity;
    reach[o + 1] = Infinity;
    reach[o + 2] = -Infinity;
    reach[o + 3] = Infinity;
    return;
  }
  let xMin = Infinity, xMax = -Infinity, yMin = Infinity, yMax = -Infinity;
  for (let k = 0; k < 4; k++) {
    const j = (k + 1) & 3;
    const xk = corners[k * 3], yk = corners[k * 3 + 1], dk = -corners[k * 3 + 2];
    const dj = -corners[j * 3 + 2];
    // Each corner in front, and each crossing of depth `nearest` along an edge (Sutherland–Hodgman).
    if (dk >= nearest) {
      const x = xk / dk, y = yk / dk;
      if (x < xMin) xMin = x;
      if (x > xMax) xMax = x;
      if (y < yMin) yMin = y;
      if (y > yMax) yMax = y;
    }
    if (dk >= nearest !== dj >= nearest) {
      const s = (nearest - dk) / (dj - dk);
      const x = (xk + s * (corners[j * 3] - xk)) / nearest, y = (yk + s * (corners[j * 3 + 1] - yk)) / nearest;
      if (x < xMin) xMin = x;
      if (x > xMax) xMax = x;
      if (y < yMin) yMin = y;
      if (y > yMax) yMax = y;
    }
  }
  reach[o] = xMin - RAY_SLACK;
  reach[o + 1] = xMax + RAY_SLACK;
  reach[o + 2] = yMin - RAY_SLACK;
  reach[o + 3] = yMax + RAY_SLACK;
}
