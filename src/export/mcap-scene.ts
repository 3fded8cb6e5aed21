/**
 * The room and its objects as one `foxglove.SceneUpdate`: statics in the `world` frame, bodies in their
 * own frames (moved by `/tf`), in the flat colours `xrsim render` uses. Foxglove's cylinders stand along Z,
 * ours along Y, so they are turned; polygon slabs become triangle lists.
 */
import { composePose, quatMultiply, type Pose } from '../geometry/math.js';
import type { Quat, ShapeSpec } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import { objectColour } from '../render/colours.js';

type Json = Record<string, unknown>;
/** Turns a Z-axis primitive to stand along Y (−90° about X). */
const Z_TO_Y: Quat = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

const vec = (v: readonly number[]) => ({ x: v[0], y: v[1], z: v[2] });
export const poseMsg = (p: Pose) => ({ position: vec(p.position), orientation: { x: p.rotation[0], y: p.rotation[1], z: p.rotation[2], w: p.rotation[3] } });
const rgba = (c: readonly number[], a = 1) => ({ r: c[0] / 255, g: c[1] / 255, b: c[2] / 255, a });

/** Adds the primitives of one shape at `pose` to an entity. */
function addShape(entity: { cubes: Json[]; spheres: Json[]; cylinders: Json[]; triangles: Json[] }, shape: ShapeSpec, pose: Pose, color: Json): void {
  const along = (offset: number): Pose => composePose(pose, { position: [0, offset, 0], rotation: [0, 0, 0, 1] });
  const standing = (p: Pose): Pose => ({ position: p.position, rotation: quatMultiply(p.rotation, Z_TO_Y) });
  switch (shape.type) {
    case 'box':
      entity.cubes.push({ pose: poseMsg(pose), size: vec(shape.size), color });
      return;
    case 'sphere':
      entity.spheres.push({ pose: poseMsg(pose), size: vec([2 * shape.radius, 2 * shape.radius, 2 * shape.radius]), color });
      return;
    case 'cylinder':
      entity.cylinders.push({ pose: poseMsg(standing(pose)), size: vec([2 * shape.radius, 2 * shape.radius, shape.height]), bottom_scale: 1, top_scale: 1, color });
      return;
    case 'capsule': {
      const d = 2 * shape.radius;
      entity.cylinders.push({ pose: poseMsg(standing(pose)), size: vec([d, d, shape.length]), bottom_scale: 1, top_scale: 1, color });
      for (const end of [-1, 1]) entity.spheres.push({ pose: poseMsg(along((end * shape.length) / 2)), size: vec([d, d, d]), color });
      return;
    }
    case 'polygon': {
      const h = shape.thickness / 2;
      const n = shape.points.length;
      const p = (i: number, y: number) => vec([shape.points[i % n][0], y, shape.points[i % n][1]]);
      const points: Json[] = [];
      for (let i = 1; i < n - 1; i++) for (const y of [-h, h]) points.push(p(0, y), p(i, y), p(i + 1, y));
      for (let i = 0; i < n; i++) points.push(p(i, -h), p(i + 1, -h), p(i + 1, h), p(i, -h), p(i + 1, h), p(i, h));
      entity.triangles.push({ pose: poseMsg(pose), points, color });
    }
  }
}

/** The scene as a SceneUpdate message. */
export function sceneUpdate(model: SimModel): Json {
  const timestamp = { sec: 0, nsec: 0 };
  const entity = (id: string, frame: string) => ({ timestamp, frame_id: frame, id, frame_locked: frame !== 'world', lifetime: { sec: 0, nsec: 0 }, cubes: [] as Json[], spheres: [] as Json[], cylinders: [] as Json[], triangles: [] as Json[] });
  const entities = [];
  for (const [i, s] of model.statics.entries()) {
    const e = entity(`${s.origin}:${s.id}`, 'world');
    const seeThrough = s.label === 'wall' || s.label === 'ceiling';
    for (const c of s.colliders) addShape(e, model.colliders[c].shape, composePose(s.pose, model.colliders[c].localPose), rgba(objectColour(s.label, i), seeThrough ? 0.2 : 1));
    entities.push(e);
  }
  for (const [i, b] of model.bodies.entries()) {
    const id = `${b.origin}:${b.id}`;
    const e = entity(id, id);
    for (const c of b.colliders) addShape(e, model.colliders[c].shape, model.colliders[c].localPose, rgba(objectColour(b.label ?? 'prop', i)));
    entities.push(e);
  }
  return { deletions: [], entities };
}
