/**
 * A CPU z-buffer rasterizer for depth images: the depth sensor's kernel.
 *
 * Planar faces (box faces, prism caps and sides) are clipped against the near plane, projected and
 * scan-converted as convex polygons with a top-left fill rule, so faces sharing an edge leave no cracks.
 * Each covered pixel's depth is exact: the ray through the pixel centre meets the face's plane at
 * z = d / (n · r). Curved primitives (spheres, capsules, cylinders) are solved exactly per pixel, but only
 * within their projected bounds. The result matches a per-pixel analytic ray cast to float precision, at a
 * fraction of its cost.
 *
 * Depth is z-depth: distance along the camera's −Z axis from the plane through the camera. Pixels are
 * row-major with the origin at the top left. Nothing is allocated per frame.
 *
 * Every pixel's value is a pure function of that pixel's ray and the scene, so a render can be limited to a
 * lattice (every other pixel of every other row, what plane detection reads) with the same values there.
 * Primitives wholly outside the view frustum are skipped; a curved primitive is solved only within the
 * projection of its bounding box clipped to the near plane.
 *
 * This file and `raster-curved.ts` decide what to draw where (culling, transforms, clipping, projection,
 * bounds); the per-pixel loops are an asm.js module (`raster-asm.ts`) whose heap holds all the buffers, so
 * `depth`, `id`, `incidence` and the ray tables are views of one ArrayBuffer. Any change here must keep
 * every output bit-identical to `test/helpers/reference-depth-raster.ts` (see its test).
 */
import { boxFace, faceId, PRISM_BOTTOM_FACE, PRISM_SIDE_FACE, PRISM_TOP_FACE, type RasterCamera } from './raster-camera.js';
import { alignUp, CurvedRasterizer } from './raster-curved.js';
import { MAX_POLYGON_VERTICES, RASTER_ASM_FOREIGN, rasterAsm, rasterHeap, type RasterAsm } from './raster-asm.js';
import { PrimitiveType, type SceneGeometry } from './scene-geometry.js';

export { boxFace, CURVED_FACE, faceId, FACES_PER_PRIMITIVE, pinholeCamera, primitiveOfFace, PRISM_BOTTOM_FACE, PRISM_SIDE_FACE, PRISM_TOP_FACE, setCameraPose, type RasterCamera } from './raster-camera.js';

/** Kinds to draw, as bits: 1 static, 2 dynamic, 4 hand parts. */
export const DRAW_STATIC = 1;
export const DRAW_DYNAMIC = 2;
export const DRAW_HANDS = 4;

