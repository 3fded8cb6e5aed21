/**
 * Plane detection's pass over a depth frame: which cells of which planes' observation grids the lattice
 * pixels of a rendered frame saw (see `src/sensing/planes.ts`). Flat typed arrays only, so that the pixel
 * loop reads no objects, and nothing is allocated. This JavaScript pass is the reference: sessions run the
 * same loop as an asm.js kernel (`plane-observe-asm.ts`), over only the tiles of the lattice that can
 * still see an unseen cell (`plane-cull.ts`).
 */

/** Numbers per plane in `coefficients`: 4 for the column, 4 for the row. */
export const PLANE_COEFFICIENTS = 8;
/** Numbers per plane in `facing`: the normal in camera coordinates, then n · (origin − camera). */
export const PLANE_FACING = 4;

/** Every plane's observation grid, flattened. */
export interface PlaneGrids {
  /** Face id → plane index, or −1 for faces of no plane being observed. */
  faceMap: Int32Array;
  /**
   * Per plane, for the frame's camera: a pixel at depth z on ray (rx, ry, −1) lies in column
   * k0 + z (k1 rx + k2 ry − k3) and row k4 + z (k5 rx + k6 ry − k7), in cells.
   */
  coefficients: Float64Array;
  /**
   * Per plane, for the frame's camera: the plane is n · p = d in camera coordinates (d < 0 when its face is
   * turned toward the camera), so the ray (rx, ry, −1) meets it at depth d / (nx rx + ny ry − nz).
   */
  facing: Float64Array;
  /**
   * Per plane, for the frame's camera: the box of rays (rx, ry, −1), x from reach[0] to reach[1] and y from
   * reach[2] to reach[3], that holds every ray meeting its grid (widened) no nearer than `minRange`, so the ray
   * of every pixel of its face that can be observed (`planeReach` in `plane-cull.ts`). Empty (min > max) when there is none.
   */
  reach: Float64Array;
  /** Per plane: grid size, and where its cells start in `seen`. */
  cols: Int32Array;
  rows: Int32Array;
  seenStart: Int32Array;
  /** Every grid's cells, row-major each: 1 when seen. */
  seen: Uint8Array;
  /**
   * `seen` again, packed to test a box of cells in a few reads: per plane (from `seenBitsStart`), per grid
   * row, ⌈cols / 32⌉ words, bit c & 31 of word c >> 5 for column c.
   */
  seenBits: Int32Array;
  seenBitsStart: Int32Array;
}

/** Words per grid row in `seenBits` for a grid of `cols` columns. */
export function seenBitsWords(cols: number): number {
  return (cols + 31) >>> 5;
}

/** Sets cell (c, r) of plane `plane` in `seenBits` (`observeLattice` marks `seen`; its caller marks this). */
export function setSeenBit(grids: PlaneGrids, plane: number, c: number, r: number): void {
  grids.seenBits[grids.seenBitsStart[plane] + r * seenBitsWords(grids.cols[plane]) + (c >>> 5)] |= 1 << (c & 31);
}

/**
 * A depth frame as plane detection reads it: the rasterizer's buffers (`width` × `height`, row-major) and ray
 * tables, the lattice (every `stride`-th column of every `stride`-th row) and the depths observed.
 */
export interface LatticeFrame {
  width: number;
  height: number;
  stride: number;
  depth: Float32Array;
  ids: Int32Array;
  rayX: Float64Array;
  rayY: Float64Array;
  minRange: number;
  maxRange: number;
}

/**
 * Marks the cells seen by the lattice pixels of `frame` whose face is in `faceMap` and whose depth lies in
 * [minRange, maxRange]. Writes each newly seen cell to `newCells` as (plane, cell index) and returns how
 * many numbers it wrote (two per cell); `newCells` must hold two numbers per pixel read.
 */
export function observeLattice(grids: PlaneGrids, frame: LatticeFrame, newCells: Int32Array): number {
  const c0 = 0, c1 = Math.ceil(frame.width / frame.stride) - 1;
  const r0 = 0, r1 = Math.ceil(frame.height / frame.stride) - 1;
  let found = 0;
  const { width, stride, depth, ids, rayX, rayY, minRange, maxRange } = frame;
  const { faceMap, coefficients: k, cols, rows, seenStart, seen } = grids;
  const faces = faceMap.length;
  for (let lr = r0; lr <= r1; lr++) {
    const row = lr * stride;
    const ry = rayY[row];
    const line = row * width;
    // The coefficients of the plane met last in this row: neighbouring pixels mostly show the same face.
    let last = -1;
    let c0_ = 0, cx = 0, cy = 0, cz = 0, r0_ = 0, rx_ = 0, ry_ = 0, rz = 0, planeCols = 0, planeRows = 0, start = 0;
    for (let lc = c0; lc <= c1; lc++) {
      const col = lc * stride;
      const id = ids[line + col];
      if (id < 0 || id >= faces) continue;
      const plane = faceMap[id];
      if (plane < 0) continue;
      const z = depth[line + col];
      if (z < minRange || z > maxRange) continue;
      if (plane !== last) {
        last = plane;
        const o = plane * PLANE_COEFFICIENTS;
        c0_ = k[o]; cx = k[o + 1]; cy = k[o + 2] * ry; cz = k[o + 3];
        r0_ = k[o + 4]; rx_ = k[o + 5]; ry_ = k[o + 6] * ry; rz = k[o + 7];
        planeCols = cols[plane];
        planeRows = rows[plane];
        start = seenStart[plane];
      }
      const rx = rayX[col];
      // The pixel's cell: its point (camera + z · Rᵀ(rx, ry, −1)) in plane coordinates, in cells, each sum
      // in the order written. Truncation, then clamping below at 0, is floor-then-clamp for every
      // |x| < 2³¹ (grids are far smaller), and keeps the arithmetic in integers.
      let c = (c0_ + z * (cx * rx + cy - cz)) | 0;
      let r = (r0_ + z * (rx_ * rx + ry_ - rz)) | 0;
      c = c < 0 ? 0 : c >= planeCols ? planeCols - 1 : c;
      r = r < 0 ? 0 : r >= planeRows ? planeRows - 1 : r;
      const cell = r * planeCols + c;
      if (seen[start + cell] === 1) continue;
      seen[start + cell] = 1;
      newCells[found++] = plane;
      newCells[found++] = cell;
    }
  }
  return found;
}
