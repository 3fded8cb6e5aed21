/**
 * three.js objects for the scene's shapes (boxes, spheres, capsules and cylinders along Y, polygon slabs
 * in XZ extruded along Y), posed from seven-number poses.
 */
import * as THREE from 'three';
import type { ShapeSpec } from '../../geometry/types.js';
import type { ObjectDescription, Pose7 } from '../api-types.js';

/** Sets an object's position and rotation from `[x, y, z, qx, qy, qz, qw]` at `offset`. */
export function setPose(object: THREE.Object3D, pose: ArrayLike<number>, offset = 0): void {
  object.position.set(pose[offset], pose[offset + 1], pose[offset + 2]);
  object.quaternion.set(pose[offset + 3], pose[offset + 4], pose[offset + 5], pose[offset + 6]);
}

/** The geometry of a shape, centred on its local origin. */
export function shapeGeometry(shape: ShapeSpec): THREE.BufferGeometry {
  switch (shape.type) {
    case 'box':
      return new THREE.BoxGeometry(shape.size[0], shape.size[1], shape.size[2]);
    case 'sphere':
      return new THREE.SphereGeometry(shape.radius, 24, 16);
    case 'capsule':
      return new THREE.CapsuleGeometry(shape.radius, shape.length, 6, 16);
    case 'cylinder':
      return new THREE.CylinderGeometry(shape.radius, shape.radius, shape.height, 24);
    case 'polygon': {
      const outline = new THREE.Shape(shape.points.map(([x, z]) => new THREE.Vector2(x, z)));
      const geometry = new THREE.ExtrudeGeometry(outline, { depth: shape.thickness, bevelEnabled: false });
      // The outline lies in XY and extrudes along +Z; turn it so it lies in XZ and extrudes along −Y, centred.
      geometry.rotateX(Math.PI / 2);
      geometry.translate(0, shape.thickness / 2, 0);
      return geometry;
    }
  }
}

/** Colour from RGB 0–255 (the render colours are sRGB). */
export function colourOf(rgb: readonly number[]): THREE.Color {
  return new THREE.Color().setRGB(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, THREE.SRGBColorSpace);
}

/** A group holding an object's parts, posed at the object's pose. */
export function objectGroup(description: ObjectDescription, material: THREE.Material): THREE.Group {
  const group = new THREE.Group();
  group.name = description.id;
  for (const part of description.parts) {
    const mesh = new THREE.Mesh(shapeGeometry(part.shape), material);
    setPose(mesh, part.pose);
    group.add(mesh);
  }
  setPose(group, description.pose);
  return group;
}

/** The material an object is drawn with: flat-ish colour, see-through for walls and ceiling, wireframe for sensors. */
export function objectMaterial(description: ObjectDescription): THREE.Material {
  const color = colourOf(description.colour);
  if (description.kind === 'sensor') return new THREE.MeshBasicMaterial({ color, wireframe: true, transparent: true, opacity: 0.6 });
  const seeThrough = description.label === 'wall' || description.label === 'ceiling';
  return new THREE.MeshLambertMaterial({ color, transparent: seeThrough, opacity: seeThrough ? 0.18 : 1, depthWrite: !seeThrough });
}

/** A pose as seven numbers from a Float32Array window. */
export const poseAt = (values: ArrayLike<number>, offset: number): Pose7 => Array.from({ length: 7 }, (_, k) => values[offset + k]);
