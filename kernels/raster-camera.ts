/**
 * The depth rasterizer's camera and face ids: a pinhole camera posed in the world, and the one number
 * that says which face of which primitive a pixel shows. Shared by the rasterizer, its curved-primitive
 * pass and the ray-cast reference.
 */
import { quatAxesInto } from './quat.js';

/** A pinhole depth camera. Build with {@link pinholeCamera}; update the pose with {@link setCameraPose}. */
export interface RasterCamera {
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  /** Nearest and farthest depth drawn, metres. */
  near: number;
  far: number;
  /** World→camera rotation, row-major. */
  rotation: Float64Array;
  /** Camera position, world. */
  position: Float64Array;
}

/** A camera of `width` × `height` pixels with a horizontal field of view (radians) and square pixels. */
export function pinholeCamera(width: number, height: number, horizontalFov: number, near: number, far: number): RasterCamera {
  const fx = width / 2 / Math.tan(horizontalFov / 2);
  return { width, height, fx, fy: fx, cx: width / 2, cy: height / 2, near, far, rotation: new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), position: new Float64Array(3) };
}

/** Places a camera at a world pose (position, quaternion x y z w); it looks along its −Z axis. */
export function setCameraPose(camera: RasterCamera, position: ArrayLike<number>, q: ArrayLike<number>): void {
  // World→camera is the transpose of the camera's rotation: its rows are the camera's axes.
  quatAxesInto(q[0], q[1], q[2], q[3], camera.rotation, 0);
  camera.position[0] = position[0];
  camera.position[1] = position[1];
  camera.position[2] = position[2];
}

/**
 * What a pixel shows is one number, its face id: the primitive index × {@link FACES_PER_PRIMITIVE} + the
 * face (0–5 box faces, by axis and sign; 2 and 3 the prism caps, 6 curved surfaces, 7 a prism's side).
 */
export const FACES_PER_PRIMITIVE = 8;
/** The face a curved primitive (sphere, capsule, cylinder) shows. */
export const CURVED_FACE = 6;
/** The faces of a prism: its −Y cap, its +Y cap and its side. */
export const PRISM_BOTTOM_FACE = 2;
export const PRISM_TOP_FACE = 3;
export const PRISM_SIDE_FACE = 7;

/** The face of a box whose outward normal is local axis `axis` (0 x, 1 y, 2 z) with sign `sign`. */
export function boxFace(axis: number, sign: number): number {
  return axis * 2 + (sign > 0 ? 1 : 0);
}

/** The face id of face `face` of primitive `primitive`. */
export function faceId(primitive: number, face: number): number {
  return primitive * FACES_PER_PRIMITIVE + face;
}

/** The primitive a face id belongs to. */
export function primitiveOfFace(id: number): number {
  return (id / FACES_PER_PRIMITIVE) | 0;
}
