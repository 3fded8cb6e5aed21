/**
 * Rapier itself: initialising its WASM once per thread, and building its descriptors from our shapes and
 * poses. The deterministic build is pinned exactly; everything that creates Rapier objects goes through here.
 */
// Rapier is evaluated without finalizers (the kernel frees what it makes): see finalizers-hide.ts.
import './finalizers-hide.js';
import RAPIER from '@dimforge/rapier3d-deterministic-compat';
import './finalizers-restore.js';
import type { Pose } from '../geometry/math.js';
import type { ShapeSpec } from '../geometry/types.js';

/** The Rapier module. */
export type Rapier = typeof RAPIER;
/** A Rapier world, rigid body, and the raw APIs the stage uses to avoid allocating per frame. */
export type RapierWorld = InstanceType<Rapier['World']>;
export type RapierBody = InstanceType<Rapier['RigidBody']>;
export type RapierCollider = InstanceType<Rapier['Collider']>;
export type RapierEventQueue = InstanceType<Rapier['EventQueue']>;
export type RawBodies = RapierWorld['bodies']['raw'];

/** Collision-group bits: hands, and the bodies an app adds. Everything else is in every group. */
export const GROUP_HANDS = 0x0002;
export const GROUP_APP = 0x0004;

let ready: Promise<Rapier> | undefined;

/** Initialises Rapier's WASM once per thread. Every session awaits it; the cost is paid once. */
export function initPhysics(): Promise<Rapier> {
  ready ??= RAPIER.init().then(() => RAPIER);
  return ready;
}

/** A Rapier quaternion from `[x, y, z, w]`. */
export function quat(q: readonly number[]) {
  return { x: q[0], y: q[1], z: q[2], w: q[3] };
}

/** A body descriptor placed at `pose`. */
export function withPose(desc: InstanceType<Rapier['RigidBodyDesc']>, pose: Pose) {
  return desc.setTranslation(pose.position[0], pose.position[1], pose.position[2]).setRotation(quat(pose.rotation));
}

/** Rapier's shape for one of ours (capsules, cylinders and polygon slabs stand along local Y). */
export function rapierShape(rapier: Rapier, shape: ShapeSpec) {
  switch (shape.type) {
    case 'box':
      return new rapier.Cuboid(shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2);
    case 'sphere':
      return new rapier.Ball(shape.radius);
    case 'capsule':
      return new rapier.Capsule(shape.length / 2, shape.radius);
    case 'cylinder':
      return new rapier.Cylinder(shape.height / 2, shape.radius);
    case 'polygon': {
      const half = shape.thickness / 2;
      return new rapier.ConvexPolyhedron(new Float32Array(shape.points.flatMap(([x, z]) => [x, -half, z, x, half, z])), null);
    }
  }
}

/** A collider descriptor for a shape (for colliders made rarely; the model's go through `raw-factory.ts`). */
export function colliderDesc(rapier: Rapier, shape: ShapeSpec) {
  return new rapier.ColliderDesc(rapierShape(rapier, shape));
}
