/**
 * The scene of a stream as drawable objects for the viewer's page: the model's statics, sensors and
 * bodies as shapes at poses, in the flat colours `xrsim render` uses, plus the depth camera and the head's
 * frustum. Surfaces added while the session ran are described the same way from their events.
 */
import { findChannel, type FrameLayout } from '../frame/layout.js';
import { partsOf, quatFromEulerDeg, type Pose } from '../geometry/math.js';
import type { SimModel } from '../model/types.js';
import { objectColour } from '../render/colours.js';
import type { SurfaceSpec } from '../scene/types.js';
import { OPENXR_JOINTS } from '../hand/joints.js';
import type { ObjectDescription, Pose7, SceneDescription } from './api-types.js';

/** Trigger volumes are drawn as green wireframes. */
const SENSOR_COLOUR = [60, 200, 120];

/** A pose as seven numbers. */
export const pose7 = (pose: Pose): Pose7 => [...pose.position, ...pose.rotation];

/** The parts of an object made of model colliders, relative to the object. */
function colliderParts(model: SimModel, colliders: readonly number[]): ObjectDescription['parts'] {
  return colliders.map((c) => ({ shape: model.colliders[c].shape, pose: pose7(model.colliders[c].localPose) }));
}

/** Everything the page draws that does not come from frames. */
export function describeScene(model: SimModel, layout: FrameLayout): SceneDescription {
  const objects: ObjectDescription[] = [
    ...model.statics.map((s, i) => ({ id: `${s.origin}:${s.id}`, kind: 'static' as const, label: s.label, colour: objectColour(s.label, i), pose: pose7(s.pose), parts: colliderParts(model, s.colliders), index: i })),
    ...model.sensors.map((s, i) => ({ id: `sensor:${s.id}`, kind: 'sensor' as const, label: 'sensor', colour: SENSOR_COLOUR, pose: pose7(s.pose), parts: colliderParts(model, s.colliders), index: i })),
    ...model.bodies.map((b, i) => ({
      id: `${b.origin}:${b.id}`,
      kind: 'body' as const,
      label: b.label ?? b.kind,
      colour: objectColour(b.label ?? 'prop', i),
      pose: pose7(b.pose),
      parts: colliderParts(model, b.colliders),
      index: i,
    })),
  ];
  return {
    room: [...model.sources.scene.room.size],
    objects,
    depthCamera: findChannel(layout, 'depth')?.camera ?? null,
    headFrustum: { fovDeg: 90, aspect: 4 / 3 },
    jointNames: [...OPENXR_JOINTS],
  };
}

/** A surface added at run time (static index `surface`), as a drawable object. */
export function describeSurface(surface: number, spec: SurfaceSpec): ObjectDescription {
  const pose: Pose = { position: [...spec.position], rotation: quatFromEulerDeg(spec.eulerDeg) };
  return {
    id: `surface:${spec.id}`,
    kind: 'surface',
    label: spec.label,
    colour: objectColour(spec.label, surface),
    pose: pose7(pose),
    parts: partsOf(spec).map((part) => ({ shape: part.shape, pose: pose7(part.pose) })),
    index: surface,
  };
}