/** The rasterizer's buffers for one resolution. */
export class DepthRaster {
  /** z-depth per pixel, metres; Infinity where nothing is within [near, far]. */
  readonly depth: Float32Array;
  /** Per pixel: the face id it shows ({@link faceId}), or −1. */
  readonly id: Int32Array;
  /** Per pixel: |cos| of the angle between the pixel's ray and the surface normal (when {@link withIncidence}). */
  readonly incidence: Float32Array;
  /**
   * Whether renders fill `incidence` (depth noise needs it; a picture does not: images for videos and
   * judges skip it, a division and two memory accesses per pixel drawn).
   */
  withIncidence = true;
  // Scratch for polygon clipping and projection (a polygon of up to 64 points gains at most one vertex from the near-plane clip).
  private readonly px = new Float64Array(80);
  private readonly py = new Float64Array(80);
  private readonly pz = new Float64Array(80);
  private readonly qx = new Float64Array(80);
  private readonly qy = new Float64Array(80);
  private readonly qz = new Float64Array(80);
  /** The projected polygon being drawn, image coordinates (views of the loops' heap). */
  private readonly u: Float64Array;
  private readonly v: Float64Array;
  /** The per-pixel loops (raster-asm.ts), on the heap that holds every buffer here (for this rasterizer and its curved pass). */
  readonly asm: RasterAsm;
  /** Bytes of the loops' heap (the buffer of `depth`, `id` and the ray tables) the rasterizer uses; the rest is free (plane observation's kernel may use it). */
  readonly heapUsed: number;
  /** The camera←local rotation of the primitive being drawn (a view of the loops' heap). */
  private readonly m: Float64Array;
  private readonly t = new Float64Array(3);
  private readonly curved = new CurvedRasterizer();
  /** Per column: the x of the pixel-centre ray (rx, ry, −1); per row: its y; per pixel: the ray's length. */
  readonly rayX: Float64Array;
  readonly rayY: Float64Array;
  private readonly rayLength: Float64Array;
  /** The intrinsics the ray tables were made for. */
  private readonly intrinsics = new Float64Array(4).fill(NaN);
  /** The four side planes of the view frustum in camera coordinates (unit normals pointing inside): left, right, top, bottom. */
  private readonly sides = new Float64Array(12);
  /** What the side planes were made for: rowMin, rowMax, colMin, colMax, fx, fy, cx, cy. */
  private readonly window = new Float64Array(8).fill(NaN);
  /** Pixel lattice of the current render: 1 every pixel, 2 every other pixel of every other row. */
  lattice = 1;
  /** The window of the current render: only rows `rowMin`..`rowMax` and columns `colMin`..`colMax` are written. */
  rowMin = 0;
  rowMax = 0;
  colMin = 0;
  colMax = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const pixels = width * height;
    const at = rasterHeap(width, height);
    const heap = new ArrayBuffer(at.bytes);
    this.depth = new Float32Array(heap, at.depth, pixels);
    this.id = new Int32Array(heap, at.id, pixels);
    this.incidence = new Float32Array(heap, at.incidence, pixels);
    this.rayX = new Float64Array(heap, at.rayX, width);
    this.rayY = new Float64Array(heap, at.rayY, height);
    this.rayLength = new Float64Array(heap, at.rayLength, pixels);
    this.u = new Float64Array(heap, at.u, MAX_POLYGON_VERTICES);
    this.v = new Float64Array(heap, at.v, MAX_POLYGON_VERTICES);
    this.m = new Float64Array(heap, at.m, 9);
    this.heapUsed = at.used;
    this.asm = rasterAsm(globalThis, RASTER_ASM_FOREIGN, heap);
    this.asm.layout(width, at.depth, at.id, at.incidence, at.rayX, at.rayY, at.rayLength, at.u, at.v, at.m);
  }

  /**
   * Renders the enabled primitives whose kind bit is in `kinds` (see DRAW_*). With `lattice` 2, only pixels
   * in even rows and even columns are written (the others keep whatever they held). With a window (rows
   * `rowMin`..`rowMax`, columns `colMin`..`colMax`; lattice 1 only) only its pixels are written, with the
   * values a whole render gives them, and only primitives that can reach it are drawn: an app that reads a
   * few pixels needs only those and their neighbours.
   */
  render(g: SceneGeometry, camera: RasterCamera, kinds: number, lattice = 1, rowMin = 0, rowMax = this.height - 1, colMin = 0, colMax = this.width - 1): void {
    if (colMin === 0 && colMax === this.width - 1) {
      this.depth.fill(Infinity, rowMin * this.width, (rowMax + 1) * this.width);
      this.id.fill(-1, rowMin * this.width, (rowMax + 1) * this.width);
    } else {
      for (let row = rowMin; row <= rowMax; row++) {
        this.depth.fill(Infinity, row * this.width + colMin, row * this.width + colMax + 1);
        this.id.fill(-1, row * this.width + colMin, row * this.width + colMax + 1);
      }
    }
    this.lattice = lattice;
    this.rowMin = rowMin;
    this.rowMax = rowMax;
    this.colMin = colMin;
    this.colMax = colMax;
    this.prepare(camera);
    this.frameWindow(camera, rowMin, rowMax, colMin, colMax);
    for (let i = 0; i < g.count; i++) {
      if (!g.enabled(i) || ((1 << g.kind(i)) & kinds) === 0) continue;
      if (this.culled(g, i, camera)) continue;
      this.cameraFromLocal(g, i, camera);
      const type = g.type(i);
      if (type === PrimitiveType.Box) this.drawBox(g, i, camera);
      else if (type === PrimitiveType.Prism) this.drawPrism(g, i, camera);
      else this.curved.draw(g, i, camera, this.m, this.t, this);
    }
  }

  /** The ray tables for `camera`'s intrinsics (rebuilt only when they change). */
  private prepare(camera: RasterCamera): void {
    const { fx, fy, cx, cy, width, height } = camera;
    const k = this.intrinsics;
    if (k[0] === fx && k[1] === fy && k[2] === cx && k[3] === cy) return;
    k[0] = fx; k[1] = fy; k[2] = cx; k[3] = cy;
    for (let col = 0; col < width; col++) this.rayX[col] = (col + 0.5 - cx) / fx;
    for (let row = 0; row < height; row++) this.rayY[row] = -(row + 0.5 - cy) / fy;
    for (let row = 0; row < height; row++) {
      const ry = this.rayY[row];
      for (let col = 0; col < width; col++) {
        const rx = this.rayX[col];
        this.rayLength[row * width + col] = Math.sqrt(rx * rx + ry * ry + 1);
      }
    }
  }

  /** The frustum's side planes for a window of the image (the image's edges when it is all of it). */
  private frameWindow(camera: RasterCamera, rowMin: number, rowMax: number, colMin: number, colMax: number): void {
    const w = this.window;
    const { fx, fy, cx, cy } = camera;
    if (w[0] === rowMin && w[1] === rowMax && w[2] === colMin && w[3] === colMax && w[4] === fx && w[5] === fy && w[6] === cx && w[7] === cy) return;
    w[0] = rowMin; w[1] = rowMax; w[2] = colMin; w[3] = colMax; w[4] = fx; w[5] = fy; w[6] = cx; w[7] = cy;
    // u ≥ colMin, u ≤ colMax + 1, v ≥ rowMin and v ≤ rowMax + 1 as planes through the camera, n · p ≥ 0
    // inside (u = cx + fx·x / −z, v = cy − fy·y / −z).
    const planes = [fx, 0, -(cx - colMin), -fx, 0, -(colMax + 1 - cx), 0, -fy, -(cy - rowMin), 0, fy, -(rowMax + 1 - cy)];
    for (let p = 0; p < 4; p++) {
      const n = Math.hypot(planes[p * 3], planes[p * 3 + 1], planes[p * 3 + 2]);
      for (let c = 0; c < 3; c++) this.sides[p * 3 + c] = planes[p * 3 + c] / n;
    }
  }

  /** m = camera←local rotation, t = the primitive's origin in camera coordinates. */
  private cameraFromLocal(g: SceneGeometry, i: number, camera: RasterCamera): void {
    const R = camera.rotation;
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        // (world→camera) · (local→world); local→world is the transpose of the stored world→local.
        this.m[r * 3 + c] = R[r * 3] * g.rot(i, c, 0) + R[r * 3 + 1] * g.rot(i, c, 1) + R[r * 3 + 2] * g.rot(i, c, 2);
      }
    }
    const dx = g.position[i * 3] - camera.position[0];
    const dy = g.position[i * 3 + 1] - camera.position[1];
    const dz = g.position[i * 3 + 2] - camera.position[2];
    this.t[0] = R[0] * dx + R[1] * dy + R[2] * dz;
    this.t[1] = R[3] * dx + R[4] * dy + R[5] * dz;
    this.t[2] = R[6] * dx + R[7] * dy + R[8] * dz;
  }

  /** True if the primitive's bounding sphere lies wholly outside the view frustum (near, far and sides). */
  private culled(g: SceneGeometry, i: number, camera: RasterCamera): boolean {
    const b = g.bounds;
    const cx = (b[i * 6] + b[i * 6 + 3]) / 2 - camera.position[0];
    const cy = (b[i * 6 + 1] + b[i * 6 + 4]) / 2 - camera.position[1];
    const cz = (b[i * 6 + 2] + b[i * 6 + 5]) / 2 - camera.position[2];
    const radius = Math.hypot(b[i * 6 + 3] - b[i * 6], b[i * 6 + 4] - b[i * 6 + 1], b[i * 6 + 5] - b[i * 6 + 2]) / 2;
    const R = camera.rotation;
    const z = R[6] * cx + R[7] * cy + R[8] * cz;
    if (z - radius > -camera.near || -z - radius > camera.far) return true;
    const x = R[0] * cx + R[1] * cy + R[2] * cz;
    const y = R[3] * cx + R[4] * cy + R[5] * cz;
    const n = this.sides;
    // A margin of a millimetre keeps the test conservative against rounding.
    for (let p = 0; p < 12; p += 3) if (n[p] * x + n[p + 1] * y + n[p + 2] * z < -radius - 1e-3) return true;
    return false;
  }

  private drawBox(g: SceneGeometry, i: number, camera: RasterCamera): void {
    const m = this.m;
    const t = this.t;
    for (let axis = 0; axis < 3; axis++) {
      const a = (axis + 1) % 3;
      const b = (axis + 2) % 3;
      const h = g.params[i * 3 + axis], ha = g.params[i * 3 + a], hb = g.params[i * 3 + b];
      for (let s = -1; s <= 1; s += 2) {
        // Face normal and centre in camera coordinates; skip faces turned away from the camera.
        const nx = s * m[axis], ny = s * m[3 + axis], nz = s * m[6 + axis];
        const ox = t[0] + nx * h, oy = t[1] + ny * h, oz = t[2] + nz * h;
        const d = nx * ox + ny * oy + nz * oz;
        if (d >= 0) continue;
        // The four corners, in order around the face: centre ± ha·A_a ± hb·A_b.
        for (let k = 0; k < 4; k++) {
          const sa = k === 1 || k === 2 ? ha : -ha;
          const sb = k >= 2 ? hb : -hb;
          this.px[k] = ox + sa * m[a] + sb * m[b];
          this.py[k] = oy + sa * m[3 + a] + sb * m[3 + b];
          this.pz[k] = oz + sa * m[6 + a] + sb * m[6 + b];
        }
        this.fillPolygon(4, nx, ny, nz, d, faceId(i, boxFace(axis, s)), camera);
      }
    }
  }

  private drawPrism(g: SceneGeometry, i: number, camera: RasterCamera): void {
    const half = g.params[i * 3];
    const start = g.polygonRange[i * 2];
    const count = g.polygonRange[i * 2 + 1];
    const poly = g.polygons;
    const toCamera = (lx: number, ly: number, lz: number, k: number) => {
      this.px[k] = this.t[0] + this.m[0] * lx + this.m[1] * ly + this.m[2] * lz;
      this.py[k] = this.t[1] + this.m[3] * lx + this.m[4] * ly + this.m[5] * lz;
      this.pz[k] = this.t[2] + this.m[6] * lx + this.m[7] * ly + this.m[8] * lz;
    };
    // Caps at ±half: normal ±Y.
    for (let s = -1; s <= 1; s += 2) {
      const nx = s * this.m[1], ny = s * this.m[4], nz = s * this.m[7];
      toCamera(0, s * half, 0, 0);
      const d = nx * this.px[0] + ny * this.py[0] + nz * this.pz[0];
      if (d >= 0) continue;
      for (let v = 0; v < count; v++) toCamera(poly[(start + v) * 2], s * half, poly[(start + v) * 2 + 1], v);
      this.fillPolygon(count, nx, ny, nz, d, faceId(i, s > 0 ? PRISM_TOP_FACE : PRISM_BOTTOM_FACE), camera);
    }
    // Sides: one quad per edge, outward normal (−ez, 0, ex)/|e| in local coordinates.
    for (let v = 0; v < count; v++) {
      const w = (v + 1) % count;
      const ax = poly[(start + v) * 2], az = poly[(start + v) * 2 + 1];
      const bx = poly[(start + w) * 2], bz = poly[(start + w) * 2 + 1];
      const ex = bx - ax, ez = bz - az;
      const length = Math.sqrt(ex * ex + ez * ez);
      const lnx = -ez / length, lnz = ex / length;
      const nx = this.m[0] * lnx + this.m[2] * lnz, ny = this.m[3] * lnx + this.m[5] * lnz, nz = this.m[6] * lnx + this.m[8] * lnz;
      toCamera(ax, -half, az, 0);
      toCamera(bx, -half, bz, 1);
      toCamera(bx, half, bz, 2);
      toCamera(ax, half, az, 3);
      const d = nx * this.px[0] + ny * this.py[0] + nz * this.pz[0];
      if (d >= 0) continue;
      this.fillPolygon(4, nx, ny, nz, d, faceId(i, PRISM_SIDE_FACE), camera);
    }
  }

  /**
   * Clips the polygon in px/py/pz (n vertices, camera coordinates) to z ≤ −near, projects it and fills it.
   * The plane is n · p = d in camera coordinates (d < 0 for a face turned toward the camera).
   */
  private fillPolygon(n: number, nx: number, ny: number, nz: number, d: number, id: number, camera: RasterCamera): void {
    const m = this.clipToNear(n, -camera.near);
    if (m < 3) return;
    const { fx, fy, cx, cy } = camera;
    const u = this.u;
    const v = this.v;
    let vmin = Infinity;
    let vmax = -Infinity;
    for (let k = 0; k < m; k++) {
      u[k] = cx + (fx * this.qx[k]) / -this.qz[k];
      v[k] = cy - (fy * this.qy[k]) / -this.qz[k];
      if (v[k] < vmin) vmin = v[k];
      if (v[k] > vmax) vmax = v[k];
    }
    // Rows whose centre (row + 0.5) lies in [vmin, vmax): top-left rule.
    const step = this.lattice;
    const rowStart = alignUp(Math.max(this.rowMin, Math.ceil(vmin - 0.5)), step);
    const rowEnd = Math.min(this.rowMax, Math.ceil(vmax - 0.5) - 1);
    if (rowStart > rowEnd) return;
    this.asm.polygon(m, rowStart, rowEnd, step, this.colMin, this.colMax, nx, ny, nz, d, camera.far, id, this.withIncidence ? 1 : 0);
  }

  /** Clips the polygon in px/py/pz (n vertices) to z ≤ zc into qx/qy/qz; returns the clipped vertex count. */
  private clipToNear(n: number, zc: number): number {
    const { px, py, pz, qx, qy, qz } = this;
    let m = 0;
    for (let k = 0; k < n; k++) {
      const j = k + 1 === n ? 0 : k + 1;
      const inK = pz[k] <= zc;
      const inJ = pz[j] <= zc;
      if (inK) {
        qx[m] = px[k];
        qy[m] = py[k];
        qz[m] = pz[k];
        m++;
      }
      if (inK !== inJ) {
        const s = (zc - pz[k]) / (pz[j] - pz[k]);
        qx[m] = px[k] + s * (px[j] - px[k]);
        qy[m] = py[k] + s * (py[j] - py[k]);
        qz[m] = zc;
        m++;
      }
    }
    return m;
  }
}
