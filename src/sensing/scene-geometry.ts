/**
 * Building the scene geometry store from a model, and keeping its moving parts where they are.
 *
 * Static surfaces are added once at their world poses. Dynamic bodies' and hand parts' primitives carry
 * their pose relative to their body, and are re-posed only when something needs them (a depth frame).
 */
import { PrimitiveKind, PrimitiveType, SceneGeometry, type PrimitiveInit } from '../../kernels/scene-geometry.js';
import { composePose, type Pose } from '../geometry/math.js';
import type { ShapeSpec } from '../geometry/types.js';
import type { ColliderModel, SimModel } from '../model/types.js';
import type { HandPartPoses } from '../user/hand-parts.js';

/** The store and where each model object's primitives are in it. */
export interface SceneGeometryIndex {
  geometry: SceneGeometry;
  /** Per static object: its primitive indices. */
  statics: number[][];
  /** Per dynamic body: [primitive index, collider index] pairs. */
  bodies: { primitive: number; collider: number }[][];
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

/** Builds the store for a model: statics at their poses, bodies and hands at their model poses. */
export function buildSceneGeometry(model: SimModel): SceneGeometryIndex {
  const geometry = new SceneGeometry(model.colliders.length + 8);
  const add = (c: ColliderModel, kind: number, owner: number, pose: Pose) =>
    geometry.add({ ...primitiveOf(c.shape), kind, owner, position: pose.position, rotation: pose.rotation });
  const statics = model.statics.map((object, index) =>
    object.colliders.map((c) => add(model.colliders[c], PrimitiveKind.Static, index, composePose(object.pose, model.colliders[c].localPose))),
  );
  const bodies = model.bodies.map((body, index) =>
    body.colliders.map((c) => ({ primitive: add(model.colliders[c], PrimitiveKind.Dynamic, index, composePose(body.pose, model.colliders[c].localPose)), collider: c })),
  );
  const handParts = model.handParts.map((part, index) =>
    add(model.colliders[part.collider], PrimitiveKind.Hand, index, { position: [0, -100, 0], rotation: [0, 0, 0, 1] }),
  );
  return { geometry, statics, bodies, handParts };
}

const scratchPose: Pose = { position: [0, 0, 0], rotation: [0, 0, 0, 1] };

/** Re-poses every dynamic body's primitives from the `bodies` channel (7 floats per body). */
export function poseBodies(index: SceneGeometryIndex, model: SimModel, bodyPoses: Float32Array): void {
  index.bodies.forEach((parts, b) => {
    const o = b * 7;
    scratchPose.position[0] = bodyPoses[o];
    scratchPose.position[1] = bodyPoses[o + 1];
    scratchPose.position[2] = bodyPoses[o + 2];
    scratchPose.rotation[0] = bodyPoses[o + 3];
    scratchPose.rotation[1] = bodyPoses[o + 4];
    scratchPose.rotation[2] = bodyPoses[o + 5];
    scratchPose.rotation[3] = bodyPoses[o + 6];
    for (const { primitive, collider } of parts) {
      const pose = composePose(scratchPose, model.colliders[collider].localPose);
      index.geometry.setPose(primitive, pose.position, pose.rotation);
    }
  });
}

const wrist = new Float64Array(7);

/** Re-poses the hand parts' primitives from the hands' wrist poses and wrist-relative part poses. */
export function poseHands(index: SceneGeometryIndex, model: SimModel, hands: HandPartPoses): void {
  model.handParts.forEach((part, i) => {
    wrist.set(hands.wrists.subarray(part.hand * 7, part.hand * 7 + 7));
    const o = i * 7;
    const pose = composePose(
      { position: [wrist[0], wrist[1], wrist[2]], rotation: [wrist[3], wrist[4], wrist[5], wrist[6]] },
      { position: [hands.parts[o], hands.parts[o + 1], hands.parts[o + 2]], rotation: [hands.parts[o + 3], hands.parts[o + 4], hands.parts[o + 5], hands.parts[o + 6]] },
    );
    index.geometry.setPose(index.handParts[i], pose.position, pose.rotation);
  });
}
