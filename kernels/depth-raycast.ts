/**
 * The naive depth image: one exact ray cast per pixel against every primitive. It is the rasterizer's
 * accuracy reference in tests and its baseline in benchmarks; the sensor itself never uses it.
 */
import type { RasterCamera } from './raster-camera.js';
import { castRay } from './ray-intersect.js';
import type { SceneGeometry } from './scene-geometry.js';

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
      const best = castRay(g, kinds, camera.position[0], camera.position[1], camera.position[2], wx, wy, wz, near);
      depth[row * width + col] = best <= far ? best : Infinity;
    }
  }
}
