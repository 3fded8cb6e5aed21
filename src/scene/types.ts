/**
 * The scene file format (`scenes/*.json`, schema in `scenes/scene.schema.json`).
 */
import type { MaterialSpec, PlacedGeometrySpec, SemanticLabel, Vec3 } from '../geometry/types.js';

/** A fixed physical surface: wall, floor, table, shelf. Never moves during a session (for now). */
export interface SurfaceSpec extends PlacedGeometrySpec {
  id: string;
  label: SemanticLabel;
  /** Key into {@link SceneSpec.materials}. */
  material: string;
  description?: string;
}

/** Kinds of dynamic props a scene can hold. */
export type PropKind = 'ball' | 'cube' | 'mug' | 'book' | 'bottle' | 'box' | 'other';

/** A dynamic prop with its own mass and contact material. */
export interface PropSpec extends PlacedGeometrySpec {
  id: string;
  kind: PropKind;
  label?: SemanticLabel;
  description?: string;
  /** kg */
  mass: number;
  friction: number;
  restitution: number;
}

/** A named frame where tasks put their objects. */
export interface AnchorSpec {
  /** Origin, on a surface. */
  position: Vec3;
  /** Rotation about +Y, degrees. The anchor's +X runs along the clear rectangle's length. */
  yawDeg: number;
  /** `[length along +X, width along Z]` of the free rectangle centred on the origin, metres. */
  clear: [number, number];
  description?: string;
}

/** A whole room. */
export interface SceneSpec {
  $schema?: string;
  id: string;
  name: string;
  description?: string;
  room: { size: Vec3 };
  gravity?: Vec3;
  materials: Record<string, MaterialSpec>;
  surfaces: SurfaceSpec[];
  props: PropSpec[];
  anchors: Record<string, AnchorSpec> & { 'open-floor': AnchorSpec };
}
