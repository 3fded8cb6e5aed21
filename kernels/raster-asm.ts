/**
 * The depth rasterizer's per-pixel loops, where most of a frame's cost is: a planar face scan-converted
 * and drawn over its spans, and a curved primitive solved per pixel over its bounds. They are written as an
 * asm.js module: V8 validates it and compiles it ahead of time through its WebAssembly pipeline, with every
 * constant in a register and no per-pixel checks of the arrays it reads (as plain JavaScript the same
 * loops spent more on those checks, and on unboxing their arguments, than on their arithmetic). An engine
 * that does not validate it runs the same code as ordinary JavaScript with the same results: asm.js
 * changes how fast the code runs, never what it computes. (So does a bundler that drops the 'use asm'
 * directive, as esbuild does; the library's own build, tsc, keeps it.)
 *
 * The module works on one heap, an ArrayBuffer that holds the rasterizer's buffers at the offsets given to
 * `layout` ({@link rasterHeap} places them); the rasterizer's typed arrays are views of it. Another
 * per-pixel output (say, for plane detection) is another buffer in `rasterHeap`, a view in `DepthRaster`,
 * an offset for `layout` and a store next to the face id's in both loops; another per-face value (like
 * `face`) is another argument.
 */

/** The loops' entry points (see {@link rasterAsm}). */
export interface RasterAsm {
  /** Byte offsets of the buffers in the heap, and the image width. */
  layout(width: number, depth: number, id: number, incidence: number, rayX: number, rayY: number, rayLength: number, u: number, v: number, m: number): void;
  /**
   * Scan-converts the projected convex polygon u/v (m vertices, image coordinates) on rows rowStart..rowEnd
   * in steps of `step` (1, or 2 for the half lattice), columns colMin..colMax, with the top-left rule: a
   * pixel is covered if its centre is, on the half-open interval where the row's centre line crosses the
   * edges. Draws the plane n · p = d (camera coordinates, d < 0) there: a pixel takes the plane's depth
   * along its ray (rx, ry, −1) if that is nearer than what it holds and no farther than `far`, with the face
   * id and, if `withIncidence` is 1, the incidence |cos| = −(n · r) / |r|.
   */
  polygon(m: number, rowStart: number, rowEnd: number, step: number, colMin: number, colMax: number, nx: number, ny: number, nz: number, d: number, far: number, face: number, withIncidence: number): void;
  /**
   * Draws a sphere (type 1), capsule (2) or cylinder (3) of radius r and half length `half` over rows
   * r0..r1 and columns c0..c1 on the lattice `step`: each pixel's ray, in the primitive's frame (the heap's
   * m is the camera←local rotation, (ox, oy, oz) the camera's origin there), meets it where the ray-cast
   * reference says. A cylinder tries only the cap at y = capY, with normal y capNy, and only if hasCap is 1.
   */
  curved(type: number, r0: number, r1: number, c0: number, c1: number, step: number, ox: number, oy: number, oz: number, r: number, half: number, hasCap: number, capY: number, capNy: number, near: number, far: number, face: number, withIncidence: number): void;
}

/** The module's one import: a double constant 0 it cannot write as a literal (see below). */
export const RASTER_ASM_FOREIGN = { zero: 0 };

/** Where each buffer lies in a heap for a `width` × `height` image, and the heap's size. */
export interface RasterHeap {
  bytes: number;
  /** Bytes from the start the buffers take; the rest of the heap is free for another module's use (see `plane-observe-asm.ts`). */
  used: number;
  rayLength: number;
  rayX: number;
  rayY: number;
  u: number;
  v: number;
  depth: number;
  id: number;
  incidence: number;
  m: number;
}

/** Vertices a projected polygon may have: a polygon of up to 64 points gains at most one from the near-plane clip. */
export const MAX_POLYGON_VERTICES = 80;

