/**
 * Signed distance from a point to the nearest primitive of a scene geometry store. Hands query it every
 * tick (fingertips and palm against tables and walls), so it is plain arithmetic in JavaScript: no calls
 * into Rapier's WASM, no allocation. Only primitives whose bounding box, grown by the range, contains the
 * point are evaluated.
 */
import { PrimitiveType, type SceneGeometry } from './scene-geometry.js';

const local = new Float64Array(3);
const localNormal = new Float64Array(3);

/**
 * Signed distance from (x, y, z) to the nearest enabled primitive of kind `kind` within `range` (negative
 * inside). Writes the outward unit normal into `normal[0..2]` and the primitive's owner into `owner[0]`
 * (−1 when nothing is within range, in which case the result is `range`).
 */
export function signedDistance(g: SceneGeometry, kind: number, x: number, y: number, z: number, range: number, normal: Float64Array, owner: Int32Array): number {
  return signedDistanceAmong(g, g.ofKind[kind], g.kindCount[kind], x, y, z, range, normal, owner);
}

/**
 * {@link signedDistance} over the first `count` primitives of `members` (in their order): the same result
 * as over every primitive of a kind when `members` holds, in order, all of them that can be within range
 * (see {@link gatherNear}).
 */
export function signedDistanceAmong(g: SceneGeometry, members: Int32Array, count: number, x: number, y: number, z: number, range: number, normal: Float64Array, owner: Int32Array): number {
  let best = range;
  owner[0] = -1;
  const b = g.bounds;
  for (let m = 0; m < count; m++) {
    const i = members[m];
    const k = i * 6;
    if (x < b[k] - range || y < b[k + 1] - range || z < b[k + 2] - range || x > b[k + 3] + range || y > b[k + 4] + range || z > b[k + 5] + range) continue;
    if (!g.enabled(i)) continue;
    toLocal(g, i, x, y, z, local);
    const d = localDistance(g, i, local[0], local[1], local[2], localNormal);
    if (d < best) {
      best = d;
      owner[0] = g.owner(i);
      // Local normal back to world: the transpose of world→local.
      normal[0] = g.rot(i, 0, 0) * localNormal[0] + g.rot(i, 1, 0) * localNormal[1] + g.rot(i, 2, 0) * localNormal[2];
      normal[1] = g.rot(i, 0, 1) * localNormal[0] + g.rot(i, 1, 1) * localNormal[1] + g.rot(i, 2, 1) * localNormal[2];
      normal[2] = g.rot(i, 0, 2) * localNormal[0] + g.rot(i, 1, 2) * localNormal[1] + g.rot(i, 2, 2) * localNormal[2];
    }
  }
  return best;
}

/**
 * The primitives of kind `kind`, in order, whose bounds grown by `range` meet the box `box` (min x y z,
 * max x y z), into `out`; returns how many. Every point of the box is within `range` only of these, so
 * queries from points in it can skip the others ({@link signedDistanceAmong}). `out` must hold
 * `g.kindCount[kind]` entries.
 */
export function gatherNear(g: SceneGeometry, kind: number, box: Float64Array, range: number, out: Int32Array): number {
  const b = g.bounds;
  const members = g.ofKind[kind];
  const count = g.kindCount[kind];
  let n = 0;
  for (let m = 0; m < count; m++) {
    const k = members[m] * 6;
    if (box[3] < b[k] - range || box[4] < b[k + 1] - range || box[5] < b[k + 2] - range || box[0] > b[k + 3] + range || box[1] > b[k + 4] + range || box[2] > b[k + 5] + range) continue;
    out[n++] = members[m];
  }
  return n;
}

/** World point → primitive `i`'s frame, into `out`. */
export function toLocal(g: SceneGeometry, i: number, x: number, y: number, z: number, out: Float64Array): void {
  const px = x - g.position[i * 3], py = y - g.position[i * 3 + 1], pz = z - g.position[i * 3 + 2];
  out[0] = g.rot(i, 0, 0) * px + g.rot(i, 0, 1) * py + g.rot(i, 0, 2) * pz;
  out[1] = g.rot(i, 1, 0) * px + g.rot(i, 1, 1) * py + g.rot(i, 1, 2) * pz;
  out[2] = g.rot(i, 2, 0) * px + g.rot(i, 2, 1) * py + g.rot(i, 2, 2) * pz;
}

/** Signed distance in primitive `i`'s frame, with the local outward normal. */
function localDistance(g: SceneGeometry, i: number, x: number, y: number, z: number, n: Float64Array): number {
  const a = g.params[i * 3], b = g.params[i * 3 + 1], c = g.params[i * 3 + 2];
  switch (g.type(i)) {
    case PrimitiveType.Box:
      return boxDistance(x, y, z, a, b, c, n);
    case PrimitiveType.Sphere:
      return radial(x, y, z, a, n);
    case PrimitiveType.Capsule:
      return radial(x, y - Math.max(-b, Math.min(b, y)), z, a, n);
    case PrimitiveType.Cylinder:
      return cylinderDistance(x, y, z, a, b, n);
    default:
      return prismDistance(g, i, x, y, z, a, n);
  }
}

