/**
 * Which face of a labelled surface a headset reports as its plane.
 *
 * Every planar face of the surface's boxes and polygon slabs (box faces, slab caps) is a candidate. By label:
 * - `ceiling`: the largest face turned down;
 * - `wall`, `door`, `window`, `screen`: the largest vertical face turned toward the room's interior;
 * - everything else (floor, table, desk, couch, shelf, bed, other...): the largest face turned up (ties go
 *   to the higher one), or, when no face turned up is at least `minPlaneArea`, the largest interior-facing
 *   vertical face (a whiteboard).
 * Faces smaller than `minPlaneArea` never become planes, so lamps and plants (curved shapes) have none.
 *
 * A plane's space has its Y axis along the face's outward normal and its origin at the face's centre; its
 * polygon lies in that space's XZ plane.
 */
import { boxFace, PRISM_BOTTOM_FACE, PRISM_TOP_FACE } from '../../kernels/depth-raster.js';
import { PrimitiveType, type SceneGeometry } from '../../kernels/scene-geometry.js';
import { quatFromAxes, type Pose } from '../geometry/math.js';
import type { SemanticLabel, Vec3 } from '../geometry/types.js';
import { directionToWorld } from './scene-geometry.js';

/** A face chosen to be a surface's plane. */
export interface PlaneCandidate {
  /** Geometry primitive the face belongs to, and the face code the rasterizer writes for it. */
  primitive: number;
  faceCode: number;
  label: SemanticLabel;
  /** The plane's space relative to the primitive's own frame. */
  local: Pose;
  /** The face's outline in plane space, `[x, z]` pairs, counter-clockwise seen from +Y. */
  polygon: [number, number][];
  area: number;
}

/** |n·up| above which a face counts as horizontal (15° from level). */
export const HORIZONTAL_COS = Math.cos((15 * Math.PI) / 180);
/** |n·up| below which a face counts as vertical (15° from plumb). */
export const VERTICAL_SIN = Math.sin((15 * Math.PI) / 180);

const DOWN_LABELS = new Set<SemanticLabel>(['ceiling']);
const VERTICAL_LABELS = new Set<SemanticLabel>(['wall', 'door', 'window', 'screen']);

interface Face extends PlaneCandidate {
  /** World normal and centre. */
  normal: Vec3;
  centre: Vec3;
}

/** The plane of a surface made of `primitives`, or null when it has no face large enough. */
export function choosePlane(
  geometry: SceneGeometry,
  primitives: readonly number[],
  label: SemanticLabel,
  roomCentre: Vec3,
  minPlaneArea: number,
): PlaneCandidate | null {
  const faces = primitives.flatMap((p) => planarFaces(geometry, p, label)).filter((f) => f.area >= minPlaneArea);
  const up = faces.filter((f) => f.normal[1] >= HORIZONTAL_COS);
  const down = faces.filter((f) => f.normal[1] <= -HORIZONTAL_COS);
  const inward = faces.filter((f) => {
    if (Math.abs(f.normal[1]) > VERTICAL_SIN) return false;
    const toCentre = [roomCentre[0] - f.centre[0], roomCentre[2] - f.centre[2]];
    return f.normal[0] * toCentre[0] + f.normal[2] * toCentre[1] > 0;
  });
  const pool = DOWN_LABELS.has(label) ? down : VERTICAL_LABELS.has(label) ? inward : up.length > 0 ? up : inward;
  let best: Face | null = null;
  for (const f of pool) {
    const larger = best === null || f.area > best.area + 1e-9;
    const tieHigher = best !== null && Math.abs(f.area - best.area) <= 1e-9 && f.centre[1] > best.centre[1];
    if (larger || tieHigher) best = f;
  }
  if (!best) return null;
  return { primitive: best.primitive, faceCode: best.faceCode, label, local: best.local, polygon: best.polygon, area: best.area };
}

/** A primitive's planar faces: a box's six, a slab's two caps; none for curved shapes. */
function planarFaces(g: SceneGeometry, p: number, label: SemanticLabel): Face[] {
  const faces: Face[] = [];
  const type = g.type(p);
  const k = p * 3;
  const add = (faceCode: number, y: Vec3, x: Vec3, offset: Vec3, polygon: [number, number][], area: number) => {
    const z: Vec3 = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
    const normal = directionToWorld(g, p, y);
    const c = directionToWorld(g, p, offset);
    const centre: Vec3 = [g.position[k] + c[0], g.position[k + 1] + c[1], g.position[k + 2] + c[2]];
    faces.push({ primitive: p, faceCode, label, local: { position: offset, rotation: quatFromAxes(y, z) }, polygon, area, normal, centre });
  };
  if (type === PrimitiveType.Box) {
    const h = [g.params[k], g.params[k + 1], g.params[k + 2]];
    for (let axis = 0; axis < 3; axis++) {
      const a = (axis + 1) % 3;
      const b = (axis + 2) % 3;
      for (const s of [-1, 1]) {
        const y: Vec3 = [0, 0, 0];
        y[axis] = s;
        const x: Vec3 = [0, 0, 0];
        x[a] = 1;
        const offset: Vec3 = [0, 0, 0];
        offset[axis] = s * h[axis];
        // Plane Z = X × Y = ±(local b axis); the rectangle is symmetric, so its outline is the same either way.
        const rectangle: [number, number][] = [[-h[a], -h[b]], [-h[a], h[b]], [h[a], h[b]], [h[a], -h[b]]];
        add(boxFace(axis, s), y, x, offset, rectangle, 4 * h[a] * h[b]);
      }
    }
  } else if (type === PrimitiveType.Prism) {
    const half = g.params[k];
    const start = g.polygonRange[p * 2];
    const count = g.polygonRange[p * 2 + 1];
    const points: [number, number][] = [];
    for (let v = 0; v < count; v++) points.push([g.polygons[(start + v) * 2], g.polygons[(start + v) * 2 + 1]]);
    let twice = 0;
    for (let v = 0; v < count; v++) twice += points[v][0] * points[(v + 1) % count][1] - points[(v + 1) % count][0] * points[v][1];
    // +Y cap: plane (X, Z) = local (x, z). −Y cap: plane Z = X × (−Y) = −z, so the outline mirrors in z.
    add(PRISM_TOP_FACE, [0, 1, 0], [1, 0, 0], [0, half, 0], points, Math.abs(twice) / 2);
    add(PRISM_BOTTOM_FACE, [0, -1, 0], [1, 0, 0], [0, -half, 0], points.map(([x, z]) => [x, -z] as [number, number]).reverse(), Math.abs(twice) / 2);
  }
  return faces;
}