/** Places the buffers (8-byte ones first) and sizes the heap as asm.js requires: a power of two from 4 KiB, or a multiple of 16 MiB. */
export function rasterHeap(width: number, height: number): RasterHeap {
  const pixels = width * height;
  const rayX = 8 * pixels;
  const rayY = rayX + 8 * width;
  const u = rayY + 8 * height;
  const v = u + 8 * MAX_POLYGON_VERTICES;
  const m = v + 8 * MAX_POLYGON_VERTICES;
  const depth = m + 8 * 9;
  const used = depth + 12 * pixels;
  let bytes = 4096;
  while (bytes < used && bytes < 1 << 24) bytes *= 2;
  if (bytes < used) bytes = Math.ceil(used / (1 << 24)) * (1 << 24);
  return { bytes, used, rayLength: 0, rayX, rayY, u, v, m, depth, id: depth + 4 * pixels, incidence: depth + 8 * pixels };
}

/*
 * The module, in the asm.js subset: `x | 0` and `+x` declare integers and doubles, heap[byteOffset >> k]
 * reads and writes the typed views, imul multiplies integers, `~~` truncates a double (clamped first to the
 * image, so it cannot wrap). A double local is declared by an initial value with a decimal point; they are
 * 0.5, not 0.0, and no other literal is a whole number written as a double (the double 0 is the import
 * `zero`), because printers (esbuild, in bundles and in vitest) write 0.0 as 0, an integer to asm.js, and
 * the module would not validate; for the same reason the returned object's keys differ from the function
 * names (a printer may shorten `{ f: f }` to `{ f }`). Its arithmetic is the rasterizer's, operation for
 * operation, so its results are bit-identical to the JavaScript it replaced (kept in
 * test/helpers/reference-depth-raster.ts); test/depth-raster-identity.test.ts checks both, and that V8
 * validates the module.
 */
