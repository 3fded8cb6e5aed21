/**
 * Exact ray–primitive intersection, in a primitive's own frame. Used by the analytic depth ray cast (the
 * rasterizer's accuracy reference), by the rasterizer itself for curved primitives, and by hit tests.
 * Allocation-free: results go into a caller's array.
 */
import { PrimitiveType, type SceneGeometry } from './scene-geometry.js';

const hitNormal = new Float64Array(3);

/**
 * The nearest hit of the world ray o + t·d (t > `tMin`) on the enabled primitives whose kind bit is in
 * `kinds` (bit k for kind k): its t, or Infinity. With a unit d, t is the distance.
 */
export function castRay(
  g: SceneGeometry,
  kinds: number,
  px: number, py: number, pz: number,
  wx: number, wy: number, wz: number,
  tMin: number,
): number {
  let best = Infinity;
  for (let i = 0; i < g.count; i++) {
    if (!g.enabled(i) || ((1 << g.kind(i)) & kinds) === 0) continue;
    if (!rayMeetsBox(g.bounds, i * 6, px, py, pz, wx, wy, wz, tMin, best)) continue;
    // Into the primitive's frame.
    const rx = px - g.position[i * 3], ry = py - g.position[i * 3 + 1], rz = pz - g.position[i * 3 + 2];
    const ox = g.rot(i, 0, 0) * rx + g.rot(i, 0, 1) * ry + g.rot(i, 0, 2) * rz;
    const oy = g.rot(i, 1, 0) * rx + g.rot(i, 1, 1) * ry + g.rot(i, 1, 2) * rz;
    const oz = g.rot(i, 2, 0) * rx + g.rot(i, 2, 1) * ry + g.rot(i, 2, 2) * rz;
    const dx = g.rot(i, 0, 0) * wx + g.rot(i, 0, 1) * wy + g.rot(i, 0, 2) * wz;
    const dy = g.rot(i, 1, 0) * wx + g.rot(i, 1, 1) * wy + g.rot(i, 1, 2) * wz;
    const dz = g.rot(i, 2, 0) * wx + g.rot(i, 2, 1) * wy + g.rot(i, 2, 2) * wz;
    const t = intersectLocal(g, i, ox, oy, oz, dx, dy, dz, tMin, hitNormal);
    if (t < best) best = t;
  }
  return best;
}

/** Bounding boxes are grown by this (metres) before the ray is tested against them, against rounding. */
const BOX_MARGIN = 1e-6;

/**
 * Whether the ray p + t·w can meet the axis-aligned box `b[o..o+5]` (min xyz, max xyz), grown by a margin,
 * for some t in (tMin, tMax): a conservative test, so a primitive it rejects is never hit.
 */
function rayMeetsBox(b: Float64Array, o: number, px: number, py: number, pz: number, wx: number, wy: number, wz: number, tMin: number, tMax: number): boolean {
  let near = tMin;
  let far = tMax;
  for (let axis = 0; axis < 3; axis++) {
    const p = axis === 0 ? px : axis === 1 ? py : pz;
    const w = axis === 0 ? wx : axis === 1 ? wy : wz;
    const lo = b[o + axis] - BOX_MARGIN;
    const hi = b[o + 3 + axis] + BOX_MARGIN;
    if (w === 0) {
      if (p < lo || p > hi) return false;
      continue;
    }
    const ta = (lo - p) / w;
    const tb = (hi - p) / w;
    const t0 = ta < tb ? ta : tb;
    const t1 = ta < tb ? tb : ta;
    if (t0 > near) near = t0;
    if (t1 < far) far = t1;
    if (near > far) return false;
  }
  return true;
}

/**
 * Intersects the ray o + t·d (primitive `i`'s local frame; d need not be unit length) with primitive `i`.
 * Returns the smallest t > `tMin`, or Infinity, and writes the local outward normal into `normal`.
 */
export function intersectLocal(
  g: SceneGeometry,
  i: number,
  ox: number, oy: number, oz: number,
  dx: number, dy: number, dz: number,
  tMin: number,
  normal: Float64Array,
): number {
  const a = g.params[i * 3], b = g.params[i * 3 + 1], c = g.params[i * 3 + 2];
  switch (g.type(i)) {
    case PrimitiveType.Box:
      return slab(ox, oy, oz, dx, dy, dz, a, b, c, tMin, normal);
    case PrimitiveType.Sphere:
      return sphere(ox, oy, oz, dx, dy, dz, 0, a, tMin, normal);
    case PrimitiveType.Capsule: {
      // The nearest of the cylinder side and the two end spheres.
      let best = cylinderSide(ox, oy, oz, dx, dy, dz, a, b, tMin, normal);
      const n0 = normal[0], n1 = normal[1], n2 = normal[2];
      const top = sphere(ox, oy, oz, dx, dy, dz, b, a, tMin, scratch);
      if (top < best) {
        best = top;
        normal.set(scratch);
      } else {
        normal[0] = n0;
        normal[1] = n1;
        normal[2] = n2;
      }
      const bottom = sphere(ox, oy, oz, dx, dy, dz, -b, a, tMin, scratch);
      if (bottom < best) {
        best = bottom;
        normal.set(scratch);
      }
      return best;
    }
    case PrimitiveType.Cylinder: {
      let best = cylinderSide(ox, oy, oz, dx, dy, dz, a, b, tMin, normal);
      const cap = disc(ox, oy, oz, dx, dy, dz, a, b, tMin, scratch);
      if (cap < best) {
        best = cap;
        normal.set(scratch);
      }
      return best;
    }
    default:
      return prism(g, i, ox, oy, oz, dx, dy, dz, a, tMin, normal);
  }
}

