/**
 * Building the scene geometry store from a model, and keeping its moving parts where they are.
 *
 * Static surfaces are added once at their world poses. Dynamic bodies' and hand parts' primitives carry
 * their pose relative to their body, and are re-posed only when something needs them (a depth frame).
 */
import { composeInto, POSE_FLOATS } from '../../kernels/pose-compose.js';
import { PrimitiveKind, PrimitiveType, SceneGeometry, type PrimitiveInit } from '../../kernels/scene-geometry.js';
import { composePose, type Pose } from '../geometry/math.js';
import type { ShapeSpec, Vec3 } from '../geometry/types.js';
import type { ColliderModel, SimModel } from '../model/types.js';
import type { HandPartPoses } from '../user/hand-parts.js';

/** The store and where each model object's primitives are in it. */
export interface SceneGeometryIndex {
  geometry: SceneGeometry;
  /** Per static object: its primitive indices. */
  statics: number[][];
  /** Per dynamic body: its primitives and each one's pose relative to the body (7 numbers). */
  bodies: { primitive: number; local: Float64Array }[][];
  /** Per hand part (model order): its primitive index. */
  handParts: number[];
}

/** Type and parameters of a primitive for a shape. */
export function primitiveOf(shape: ShapeSpec): Pick<PrimitiveInit, 'type' | 'params' | 'polygon'> {
  switch (shape.type) {
    case 'box':
      return { type: PrimitiveType.Box, params: [shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2] };
    case 'sphere':
      return { type: PrimitiveType.Sphere, params: [shape.radius] };
    case 'capsule':
      return { type: PrimitiveType.Capsule, params: [shape.radius, shape.length / 2] };
    case 'cylinder':
      return { type: PrimitiveType.Cylinder, params: [shape.radius, shape.height / 2] };
    case 'polygon':
      return { type: PrimitiveType.Prism, params: [shape.thickness / 2], polygon: shape.points };
  }
}

/** Each model's store as built, copied for every session of the model. */
const built = new WeakMap<SimModel, SceneGeometryIndex>();

/** Builds the store for a model: statics at their poses, bodies and hands at their model poses. */
export function buildSceneGeometry(model: SimModel): SceneGeometryIndex {
  let index = built.get(model);
  if (!index) built.set(model, (index = buildFromModel(model)));
  // A copy: a session moves bodies and hands, and adds surfaces.
  return {
    geometry: index.geometry.clone(),
    statics: index.statics.map((primitives) => [...primitives]),
    bodies: index.bodies,
    handParts: index.handParts,
  };
}

function buildFromModel(model: SimModel): SceneGeometryIndex {
  const geometry = new SceneGeometry(model.colliders.length + 8);
  const add = (c: ColliderModel, kind: number, owner: number, pose: Pose) =>
    geometry.add({ ...primitiveOf(c.shape), kind, owner, position: pose.position, rotation: pose.rotation });
  const statics = model.statics.map((object, index) =>
    object.colliders.map((c) => add(model.colliders[c], PrimitiveKind.Static, index, composePose(object.pose, model.colliders[c].localPose))),
  );
  const bodies = model.bodies.map((body, index) =>
    body.colliders.map((c) => {
      const { localPose } = model.colliders[c];
      return { primitive: add(model.colliders[c], PrimitiveKind.Dynamic, index, composePose(body.pose, localPose)), local: Float64Array.from([...localPose.position, ...localPose.rotation]) };
    }),
  );
  const handParts = model.handParts.map((part, index) =>
    add(model.colliders[part.collider], PrimitiveKind.Hand, index, { position: [0, -100, 0], rotation: [0, 0, 0, 1] }),
  );
  return { geometry, statics, bodies, handParts };
}

const composed = new Float64Array(POSE_FLOATS);
const composedRotation = composed.subarray(3);

/** Re-poses every dynamic body's primitives from the `bodies` channel (7 floats per body). No allocation. */
export function poseBodies(index: SceneGeometryIndex, bodyPoses: Float32Array): void {
  for (let b = 0; b < index.bodies.length; b++) {
    for (const { primitive, local } of index.bodies[b]) {
      composeInto(bodyPoses, b * POSE_FLOATS, local, 0, composed);
      index.geometry.setPose(primitive, composed, composedRotation);
    }
  }
}

/** Re-poses the hand parts' primitives from the hands' wrist poses and wrist-relative part poses. No allocation. */
export function poseHands(index: SceneGeometryIndex, model: SimModel, hands: HandPartPoses): void {
  const parts = model.handParts;
  for (let i = 0; i < parts.length; i++) {
    composeInto(hands.wrists, parts[i].hand * POSE_FLOATS, hands.parts, i * POSE_FLOATS, composed);
    index.geometry.setPose(index.handParts[i], composed, composedRotation);
  }
}

/** A direction (or offset) in primitive `p`'s frame, in world coordinates. */
export function directionToWorld(g: SceneGeometry, p: number, v: ArrayLike<number>): Vec3 {
  // The store keeps world→local; local→world is its transpose.
  return [
    g.rot(p, 0, 0) * v[0] + g.rot(p, 1, 0) * v[1] + g.rot(p, 2, 0) * v[2],
    g.rot(p, 0, 1) * v[0] + g.rot(p, 1, 1) * v[1] + g.rot(p, 2, 1) * v[2],
    g.rot(p, 0, 2) * v[0] + g.rot(p, 1, 2) * v[1] + g.rot(p, 2, 2) * v[2],
  ];
}