/* eslint-disable */
// prettier-ignore
export function rasterAsm(stdlib: typeof globalThis, foreign: typeof RASTER_ASM_FOREIGN, heap: ArrayBuffer): RasterAsm {
  'use asm';
  var F32 = new stdlib.Float32Array(heap);
  var I32 = new stdlib.Int32Array(heap);
  var F64 = new stdlib.Float64Array(heap);
  var imul = stdlib.Math.imul;
  var ceil = stdlib.Math.ceil;
  var sqrt = stdlib.Math.sqrt;
  var abs = stdlib.Math.abs;
  var zero = +foreign.zero;
  var infinity = stdlib.Infinity;
  var width = 0, depthAt = 0, idAt = 0, incidenceAt = 0, rayXAt = 0, rayYAt = 0, rayLengthAt = 0, uAt = 0, vAt = 0, mAt = 0;

  function setLayout(w: number, depth: number, id: number, incidence: number, rayX: number, rayY: number, rayLength: number, u: number, v: number, m: number) {
    w = w | 0; depth = depth | 0; id = id | 0; incidence = incidence | 0; rayX = rayX | 0; rayY = rayY | 0;
    rayLength = rayLength | 0; u = u | 0; v = v | 0; m = m | 0;
    width = w; depthAt = depth; idAt = id; incidenceAt = incidence; rayXAt = rayX; rayYAt = rayY;
    rayLengthAt = rayLength; uAt = u; vAt = v; mAt = m;
  }

  function drawPolygon(m: number, rowStart: number, rowEnd: number, step: number, colMin: number, colMax: number, nx: number, ny: number, nz: number, d: number, far: number, face: number, withIncidence: number) {
    m = m | 0; rowStart = rowStart | 0; rowEnd = rowEnd | 0; step = step | 0; colMin = colMin | 0; colMax = colMax | 0;
    nx = +nx; ny = +ny; nz = +nz; d = +d; far = +far;
    face = face | 0; withIncidence = withIncidence | 0;
    var row = 0, col = 0, colStart = 0, colEnd = 0, i = 0, at = 0, j = 0, k = 0, crosses = 0;
    var yc = 0.5, v0 = 0.5, v1 = 0.5, uj = 0.5, x = 0.5, xmin = 0.5, xmax = 0.5, first = 0.5, last = 0.5;
    var base = 0.5, denominator = 0.5, z = 0.5;
    for (row = rowStart; (row | 0) <= (rowEnd | 0); row = (row + step) | 0) {
      // Where the row's centre line crosses the edges (j, k), the last closing the polygon.
      yc = +(row | 0) + 0.5;
      xmin = infinity;
      xmax = -infinity;
      j = (m - 1) | 0;
      for (k = 0; (k | 0) < (m | 0); k = (k + 1) | 0) {
        v0 = +F64[(vAt + (j << 3)) >> 3];
        v1 = +F64[(vAt + (k << 3)) >> 3];
        crosses = 0;
        if (v0 <= yc) if (yc < v1) crosses = 1;
        if (v1 <= yc) if (yc < v0) crosses = 1;
        if (crosses) {
          uj = +F64[(uAt + (j << 3)) >> 3];
          x = uj + ((yc - v0) * (+F64[(uAt + (k << 3)) >> 3] - uj)) / (v1 - v0);
          if (x < xmin) xmin = x;
          if (x > xmax) xmax = x;
        }
        j = k;
      }
      if (xmin >= xmax) continue;
      // Columns whose centre lies in [xmin, xmax), within colMin..colMax, on the lattice.
      first = ceil(xmin - 0.5);
      if (first < +(colMin | 0)) first = +(colMin | 0);
      if (first > +((colMax + 1) | 0)) first = +((colMax + 1) | 0);
      colStart = ~~first;
      if ((step | 0) == 2) colStart = (colStart + (colStart & 1)) | 0;
      // The last column is ceil(xmax − 0.5) − 1, at most colMax; below 0 the span is empty anyway.
      last = ceil(xmax - 0.5);
      if (last > +((colMax + 1) | 0)) last = +((colMax + 1) | 0);
      if (last < +(0 | 0)) last = +(0 | 0);
      colEnd = ((~~last) - 1) | 0;
      base = ny * +F64[(rayYAt + (row << 3)) >> 3] - nz;
      for (col = colStart; (col | 0) <= (colEnd | 0); col = (col + step) | 0) {
        i = ((imul(row, width) | 0) + col) | 0;
        at = i << 2;
        denominator = nx * +F64[(rayXAt + (col << 3)) >> 3] + base;
        z = d / denominator;
        if (z < +F32[(depthAt + at) >> 2]) {
          if (z <= far) {
            F32[(depthAt + at) >> 2] = z;
            I32[(idAt + at) >> 2] = face;
            if (withIncidence) F32[(incidenceAt + at) >> 2] = -denominator / +F64[(rayLengthAt + (i << 3)) >> 3];
          }
        }
      }
    }
  }

  function drawCurved(type: number, r0: number, r1: number, c0: number, c1: number, step: number, ox: number, oy: number, oz: number, r: number, half: number, hasCap: number, capY: number, capNy: number, near: number, far: number, face: number, withIncidence: number) {
    type = type | 0; r0 = r0 | 0; r1 = r1 | 0; c0 = c0 | 0; c1 = c1 | 0; step = step | 0;
    ox = +ox; oy = +oy; oz = +oz; r = +r; half = +half; hasCap = hasCap | 0; capY = +capY; capNy = +capNy;
    near = +near; far = +far; face = face | 0; withIncidence = withIncidence | 0;
    var row = 0, col = 0, end = 0, at = 0;
    var m0 = 0.5, m1 = 0.5, m2 = 0.5, m3 = 0.5, m4 = 0.5, m5 = 0.5, m6 = 0.5, m7 = 0.5, m8 = 0.5;
    var rr = 0.5, sideC = 0.5, rx = 0.5, ry = 0.5, dx = 0.5, dy = 0.5, dz = 0.5, best = 0.5, nx = 0.5, ny = 0.5, nz = 0.5;
    var a = 0.5, b = 0.5, disc = 0.5, t = 0.5, y = 0.5, py = 0.5, x = 0.5, z = 0.5;
    m0 = +F64[mAt >> 3]; m1 = +F64[(mAt + 8) >> 3]; m2 = +F64[(mAt + 16) >> 3];
    m3 = +F64[(mAt + 24) >> 3]; m4 = +F64[(mAt + 32) >> 3]; m5 = +F64[(mAt + 40) >> 3];
    m6 = +F64[(mAt + 48) >> 3]; m7 = +F64[(mAt + 56) >> 3]; m8 = +F64[(mAt + 64) >> 3];
    rr = r * r;
    sideC = ox * ox + oz * oz - rr;
    for (row = r0; (row | 0) <= (r1 | 0); row = (row + step) | 0) {
      ry = +F64[(rayYAt + (row << 3)) >> 3];
      for (col = c0; (col | 0) <= (c1 | 0); col = (col + step) | 0) {
        rx = +F64[(rayXAt + (col << 3)) >> 3];
        // The pixel's ray (rx, ry, −1) in local coordinates: mᵀ·r. Its parameter t is the z-depth.
        dx = m0 * rx + m3 * ry - m6;
        dy = m1 * rx + m4 * ry - m7;
        dz = m2 * rx + m5 * ry - m8;
        best = infinity;
        nx = zero; ny = zero; nz = zero;
        if ((type | 0) == 1) {
          a = dx * dx + dy * dy + dz * dz;
          b = ox * dx + oy * dy + oz * dz;
          disc = b * b - a * (ox * ox + oy * oy + oz * oz - rr);
          if (disc >= zero) {
            t = (-b - sqrt(disc)) / a;
            if (t > near) {
              best = t;
              nx = (ox + t * dx) / r;
              ny = (oy + t * dy) / r;
              nz = (oz + t * dz) / r;
            }
          }
        } else {
          // The side (capsules and cylinders).
          a = dx * dx + dz * dz;
          if (a != zero) {
            b = ox * dx + oz * dz;
            disc = b * b - a * sideC;
            if (disc >= zero) {
              t = (-b - sqrt(disc)) / a;
              y = oy + t * dy;
              if (t > near) if (!(y < -half)) if (!(y > half)) {
                best = t;
                nx = (ox + t * dx) / r;
                ny = zero;
                nz = (oz + t * dz) / r;
              }
            }
          }
          if ((type | 0) == 2) {
            // The end spheres at y = +half, then y = −half.
            a = dx * dx + dy * dy + dz * dz;
            for (end = 0; (end | 0) < 2; end = (end + 1) | 0) {
              if ((end | 0) == 0) py = oy - half;
              else py = oy - -half;
              b = ox * dx + py * dy + oz * dz;
              disc = b * b - a * (ox * ox + py * py + oz * oz - rr);
              if (disc < zero) continue;
              t = (-b - sqrt(disc)) / a;
              if (t > near) if (t < best) {
                best = t;
                nx = (ox + t * dx) / r;
                ny = (py + t * dy) / r;
                nz = (oz + t * dz) / r;
              }
            }
          } else if (dy != zero) if (hasCap) {
            t = (capY - oy) / dy;
            if (t > near) {
              x = ox + t * dx;
              z = oz + t * dz;
              if (!(x * x + z * z > rr)) if (t < best) {
                best = t;
                nx = zero;
                ny = capNy;
                nz = zero;
              }
            }
          }
        }
        at = ((imul(row, width) | 0) + col) << 2;
        if (best < +F32[(depthAt + at) >> 2]) if (best <= far) {
          F32[(depthAt + at) >> 2] = best;
          I32[(idAt + at) >> 2] = face;
          // The normal is local; the ray is local too, so their angle needs no transform.
          if (withIncidence) F32[(incidenceAt + at) >> 2] = abs(nx * dx + ny * dy + nz * dz) / sqrt(dx * dx + dy * dy + dz * dz);
        }
      }
    }
  }

  return { layout: setLayout, polygon: drawPolygon, curved: drawCurved };
}
