/**
 * Plane detection's pass over a depth frame: which cells of which planes' observation grids the lattice
 * pixels of a rendered frame saw (see `src/sensing/planes.ts`). Flat typed arrays only, so that the pixel
 * loop reads no objects, and nothing is allocated.
 */

/** Numbers per plane in `coefficients`: 4 for the column, 4 for the row. */
export const PLANE_COEFFICIENTS = 8;

/** Every plane's observation grid, flattened. */
export interface PlaneGrids {
  /** Face id → plane index, or −1 for faces of no plane being observed. */
  faceMap: Int32Array;
  /**
   * Per plane, for the frame's camera: a pixel at depth z on ray (rx, ry, −1) lies in column
   * k0 + z (k1 rx + k2 ry − k3) and row k4 + z (k5 rx + k6 ry − k7), in cells.
   */
  coefficients: Float64Array;
  /** Per plane: grid size, and where its cells start in `seen`. */
  cols: Int32Array;
  rows: Int32Array;
  seenStart: Int32Array;
  /** Every grid's cells, row-major each: 1 when seen. */
  seen: Uint8Array;
}

/**
 * Marks the cells seen by the pixels of every `stride`-th column of every `stride`-th row whose face is
 * in `faceMap` and whose depth lies in [minRange, maxRange]. Writes each newly seen cell to `newCells` as
 * (plane, cell index) and returns how many there are; `newCells` must hold two numbers per pixel read.
 */
export function observeLattice(
  grids: PlaneGrids,
  width: number,
  height: number,
  stride: number,
  depth: Float32Array,
  ids: Int32Array,
  rayX: Float64Array,
  rayY: Float64Array,
  minRange: number,
  maxRange: number,
  newCells: Int32Array,
): number {
  const { faceMap, coefficients: k, cols, rows, seenStart, seen } = grids;
  const faces = faceMap.length;
  let found = 0;
  for (let row = 0; row < height; row += stride) {
    const ry = rayY[row];
    const line = row * width;
    // The coefficients of the plane met last in this row: neighbouring pixels mostly show the same face.
    let last = -1;
    let c0 = 0, cx = 0, cy = 0, cz = 0, r0 = 0, rx_ = 0, ry_ = 0, rz = 0, planeCols = 0, planeRows = 0, start = 0;
    for (let col = 0; col < width; col += stride) {
      const id = ids[line + col];
      if (id < 0 || id >= faces) continue;
      const plane = faceMap[id];
      if (plane < 0) continue;
      const z = depth[line + col];
      if (z < minRange || z > maxRange) continue;
      if (plane !== last) {
        last = plane;
        const o = plane * PLANE_COEFFICIENTS;
        c0 = k[o]; cx = k[o + 1]; cy = k[o + 2] * ry; cz = k[o + 3];
        r0 = k[o + 4]; rx_ = k[o + 5]; ry_ = k[o + 6] * ry; rz = k[o + 7];
        planeCols = cols[plane];
        planeRows = rows[plane];
        start = seenStart[plane];
      }
      const rx = rayX[col];
      // The pixel's cell: its point (camera + z · Rᵀ(rx, ry, −1)) in plane coordinates, in cells, each sum
      // in the order written. Truncation, then clamping below at 0, is floor-then-clamp for every
      // |x| < 2³¹ (grids are far smaller), and keeps the arithmetic in integers.
      let c = (c0 + z * (cx * rx + cy - cz)) | 0;
      let r = (r0 + z * (rx_ * rx + ry_ - rz)) | 0;
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
