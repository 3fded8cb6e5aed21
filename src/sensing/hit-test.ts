/**
 * Hit tests: a ray against the detected planes (what WebXR's `plane` entity type sees) and, optionally,
 * against the latest depth frame (what a depth-based hit test sees, noise and holes included).
 *
 * Results are sorted by distance along the ray. Each result's pose has its Y axis along the surface
 * normal and its Z axis toward the ray's origin (projected onto the surface), so content placed with it
 * stands on the surface and faces the user.
 */
import { dot, quatAxes, quatFromAxes, sub } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { DepthSensor } from './depth-sensor.js';
import { insideConvex, type DetectedPlane } from './planes.js';

/** What a hit test looks at. */
export type HitTestEntity = 'plane' | 'depth';

/** One hit. */
export interface HitTestResult {
  /** The plane hit, or null for a depth hit. */
  plane: DetectedPlane | null;
  entity: HitTestEntity;
  /** Distance from the ray's origin, metres. */
  distance: number;
  /** World pose: position and quaternion `[x, y, z, w]`, Y along the surface normal. */
  position: Vec3;
  rotation: [number, number, number, number];
}

/** Step of the depth march, metres: finer than the sensor's millimetre quantisation needs, coarse enough to be cheap. */
const DEPTH_STEP = 0.005;

/** Casts a ray (origin, direction) against the detected planes, and the depth frame when given. */
export function hitTest(
  origin: Vec3,
  direction: Vec3,
  planes: Iterable<DetectedPlane>,
  depth: DepthSensor | null,
): HitTestResult[] {
  const length = Math.hypot(direction[0], direction[1], direction[2]);
  if (!(length > 0)) throw new RangeError('a hit-test ray needs a non-zero direction');
  const d: Vec3 = [direction[0] / length, direction[1] / length, direction[2] / length];
  const results: HitTestResult[] = [];
  for (const plane of planes) {
    const hit = rayPlane(origin, d, plane);
    if (hit) results.push(hit);
  }
  if (depth) {
    const hit = rayDepth(origin, d, depth);
    if (hit) results.push(hit);
  }
  return results.sort((a, b) => a.distance - b.distance);
}