function boxDistance(x: number, y: number, z: number, a: number, b: number, c: number, n: Float64Array): number {
  const dx = Math.abs(x) - a, dy = Math.abs(y) - b, dz = Math.abs(z) - c;
  if (dx > 0 || dy > 0 || dz > 0) {
    const ox = Math.max(dx, 0), oy = Math.max(dy, 0), oz = Math.max(dz, 0);
    const length = Math.sqrt(ox * ox + oy * oy + oz * oz);
    n[0] = (Math.sign(x) * ox) / length;
    n[1] = (Math.sign(y) * oy) / length;
    n[2] = (Math.sign(z) * oz) / length;
    return length;
  }
  // Inside: the nearest face.
  n[0] = n[1] = n[2] = 0;
  if (dx >= dy && dx >= dz) {
    n[0] = x < 0 ? -1 : 1;
  } else if (dy >= dz) {
    n[1] = y < 0 ? -1 : 1;
  } else {
    n[2] = z < 0 ? -1 : 1;
  }
  return Math.max(dx, dy, dz);
}

function cylinderDistance(x: number, y: number, z: number, radius: number, half: number, n: Float64Array): number {
  const r = Math.sqrt(x * x + z * z);
  const dr = r - radius;
  const dy = Math.abs(y) - half;
  const ux = r > 1e-12 ? x / r : 1;
  const uz = r > 1e-12 ? z / r : 0;
  return combine(dr, dy, ux, uz, y, n);
}

/** A prism: a convex polygon in the XZ plane, extruded ±half along Y. */
function prismDistance(g: SceneGeometry, i: number, x: number, y: number, z: number, half: number, n: Float64Array): number {
  const start = g.polygonRange[i * 2];
  const count = g.polygonRange[i * 2 + 1];
  const p = g.polygons;
  // 2D signed distance to the convex polygon (counter-clockwise seen from +Y, i.e. in (x, z) clockwise
  // when z points down the page), with the direction to the nearest boundary point.
  let inside = true;
  let maxEdge = -Infinity;
  let edgeX = 0;
  let edgeZ = 0;
  let nearest = Infinity;
  let nearX = 0;
  let nearZ = 0;
  for (let v = 0; v < count; v++) {
    const ax = p[(start + v) * 2], az = p[(start + v) * 2 + 1];
    const w = (v + 1) % count;
    const bx = p[(start + w) * 2], bz = p[(start + w) * 2 + 1];
    const ex = bx - ax, ez = bz - az;
    const length = Math.sqrt(ex * ex + ez * ez);
    // Outward normal of a counter-clockwise (seen from +Y) polygon in (x, z): (−ez, ex)/length.
    const ox = -ez / length, oz = ex / length;
    const side = (x - ax) * ox + (z - az) * oz;
    if (side > 0) inside = false;
    if (side > maxEdge) {
      maxEdge = side;
      edgeX = ox;
      edgeZ = oz;
    }
    const t = Math.max(0, Math.min(1, ((x - ax) * ex + (z - az) * ez) / (length * length)));
    const qx = x - (ax + t * ex), qz = z - (az + t * ez);
    const d = Math.sqrt(qx * qx + qz * qz);
    if (d < nearest) {
      nearest = d;
      nearX = d > 1e-12 ? qx / d : ox;
      nearZ = d > 1e-12 ? qz / d : oz;
    }
  }
  const d2 = inside ? maxEdge : nearest;
  return combine(d2, Math.abs(y) - half, inside ? edgeX : nearX, inside ? edgeZ : nearZ, y, n);
}

/**
 * Combines a radial (in XZ) signed distance `dr` along unit direction (ux, uz) with an axial one `dy`
 * (|y| − half), as for any shape extruded along Y.
 */
function combine(dr: number, dy: number, ux: number, uz: number, y: number, n: Float64Array): number {
  if (dr > 0 || dy > 0) {
    const or = Math.max(dr, 0), oy = Math.max(dy, 0);
    const length = Math.sqrt(or * or + oy * oy);
    n[0] = (ux * or) / length;
    n[1] = (Math.sign(y) * oy) / length;
    n[2] = (uz * or) / length;
    return length;
  }
  if (dr >= dy) {
    n[0] = ux;
    n[1] = 0;
    n[2] = uz;
    return dr;
  }
  n[0] = 0;
  n[1] = y < 0 ? -1 : 1;
  n[2] = 0;
  return dy;
}

function radial(x: number, y: number, z: number, radius: number, n: Float64Array): number {
  const length = Math.sqrt(x * x + y * y + z * z);
  if (length > 1e-12) {
    n[0] = x / length;
    n[1] = y / length;
    n[2] = z / length;
  } else {
    n[0] = 0;
    n[1] = 1;
    n[2] = 0;
  }
  return length - radius;
}
