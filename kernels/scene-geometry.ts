/**
 * The scene's collision primitives as flat typed arrays: the one geometry store that contact queries
 * (signed distance), the depth rasterizer and ray casts all read. Primitives can be moved, disabled and
 * added while a session runs (surfaces that appear, move or disappear), without allocating per query.
 *
 * Each primitive has a type, a kind (static surface, dynamic body, hand part), an owner (the index of its
 * object within its kind), a face-id base, parameters in its local frame, and its world pose stored as a
 * world→local rotation matrix and the world position, plus a world bounding box.
 */
import { quatAxesInto } from './quat.js';

/** Primitive shapes. Capsules, cylinders and prisms stand along their local Y axis. */
export const PrimitiveType = { Box: 0, Sphere: 1, Capsule: 2, Cylinder: 3, Prism: 4 } as const;
/** What a primitive belongs to. */
export const PrimitiveKind = { Static: 0, Dynamic: 1, Hand: 2 } as const;

/** A primitive to add. Params: box (hx, hy, hz); sphere (r); capsule (r, half length); cylinder (r, half height); prism (half thickness). */
export interface PrimitiveInit {
  type: number;
  kind: number;
  owner: number;
  params: readonly number[];
  /** Prism only: the convex polygon in the local XZ plane, counter-clockwise seen from +Y, as [x, z] pairs. */
  polygon?: readonly (readonly [number, number])[];
  position: ArrayLike<number>;
  rotation: ArrayLike<number>;
}

const STRIDE = 16; // type, kind, owner, enabled, 9 world→local rotation, spare ×3
const POSE = 3; // world position

/** A growable store of primitives. */
export class SceneGeometry {
  count = 0;
  /** Per primitive: type, kind, owner, enabled, world→local rotation (row-major 3×3). */
  data: Float64Array;
  /** Per primitive: world position. */
  position: Float64Array;
  /** Per primitive: up to 3 shape parameters. */
  params: Float64Array;
  /** Per primitive: world bounding box (min xyz, max xyz). */
  bounds: Float64Array;
  /** Per primitive: offset and vertex count of its polygon in `polygons` (prisms). */
  polygonRange: Int32Array;
  /** Prism polygons: [x, z] pairs. */
  polygons: Float64Array;
  private polygonCount = 0;
  /** Primitive indices of each kind, in order of addition (queries of one kind walk only these). */
  readonly ofKind: [Int32Array, Int32Array, Int32Array] = [new Int32Array(16), new Int32Array(16), new Int32Array(16)];
  /** How many entries of each `ofKind` list are used. */
  readonly kindCount = new Int32Array(3);
  /** Bumped by every change (a primitive added, moved or switched on or off): equal versions, equal scene. */
  version = 0;

  constructor(capacity = 64) {
    this.data = new Float64Array(capacity * STRIDE);
    this.position = new Float64Array(capacity * POSE);
    this.params = new Float64Array(capacity * 3);
    this.bounds = new Float64Array(capacity * 6);
    this.polygonRange = new Int32Array(capacity * 2);
    this.polygons = new Float64Array(64);
  }

  /** An independent copy (sessions of one model start from copies of one store). */
  clone(): SceneGeometry {
    const copy = new SceneGeometry(0);
    copy.count = this.count;
    copy.data = this.data.slice();
    copy.position = this.position.slice();
    copy.params = this.params.slice();
    copy.bounds = this.bounds.slice();
    copy.polygonRange = this.polygonRange.slice();
    copy.polygons = this.polygons.slice();
    copy.polygonCount = this.polygonCount;
    for (let kind = 0; kind < 3; kind++) copy.ofKind[kind] = this.ofKind[kind].slice();
    copy.kindCount.set(this.kindCount);
    copy.version = this.version;
    return copy;
  }

  /** Adds a primitive, enabled, and returns its index. */
  add(p: PrimitiveInit): number {
    const i = this.count;
    if (i * STRIDE >= this.data.length) this.grow();
    this.version++;
    this.count = i + 1;
    const o = i * STRIDE;
    this.data[o] = p.type;
    this.data[o + 1] = p.kind;
    this.data[o + 2] = p.owner;
    this.data[o + 3] = 1;
    this.params.set(p.params.slice(0, 3), i * 3);
    const n = this.kindCount[p.kind];
    if (n === this.ofKind[p.kind].length) {
      const grown = new Int32Array(n * 2);
      grown.set(this.ofKind[p.kind]);
      this.ofKind[p.kind] = grown;
    }
    this.ofKind[p.kind][n] = i;
    this.kindCount[p.kind] = n + 1;
    if (p.polygon) {
      const needed = (this.polygonCount + p.polygon.length) * 2;
      if (needed > this.polygons.length) {
        const grown = new Float64Array(Math.max(needed, this.polygons.length * 2));
        grown.set(this.polygons);
        this.polygons = grown;
      }
      this.polygonRange[i * 2] = this.polygonCount;
      this.polygonRange[i * 2 + 1] = p.polygon.length;
      // The kernels need counter-clockwise seen from +Y: a negative shoelace sum in (x, z).
      let twiceArea = 0;
      p.polygon.forEach(([x, z], k) => {
        const [nx, nz] = p.polygon![(k + 1) % p.polygon!.length];
        twiceArea += x * nz - nx * z;
      });
      const n = p.polygon.length;
      p.polygon.forEach(([x, z], k) => {
        const slot = this.polygonCount + (twiceArea > 0 ? n - 1 - k : k);
        this.polygons[slot * 2] = x;
        this.polygons[slot * 2 + 1] = z;
      });
      this.polygonCount += p.polygon.length;
    }
    this.setPose(i, p.position, p.rotation);
    return i;
  }

