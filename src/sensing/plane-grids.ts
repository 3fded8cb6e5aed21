/**
 * The observation grids of plane detection (see `planes.ts`) as the kernels read them: every plane's cells
 * pooled in flat arrays (`kernels/plane-observe.ts`), and, per depth frame, the numbers that take a pixel
 * to its cell and say where the plane lies from the camera (`kernels/plane-cull.ts`).
 */
import type { RasterCamera } from '../../kernels/depth-raster.js';
import { CELL_MARGIN, PLANE_REACH, planeReach } from '../../kernels/plane-cull.js';
import { PLANE_COEFFICIENTS, PLANE_FACING, seenBitsWords, type PlaneGrids } from '../../kernels/plane-observe.js';
import type { TrackedPlane } from './tracked-plane.js';

/** Grids of no plane. */
export function emptyGrids(): PlaneGrids {
  return {
    faceMap: new Int32Array(0),
    coefficients: new Float64Array(0),
    facing: new Float64Array(0),
    reach: new Float64Array(0),
    cols: new Int32Array(0),
    rows: new Int32Array(0),
    seenStart: new Int32Array(0),
    seen: new Uint8Array(0),
    seenBits: new Int32Array(0),
    seenBitsStart: new Int32Array(0),
  };
}

/**
 * Lays every plane's grid out in one pool, with what each has seen (again when a plane is added: planes
 * are only ever appended, so plane p of `previous` is plane p here).
 */
export function poolGrids(planes: readonly TrackedPlane[], previous: PlaneGrids): PlaneGrids {
  const n = planes.length;
  const seenStart = new Int32Array(n);
  const seenBitsStart = new Int32Array(n);
  let cells = 0;
  let words = 0;
  for (let p = 0; p < n; p++) {
    seenStart[p] = cells;
    seenBitsStart[p] = words;
    cells += planes[p].cols * planes[p].rows;
    words += seenBitsWords(planes[p].cols) * planes[p].rows;
  }
  const seen = new Uint8Array(cells);
  const seenBits = new Int32Array(words);
  for (let p = 0; p < previous.seenStart.length; p++) {
    const plane = planes[p];
    const start = previous.seenStart[p];
    seen.set(previous.seen.subarray(start, start + plane.cols * plane.rows), seenStart[p]);
    const bitsStart = previous.seenBitsStart[p];
    seenBits.set(previous.seenBits.subarray(bitsStart, bitsStart + seenBitsWords(plane.cols) * plane.rows), seenBitsStart[p]);
  }
  return {
    faceMap: previous.faceMap,
    coefficients: new Float64Array(n * PLANE_COEFFICIENTS),
    facing: new Float64Array(n * PLANE_FACING),
    reach: new Float64Array(n * PLANE_REACH),
    cols: Int32Array.from(planes, (p) => p.cols),
    rows: Int32Array.from(planes, (p) => p.rows),
    seenStart,
    seen,
    seenBits,
    seenBitsStart,
  };
}

/**
 * For this frame's camera, per plane that can still grow (written to `active`; returns how many): the
 * cell coordinates of a pixel's point as affine functions of its depth z and ray (rx, ry, −1). With the
 * plane's in-plane axes a (column) and b (row), its origin O, the camera at C with world→camera rotation R:
 * column = (a·(C − O) − minX)/cell + z·(Ra)·r/cell, likewise for the row, so a pixel costs two dot products
 * instead of a change of frame.
 */
export function frameCoefficients(planes: readonly TrackedPlane[], grids: PlaneGrids, camera: RasterCamera, cellSize: number, active: Int32Array): number {
  const k = grids.coefficients;
  const R = camera.rotation;
  const C = camera.position;
  let count = 0;
  for (const plane of planes) {
    if (plane.removed || plane.full) continue;
    active[count++] = plane.id;
    const a = plane.axes;
    const dx = C[0] - plane.origin[0], dy = C[1] - plane.origin[1], dz = C[2] - plane.origin[2];
    for (let axis = 0; axis < 2; axis++) {
      // Axis 0 (x, columns) and axis 2 (z, rows) of plane space.
      const e = axis === 0 ? 0 : 6;
      const o = plane.id * PLANE_COEFFICIENTS + axis * 4;
      const min = axis === 0 ? plane.minX : plane.minZ;
      k[o] = (a[e] * dx + a[e + 1] * dy + a[e + 2] * dz - min) / cellSize;
      k[o + 1] = (R[0] * a[e] + R[1] * a[e + 1] + R[2] * a[e + 2]) / cellSize;
      k[o + 2] = (R[3] * a[e] + R[4] * a[e + 1] + R[5] * a[e + 2]) / cellSize;
      k[o + 3] = (R[6] * a[e] + R[7] * a[e + 1] + R[8] * a[e + 2]) / cellSize;
    }
  }
  return count;
}

/**
 * For this frame's camera, per plane listed in `active` (the first `count`), where the plane lies for the
 * culled pass (`kernels/plane-cull.ts`): its normal n in camera coordinates with n · (O − C), so the plane
 * is (Rn) · p = n · (O − C) there; and the box of rays meeting its grid no nearer than `minRange`.
 */
export function frameBounds(planes: readonly TrackedPlane[], grids: PlaneGrids, camera: RasterCamera, cellSize: number, minRange: number, active: Int32Array, count: number): void {
  const facing = grids.facing;
  const R = camera.rotation;
  const C = camera.position;
  // Pixels nearer than minRange are not observed; the rasterizer draws nothing nearer than `near`.
  const nearest = Math.max(minRange, camera.near) * (1 - 1e-6);
  for (let i = 0; i < count; i++) {
    const plane = planes[active[i]];
    const a = plane.axes;
    const dx = C[0] - plane.origin[0], dy = C[1] - plane.origin[1], dz = C[2] - plane.origin[2];
    // Axis 1 (y) of plane space is the face's outward normal.
    const f = plane.id * PLANE_FACING;
    facing[f] = R[0] * a[3] + R[1] * a[4] + R[2] * a[5];
    facing[f + 1] = R[3] * a[3] + R[4] * a[4] + R[5] * a[5];
    facing[f + 2] = R[6] * a[3] + R[7] * a[4] + R[8] * a[5];
    facing[f + 3] = -(a[3] * dx + a[4] * dy + a[5] * dz);
    // The grid's corners, widened by CELL_MARGIN, in camera coordinates, in order around it.
    const x0 = plane.minX - CELL_MARGIN * cellSize, x1 = plane.minX + (plane.cols + CELL_MARGIN) * cellSize;
    const z0 = plane.minZ - CELL_MARGIN * cellSize, z1 = plane.minZ + (plane.rows + CELL_MARGIN) * cellSize;
    for (let corner = 0; corner < 4; corner++) {
      const x = corner === 0 || corner === 3 ? x0 : x1;
      const z = corner < 2 ? z0 : z1;
      const wx = x * a[0] + z * a[6] - dx;
      const wy = x * a[1] + z * a[7] - dy;
      const wz = x * a[2] + z * a[8] - dz;
      gridCorners[corner * 3] = R[0] * wx + R[1] * wy + R[2] * wz;
      gridCorners[corner * 3 + 1] = R[3] * wx + R[4] * wy + R[5] * wz;
      gridCorners[corner * 3 + 2] = R[6] * wx + R[7] * wy + R[8] * wz;
    }
    planeReach(gridCorners, nearest, grids.reach, plane.id * PLANE_REACH);
  }
}

const gridCorners = new Float64Array(12);
