/**
 * The depth rasterizer's curved primitives: spheres, capsules and cylinders, solved exactly per pixel (the
 * same intersection as the ray-cast reference), but only within the projection of the primitive's
 * bounding box clipped to the near plane. The per-pixel loop is the asm.js module's (`raster-asm.ts`);
 * this finds where it runs. Nothing is allocated per pixel or per frame.
 */
import { CURVED_FACE, faceId, type RasterCamera } from './raster-camera.js';
import type { RasterAsm } from './raster-asm.js';
import type { SceneGeometry } from './scene-geometry.js';

/** The raster a curved primitive is drawn into (the depth rasterizer, see `depth-raster.ts`). */
export interface CurvedTarget {
  /** 1: every pixel; 2: every other pixel of every other row. */
  readonly lattice: number;
  /** The window being rendered (rows and columns, inclusive; or all of the image). */
  readonly rowMin: number;
  readonly rowMax: number;
  readonly colMin: number;
  readonly colMax: number;
  /** Whether to fill `incidence`. */
  readonly withIncidence: boolean;
  /** The per-pixel loops, on the heap that holds the raster's buffers. */
  readonly asm: RasterAsm;
}

/** Scratch space for drawing curved primitives into a raster. */
export class CurvedRasterizer {
  private readonly half = new Float64Array(3);
  private readonly corners = new Float64Array(24);
  /** Projected bounds of the primitive being drawn: umin, umax, vmin, vmax. */
  private readonly bounds = new Float64Array(4);

  /**
   * Draws primitive `i` into `raster`'s buffers on its lattice. `m` is the camera←local rotation (row-major),
   * the heap's view where the asm.js loop reads it, and `t` the primitive's origin in camera coordinates.
   */
  draw(g: SceneGeometry, i: number, camera: RasterCamera, m: Float64Array, t: Float64Array, raster: CurvedTarget): void {
    const { near, far } = camera;
    if (!this.projectedBounds(g, i, camera, m, t)) return;
    const bounds = this.bounds;
    const step = raster.lattice;
    const c0 = alignUp(Math.max(raster.colMin, Math.floor(bounds[0] - 0.5)), step);
    const c1 = Math.min(raster.colMax, Math.ceil(bounds[1] - 0.5));
    const r0 = alignUp(Math.max(raster.rowMin, Math.floor(bounds[2] - 0.5)), step);
    const r1 = Math.min(raster.rowMax, Math.ceil(bounds[3] - 0.5));
    // Nothing to draw; and from here every bound is within the image, as the asm.js loop needs (int32).
    if (c0 > c1 || r0 > r1) return;
    // The camera origin in local coordinates: −mᵀ·t.
    const ox = -(m[0] * t[0] + m[3] * t[1] + m[6] * t[2]);
    const oy = -(m[1] * t[0] + m[4] * t[1] + m[7] * t[2]);
    const oz = -(m[2] * t[0] + m[5] * t[1] + m[8] * t[2]);
    const r = g.params[i * 3];
    const half = g.params[i * 3 + 1];
    // A cylinder's caps are seen only from outside: the top one (y = +half) from above it, the bottom one
    // from below it, neither from between them. So every pixel tries the same one cap (capY), if any. (A
    // cylinder of no height has one cap, y = 0 with normal −Y, as the two-cap test gave it.)
    const hasCap = !(half > 0) || oy >= half || oy <= -half;
    const capY = half > 0 && oy <= -half ? -half : half;
    const capNy = capY > 0 ? 1 : -1;
    raster.asm.curved(g.type(i), r0, r1, c0, c1, step, ox, oy, oz, r, half, hasCap ? 1 : 0, capY, capNy, near, far, faceId(i, CURVED_FACE), raster.withIncidence ? 1 : 0);
  }

  /**
   * The image rectangle (umin, umax, vmin, vmax into `bounds`) holding the projection of primitive `i`'s
   * local bounding box clipped to the near plane: the corners in front of it and the points where the box's
   * edges cross it. False if the whole box is behind it.
   */
  private projectedBounds(g: SceneGeometry, i: number, camera: RasterCamera, m: Float64Array, t: Float64Array): boolean {
    const near = camera.near;
    const h = this.half;
    g.writeLocalHalfExtents(i, h);
    const corner = this.corners;
    let front = 0;
    for (let k = 0; k < 8; k++) {
      const lx = k & 1 ? h[0] : -h[0], ly = k & 2 ? h[1] : -h[1], lz = k & 4 ? h[2] : -h[2];
      corner[k * 3] = t[0] + m[0] * lx + m[1] * ly + m[2] * lz;
      corner[k * 3 + 1] = t[1] + m[3] * lx + m[4] * ly + m[5] * lz;
      corner[k * 3 + 2] = t[2] + m[6] * lx + m[7] * ly + m[8] * lz;
      if (corner[k * 3 + 2] <= -near) front++;
    }
    if (front === 0) return false;
    const b = this.bounds;
    b[0] = Infinity; b[1] = -Infinity; b[2] = Infinity; b[3] = -Infinity;
    for (let k = 0; k < 8; k++) {
      const zk = corner[k * 3 + 2];
      if (zk <= -near) this.include(corner[k * 3], corner[k * 3 + 1], zk, camera);
      if (front === 8) continue;
      // Edges to the corners that differ in one axis bit; each edge once (from its lower corner).
      for (let bit = 1; bit < 8; bit <<= 1) {
        if (k & bit) continue;
        const j = k | bit;
        const zj = corner[j * 3 + 2];
        if (zk <= -near === zj <= -near) continue;
        const s = (-near - zk) / (zj - zk);
        this.include(corner[k * 3] + s * (corner[j * 3] - corner[k * 3]), corner[k * 3 + 1] + s * (corner[j * 3 + 1] - corner[k * 3 + 1]), -near, camera);
      }
    }
    return true;
  }

  /** Grows `bounds` to hold the projection of the camera-space point (x, y, z), z < 0. */
  private include(x: number, y: number, z: number, camera: RasterCamera): void {
    const b = this.bounds;
    const u = camera.cx + (camera.fx * x) / -z;
    const v = camera.cy - (camera.fy * y) / -z;
    if (u < b[0]) b[0] = u;
    if (u > b[1]) b[1] = u;
    if (v < b[2]) b[2] = v;
    if (v > b[3]) b[3] = v;
  }
}

/** The smallest multiple of `step` (1 or 2) at or above `n` (n ≥ 0). */
export function alignUp(n: number, step: number): number {
  return step === 1 ? n : n + (n % step);
}
