/**
 * The naive depth image: one exact ray cast per pixel against every primitive. It is the rasterizer's
 * accuracy reference in tests and its baseline in benchmarks; the sensor itself never uses it.
 */
import type { RasterCamera } from './depth-raster.js';
import { intersectLocal } from './ray-intersect.js';
import type { SceneGeometry } from './scene-geometry.js';

const normal = new Float64Array(3);

/** Fills `depth` (z-depth, Infinity for no hit) for the primitives whose kind bit is in `kinds`. */
export function rayCastDepth(g: SceneGeometry, camera: RasterCamera, kinds: number, depth: Float32Array): void {
  const { width, height, fx, fy, cx, cy, near, far } = camera;
  const R = camera.rotation;
  for (let row = 0; row < height; row++) {
    const ry = -(row + 0.5 - cy) / fy;
    for (let col = 0; col < width; col++) {
      const rx = (col + 0.5 - cx) / fx;
      // The pixel's ray in world coordinates: Rᵀ·(rx, ry, −1).
      const wx = R[0] * rx + R[3] * ry - R[6];
      const wy = R[1] * rx + R[4] * ry - R[7];
      const wz = R[2] * rx + R[5] * ry - R[8];
      let best = Infinity;
      for (let i = 0; i < g.count; i++) {
        if (!g.enabled(i) || ((1 << g.kind(i)) & kinds) === 0) continue;
        // Into the primitive's frame.
        const px = camera.position[0] - g.position[i * 3], py = camera.position[1] - g.position[i * 3 + 1], pz = camera.position[2] - g.position[i * 3 + 2];
        const ox = g.rot(i, 0, 0) * px + g.rot(i, 0, 1) * py + g.rot(i, 0, 2) * pz;
        const oy = g.rot(i, 1, 0) * px + g.rot(i, 1, 1) * py + g.rot(i, 1, 2) * pz;
        const oz = g.rot(i, 2, 0) * px + g.rot(i, 2, 1) * py + g.rot(i, 2, 2) * pz;
        const dx = g.rot(i, 0, 0) * wx + g.rot(i, 0, 1) * wy + g.rot(i, 0, 2) * wz;
        const dy = g.rot(i, 1, 0) * wx + g.rot(i, 1, 1) * wy + g.rot(i, 1, 2) * wz;
        const dz = g.rot(i, 2, 0) * wx + g.rot(i, 2, 1) * wy + g.rot(i, 2, 2) * wz;
        const t = intersectLocal(g, i, ox, oy, oz, dx, dy, dz, near, normal);
        if (t < best) best = t;
      }
      depth[row * width + col] = best <= far ? best : Infinity;
    }
  }
}
