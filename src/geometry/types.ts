/**
 * Geometry vocabulary shared by scenes and tasks. Units: metres. Axes: Y up, right-handed.
 * Quaternions are `[x, y, z, w]`.
 */

/** A 3-vector `[x, y, z]`. */
export type Vec3 = [number, number, number];
/** A unit quaternion `[x, y, z, w]`. */
export type Quat = [number, number, number, number];

/** A collision primitive. Capsules, cylinders and polygon slabs stand along their local Y axis. */
export type ShapeSpec =
  | { type: 'box'; size: Vec3 }
  | { type: 'sphere'; radius: number }
  | { type: 'capsule'; radius: number; length: number }
  | { type: 'cylinder'; radius: number; height: number }
  | PolygonShapeSpec;

/**
 * A convex polygon in the local XZ plane, extruded `thickness` along Y (centred): an L-free table top, a
 * wall with slanted ends, a rug. Points are `[x, z]` in either winding; they are normalised when loaded.
 */
export interface PolygonShapeSpec {
  type: 'polygon';
  points: [number, number][];
  thickness: number;
}

/** One primitive of an object, placed relative to the object's origin. */
export interface PartSpec {
  shape: ShapeSpec;
  /** Offset from the object's origin (default `[0,0,0]`). */
  position?: Vec3;
  /** Intrinsic X, then Y, then Z rotation in degrees (default none). */
  eulerDeg?: Vec3;
}

/** Fields every placed object shares: a pose and either one shape or several parts. */
export interface PlacedGeometrySpec {
  position: Vec3;
  eulerDeg?: Vec3;
  shape?: ShapeSpec;
  parts?: PartSpec[];
}

/** Contact material. Rapier combines two colliders' coefficients by averaging them. */
export interface MaterialSpec {
  friction: number;
  restitution: number;
  /** kg/m³, used only by dynamic bodies. */
  density?: number;
  description?: string;
}

/** Semantic labels from the WebXR semantic-labels registry. */
export const SEMANTIC_LABELS = [
  'floor', 'wall', 'ceiling', 'table', 'desk', 'couch', 'shelf', 'door', 'window',
  'bed', 'screen', 'lamp', 'plant', 'other',
] as const;
/** A WebXR semantic label. */
export type SemanticLabel = (typeof SEMANTIC_LABELS)[number];
