/**
 * Signed distance to the static scene: boxes, spheres, capsules and cylinders, as flat typed arrays.
 *
 * Hands query it every tick (fingertips and palm against tables and walls), so it is plain arithmetic in
 * JavaScript: no calls into Rapier's WASM, no allocation. A query tests only the primitives whose bounding
 * box, grown by the query range, contains the point.
 */

/** Primitive type codes. */
export const SdfShape = { Box: 0, Sphere: 1, Capsule: 2, Cylinder: 3 } as const;

const STRIDE = 18; // per primitive: type, owner, 9 rotation (world→local), 3 translation, 3 params, (spare)

/** The static scene as signed-distance primitives. */
export class StaticSdf {
  /** Number of primitives. */
  readonly count: number;
  private readonly data: Float64Array;
  private readonly bounds: Float64Array; // min xyz, max xyz per primitive

  /**
   * @param primitives one entry per collider: shape, params, world pose (position and quaternion) and the
   *   index of the static object that owns it (reported by queries).
   */
  constructor(primitives: readonly { type: number; params: readonly number[]; position: readonly number[]; rotation: readonly number[]; owner: number }[]) {
    this.count = primitives.length;
    this.data = new Float64Array(this.count * STRIDE);
    this.bounds = new Float64Array(this.count * 6);
    primitives.forEach((p, i) => {
      const o = i * STRIDE;
      const [x, y, z, w] = p.rotation;
      // Rotation matrix of q (local→world), row-major; we store its transpose (world→local).
      const m = [
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
      ];
      this.data[o] = p.type;
      this.data[o + 1] = p.owner;
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) this.data[o + 2 + r * 3 + c] = m[c * 3 + r];
      this.data.set(p.position, o + 11);
      this.data.set(p.params, o + 14);
      // World bounding box from the local half extents.
      const h = halfExtents(p.type, p.params);
      for (let r = 0; r < 3; r++) {
        const reach = Math.abs(m[r * 3]) * h[0] + Math.abs(m[r * 3 + 1]) * h[1] + Math.abs(m[r * 3 + 2]) * h[2];
        this.bounds[i * 6 + r] = p.position[r] - reach;
        this.bounds[i * 6 + 3 + r] = p.position[r] + reach;
      }
    });
  }

  /**
   * Signed distance from (x, y, z) to the nearest primitive within `range` (negative inside). Writes the
   * outward unit normal into `normal[0..2]` and returns the owner through `owner[0]` (-1 when nothing is
   * within range, in which case the distance is `range`).
   */
  query(x: number, y: number, z: number, range: number, normal: Float64Array, owner: Int32Array): number {
    let best = range;
    owner[0] = -1;
    const b = this.bounds;
    const d = this.data;
    for (let i = 0; i < this.count; i++) {
      const k = i * 6;
      if (x < b[k] - range || y < b[k + 1] - range || z < b[k + 2] - range || x > b[k + 3] + range || y > b[k + 4] + range || z > b[k + 5] + range) {
        continue;
      }
      const o = i * STRIDE;
      const px = x - d[o + 11], py = y - d[o + 12], pz = z - d[o + 13];
      const lx = d[o + 2] * px + d[o + 3] * py + d[o + 4] * pz;
      const ly = d[o + 5] * px + d[o + 6] * py + d[o + 7] * pz;
      const lz = d[o + 8] * px + d[o + 9] * py + d[o + 10] * pz;
      const distance = localDistance(d[o], lx, ly, lz, d[o + 14], d[o + 15], d[o + 16], scratchNormal);
      if (distance < best) {
        best = distance;
        owner[0] = d[o + 1];
        // Local normal back to world: multiply by the transpose of world→local.
        const nx = scratchNormal[0], ny = scratchNormal[1], nz = scratchNormal[2];
        normal[0] = d[o + 2] * nx + d[o + 5] * ny + d[o + 8] * nz;
        normal[1] = d[o + 3] * nx + d[o + 6] * ny + d[o + 9] * nz;
        normal[2] = d[o + 4] * nx + d[o + 7] * ny + d[o + 10] * nz;
      }
    }
    return best;
  }
}

const scratchNormal = new Float64Array(3);

function halfExtents(type: number, p: readonly number[]): [number, number, number] {
  switch (type) {
    case SdfShape.Box:
      return [p[0], p[1], p[2]];
    case SdfShape.Sphere:
      return [p[0], p[0], p[0]];
    case SdfShape.Capsule:
      return [p[0], p[1] + p[0], p[0]];
    default:
      return [p[0], p[1], p[0]];
  }
}

/**
 * Signed distance in the primitive's frame. Params: box (hx, hy, hz); sphere (r); capsule (r, half length);
 * cylinder (r, half height). Capsules and cylinders stand along Y. Writes the local outward normal.
 */
function localDistance(type: number, x: number, y: number, z: number, a: number, b: number, c: number, n: Float64Array): number {
  if (type === SdfShape.Box) {
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
  if (type === SdfShape.Sphere) return radial(x, y, z, a, n);
  if (type === SdfShape.Capsule) {
    const cy = Math.max(-b, Math.min(b, y));
    return radial(x, y - cy, z, a, n);
  }
  // Cylinder: distance in (radial, axial) coordinates.
  const r = Math.sqrt(x * x + z * z);
  const dr = r - a;
  const dy = Math.abs(y) - b;
  const ux = r > 1e-12 ? x / r : 1;
  const uz = r > 1e-12 ? z / r : 0;
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