function rayPlane(o: Vec3, d: Vec3, plane: DetectedPlane): HitTestResult | null {
  const p = plane.pose;
  const { x: X, y: n, z: Z } = quatAxes([p[3], p[4], p[5], p[6]]);
  const denominator = dot(n, d);
  // Only the front of a surface is hit, as on a headset.
  if (denominator > -1e-9) return null;
  const t = dot(n, sub(p, o)) / denominator;
  if (t < 0) return null;
  const point: Vec3 = [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
  const rel = sub(point, p);
  const u = dot(X, rel);
  const v = dot(Z, rel);
  if (!insideConvex(plane.polygon.map((q) => [q.x, q.z] as [number, number]), u, v)) return null;
  return { plane, entity: 'plane', distance: t, position: point, rotation: facingRotation(n, d, Z) };
}

/** Marches the ray through the depth frame until it passes behind the measured surface. */
function rayDepth(o: Vec3, d: Vec3, sensor: DepthSensor): HitTestResult | null {
  if (sensor.frameIndex < 0) return null;
  const { camera, reading } = sensor;
  const maxRange = sensor.model.noise.maxRange;
  const R = camera.rotation;
  const C = camera.position;
  /** Camera-space depth of a world point and the reading at its pixel (metres, 0 none), or null off-image. */
  const probe = (t: number): { z: number; measured: number; col: number; row: number } | null => {
    const wx = o[0] + t * d[0] - C[0], wy = o[1] + t * d[1] - C[1], wz = o[2] + t * d[2] - C[2];
    const x = R[0] * wx + R[1] * wy + R[2] * wz;
    const y = R[3] * wx + R[4] * wy + R[5] * wz;
    const z = -(R[6] * wx + R[7] * wy + R[8] * wz);
    if (z <= 1e-6) return null;
    const col = Math.floor(camera.cx + (camera.fx * x) / z);
    const row = Math.floor(camera.cy - (camera.fy * y) / z);
    if (col < 0 || row < 0 || col >= camera.width || row >= camera.height) return null;
    return { z, measured: reading[row * camera.width + col] * 0.001, col, row };
  };
  let previous = 0;
  for (let t = DEPTH_STEP; t <= maxRange * 2; t += DEPTH_STEP) {
    const s = probe(t);
    if (!s || s.measured === 0 || s.z < s.measured) {
      previous = t;
      continue;
    }
    // Bisect between the last sample in front of the surface and this one behind it.
    let lo = previous;
    let hi = t;
    for (let k = 0; k < 20; k++) {
      const mid = (lo + hi) / 2;
      const m = probe(mid);
      if (m && m.measured > 0 && m.z >= m.measured) hi = mid;
      else lo = mid;
    }
    const position: Vec3 = [o[0] + hi * d[0], o[1] + hi * d[1], o[2] + hi * d[2]];
    const normal = depthNormal(sensor, s.col, s.row) ?? ([-d[0], -d[1], -d[2]] as Vec3);
    return { plane: null, entity: 'depth', distance: hi, position, rotation: facingRotation(normal, d, null) };
  }
  return null;
}

/** The surface normal at a pixel from its neighbours' points (world), or null where the image has holes. */
function depthNormal(sensor: DepthSensor, col: number, row: number): Vec3 | null {
  const { camera, reading } = sensor;
  const point = (c: number, r: number): Vec3 | null => {
    if (c < 0 || r < 0 || c >= camera.width || r >= camera.height) return null;
    const z = reading[r * camera.width + c] * 0.001;
    if (z === 0) return null;
    const rx = (c + 0.5 - camera.cx) / camera.fx;
    const ry = -(r + 0.5 - camera.cy) / camera.fy;
    const R = camera.rotation;
    return [
      camera.position[0] + z * (R[0] * rx + R[3] * ry - R[6]),
      camera.position[1] + z * (R[1] * rx + R[4] * ry - R[7]),
      camera.position[2] + z * (R[2] * rx + R[5] * ry - R[8]),
    ];
  };
  const left = point(col - 1, row) ?? point(col, row);
  const right = point(col + 1, row) ?? point(col, row);
  const up = point(col, row - 1) ?? point(col, row);
  const down = point(col, row + 1) ?? point(col, row);
  if (!left || !right || !up || !down) return null;
  const a: Vec3 = [right[0] - left[0], right[1] - left[1], right[2] - left[2]];
  const b: Vec3 = [up[0] - down[0], up[1] - down[1], up[2] - down[2]];
  const n: Vec3 = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const length = Math.hypot(n[0], n[1], n[2]);
  if (length < 1e-12) return null;
  // Toward the camera.
  const toward = camera.position;
  const sign = n[0] * (toward[0] - left[0]) + n[1] * (toward[1] - left[1]) + n[2] * (toward[2] - left[2]) < 0 ? -1 : 1;
  return [(sign * n[0]) / length, (sign * n[1]) / length, (sign * n[2]) / length];
}

/** Y along the normal; Z toward where the ray came from, projected onto the surface (or `fallbackZ`). */
function facingRotation(normal: Vec3, d: Vec3, fallbackZ: Vec3 | null): [number, number, number, number] {
  const along = -(d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2]);
  let z: Vec3 = [-d[0] - along * normal[0], -d[1] - along * normal[1], -d[2] - along * normal[2]];
  if (Math.hypot(z[0], z[1], z[2]) < 1e-6) {
    // A ray straight along the normal: any in-plane direction will do, the plane's own Z if known.
    z = fallbackZ ?? (Math.abs(normal[1]) < 0.9 ? [0, 1, 0] : [0, 0, 1]);
  }
  return quatFromAxes(normal, z, 'y');
}