  /** Moves primitive `i` to a world pose (position, quaternion x y z w) and updates its bounds. */
  setPose(i: number, position: ArrayLike<number>, q: ArrayLike<number>): void {
    const o = i * STRIDE;
    const d = this.data;
    const p = this.position;
    // World→local rotation, row-major: its rows are the rotation's axes.
    const axes = this.axes;
    quatAxesInto(q[0], q[1], q[2], q[3], axes, 0);
    // Re-posing a primitive where it already is (a body asleep, a hand at rest) changes nothing.
    let unchanged = same(p[i * 3], position[0]) && same(p[i * 3 + 1], position[1]) && same(p[i * 3 + 2], position[2]);
    for (let k = 0; k < 9 && unchanged; k++) unchanged = same(d[o + 4 + k], axes[k]);
    if (unchanged) return;
    this.version++;
    for (let k = 0; k < 9; k++) d[o + 4 + k] = axes[k];
    this.position[i * 3] = position[0];
    this.position[i * 3 + 1] = position[1];
    this.position[i * 3 + 2] = position[2];
    const h = this.half;
    this.writeLocalHalfExtents(i, h);
    for (let r = 0; r < 3; r++) {
      // Row r of local→world is column r of the stored world→local.
      const reach = Math.abs(d[o + 4 + r]) * h[0] + Math.abs(d[o + 7 + r]) * h[1] + Math.abs(d[o + 10 + r]) * h[2];
      this.bounds[i * 6 + r] = position[r] - reach;
      this.bounds[i * 6 + 3 + r] = position[r] + reach;
    }
  }

  private readonly half = new Float64Array(3);
  private readonly axes = new Float64Array(9);

  /** Enables or disables primitive `i` (a removed surface is disabled, never deleted: indices stay stable). */
  setEnabled(i: number, enabled: boolean): void {
    if (this.enabled(i) !== enabled) this.version++;
    this.data[i * STRIDE + 3] = enabled ? 1 : 0;
  }

  /** Type, kind, owner and enabled flag of primitive `i`. */
  type(i: number): number {
    return this.data[i * STRIDE];
  }
  kind(i: number): number {
    return this.data[i * STRIDE + 1];
  }
  owner(i: number): number {
    return this.data[i * STRIDE + 2];
  }
  enabled(i: number): boolean {
    return this.data[i * STRIDE + 3] === 1;
  }

  /** World→local rotation element (row r, column c) of primitive `i`. */
  rot(i: number, r: number, c: number): number {
    return this.data[i * STRIDE + 4 + r * 3 + c];
  }

  /** Writes the half extents of primitive `i`'s bounding box in its own frame into `out[0..2]`. */
  writeLocalHalfExtents(i: number, out: Float64Array): void {
    const p = this.params;
    const k = i * 3;
    const r = p[k];
    switch (this.type(i)) {
      case PrimitiveType.Box:
        out[0] = p[k]; out[1] = p[k + 1]; out[2] = p[k + 2];
        return;
      case PrimitiveType.Sphere:
        out[0] = r; out[1] = r; out[2] = r;
        return;
      case PrimitiveType.Capsule:
        out[0] = r; out[1] = p[k + 1] + r; out[2] = r;
        return;
      case PrimitiveType.Cylinder:
        out[0] = r; out[1] = p[k + 1]; out[2] = r;
        return;
      default: {
        // Prism: the polygon's extent, and its half thickness.
        const start = this.polygonRange[i * 2];
        const n = this.polygonRange[i * 2 + 1];
        let ex = 0;
        let ez = 0;
        for (let v = 0; v < n; v++) {
          ex = Math.max(ex, Math.abs(this.polygons[(start + v) * 2]));
          ez = Math.max(ez, Math.abs(this.polygons[(start + v) * 2 + 1]));
        }
        out[0] = ex; out[1] = p[k]; out[2] = ez;
      }
    }
  }

  private grow(): void {
    const grow = <T extends Float64Array | Int32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.data = grow(this.data);
    this.position = grow(this.position);
    this.params = grow(this.params);
    this.bounds = grow(this.bounds);
    this.polygonRange = grow(this.polygonRange);
  }
}

/** Bitwise equality of two numbers as stored (0 and −0 differ; NaN is never the same). */
function same(a: number, b: number): boolean {
  return a === b && (a !== 0 || 1 / a === 1 / b);
}