const scratch = new Float64Array(3);

/** Ray against the box [−a, a] × [−b, b] × [−c, c]. */
function slab(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, a: number, b: number, c: number, tMin: number, n: Float64Array): number {
  let near = -Infinity;
  let far = Infinity;
  let axis = -1;
  let sign = 0;
  const o = [ox, oy, oz];
  const d = [dx, dy, dz];
  const h = [a, b, c];
  for (let k = 0; k < 3; k++) {
    if (d[k] === 0) {
      if (o[k] < -h[k] || o[k] > h[k]) return Infinity;
      continue;
    }
    let t0 = (-h[k] - o[k]) / d[k];
    let t1 = (h[k] - o[k]) / d[k];
    let s = -1;
    if (t0 > t1) {
      const t = t0;
      t0 = t1;
      t1 = t;
      s = 1;
    }
    if (t0 > near) {
      near = t0;
      axis = k;
      sign = s;
    }
    if (t1 < far) far = t1;
    if (near > far) return Infinity;
  }
  if (near <= tMin || axis < 0) return Infinity; // the ray starts inside, or behind
  n[0] = n[1] = n[2] = 0;
  n[axis] = sign;
  return near;
}

/** Ray against a sphere of radius r centred at (0, cy, 0). */
function sphere(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, cy: number, r: number, tMin: number, n: Float64Array): number {
  const py = oy - cy;
  const A = dx * dx + dy * dy + dz * dz;
  const B = ox * dx + py * dy + oz * dz;
  const C = ox * ox + py * py + oz * oz - r * r;
  const disc = B * B - A * C;
  if (disc < 0) return Infinity;
  const t = (-B - Math.sqrt(disc)) / A;
  if (t <= tMin) return Infinity;
  n[0] = (ox + t * dx) / r;
  n[1] = (py + t * dy) / r;
  n[2] = (oz + t * dz) / r;
  return t;
}

/** Ray against the side of a cylinder of radius r along Y, |y| ≤ half. */
function cylinderSide(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, r: number, half: number, tMin: number, n: Float64Array): number {
  const A = dx * dx + dz * dz;
  if (A === 0) return Infinity;
  const B = ox * dx + oz * dz;
  const C = ox * ox + oz * oz - r * r;
  const disc = B * B - A * C;
  if (disc < 0) return Infinity;
  const t = (-B - Math.sqrt(disc)) / A;
  if (t <= tMin) return Infinity;
  const y = oy + t * dy;
  if (y < -half || y > half) return Infinity;
  n[0] = (ox + t * dx) / r;
  n[1] = 0;
  n[2] = (oz + t * dz) / r;
  return t;
}

/** Ray against the two end discs (radius r) of a cylinder at y = ±half. */
function disc(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, r: number, half: number, tMin: number, n: Float64Array): number {
  if (dy === 0) return Infinity;
  let best = Infinity;
  // The top cap, then the bottom one (a loop over a literal array would allocate per pixel).
  for (let cap = 0; cap < 2; cap++) {
    const y = cap === 0 ? half : -half;
    const t = (y - oy) / dy;
    if (t <= tMin || t >= best) continue;
    const x = ox + t * dx, z = oz + t * dz;
    if (x * x + z * z > r * r) continue;
    // Only the face seen from outside counts: the ray must come from that side.
    if ((y > 0 && oy < half) || (y < 0 && oy > -half)) continue;
    best = t;
    n[0] = 0;
    n[1] = y > 0 ? 1 : -1;
    n[2] = 0;
  }
  return best;
}

/** Ray against a convex prism: the polygon's edge planes and the caps at ±half, by interval clipping. */
function prism(g: SceneGeometry, i: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, half: number, tMin: number, n: Float64Array): number {
  let near = -Infinity;
  let far = Infinity;
  let nx = 0, ny = 0, nz = 0;
  const clip = (px: number, py: number, pz: number, offset: number): boolean => {
    // Half-space p·x ≤ offset.
    const denom = px * dx + py * dy + pz * dz;
    const dist = px * ox + py * oy + pz * oz - offset;
    if (denom === 0) return dist <= 0;
    const t = -dist / denom;
    if (denom < 0) {
      if (t > near) {
        near = t;
        nx = px;
        ny = py;
        nz = pz;
      }
    } else if (t < far) {
      far = t;
    }
    return near <= far;
  };
  if (!clip(0, 1, 0, half) || !clip(0, -1, 0, half)) return Infinity;
  const start = g.polygonRange[i * 2];
  const count = g.polygonRange[i * 2 + 1];
  const p = g.polygons;
  for (let v = 0; v < count; v++) {
    const ax = p[(start + v) * 2], az = p[(start + v) * 2 + 1];
    const w = (v + 1) % count;
    const ex = p[(start + w) * 2] - ax, ez = p[(start + w) * 2 + 1] - az;
    const length = Math.sqrt(ex * ex + ez * ez);
    const ux = -ez / length, uz = ex / length;
    if (!clip(ux, 0, uz, ux * ax + uz * az)) return Infinity;
  }
  if (near <= tMin || !Number.isFinite(near)) return Infinity;
  n[0] = nx;
  n[1] = ny;
  n[2] = nz;
  return near;
}
