/**
 * JSON Schemas of the MCAP export's channels. Poses, transforms, images and the scene use Foxglove's
 * well-known message names and fields (so Foxglove draws them in its 3D and image panels); events and tags
 * are xrsim's own.
 */

const time = { type: 'object', properties: { sec: { type: 'integer' }, nsec: { type: 'integer' } } };
const vector3 = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' } } };
const quaternion = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' }, w: { type: 'number' } } };
const pose = { type: 'object', properties: { position: vector3, orientation: quaternion } };
/** Fields every image-like message starts with. */
const image = { timestamp: time, frame_id: { type: 'string' }, width: { type: 'integer' }, height: { type: 'integer' } };
const numbers = { type: 'array', items: { type: 'number' } };
const colour = { type: 'object', properties: { r: { type: 'number' }, g: { type: 'number' }, b: { type: 'number' }, a: { type: 'number' } } };

/** Schema name → JSON Schema. */
export const MCAP_SCHEMAS: Record<string, object> = {
  'foxglove.PoseInFrame': { type: 'object', properties: { timestamp: time, frame_id: { type: 'string' }, pose } },
  'foxglove.PosesInFrame': { type: 'object', properties: { timestamp: time, frame_id: { type: 'string' }, poses: { type: 'array', items: pose } } },
  'foxglove.FrameTransforms': {
    type: 'object',
    properties: {
      transforms: {
        type: 'array',
        items: { type: 'object', properties: { timestamp: time, parent_frame_id: { type: 'string' }, child_frame_id: { type: 'string' }, translation: vector3, rotation: quaternion } },
      },
    },
  },
  'foxglove.RawImage': {
    type: 'object',
    properties: { ...image, encoding: { type: 'string' }, step: { type: 'integer' }, data: { type: 'string', contentEncoding: 'base64' } },
  },
  'foxglove.CameraCalibration': {
    type: 'object',
    properties: { ...image, distortion_model: { type: 'string' }, D: numbers, K: numbers, R: numbers, P: numbers },
  },
  'foxglove.SceneUpdate': {
    type: 'object',
    properties: {
      deletions: { type: 'array', items: { type: 'object' } },
      entities: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            timestamp: time,
            frame_id: { type: 'string' },
            id: { type: 'string' },
            frame_locked: { type: 'boolean' },
            cubes: { type: 'array', items: { type: 'object', properties: { pose, size: vector3, color: colour } } },
            spheres: { type: 'array', items: { type: 'object', properties: { pose, size: vector3, color: colour } } },
            cylinders: { type: 'array', items: { type: 'object', properties: { pose, size: vector3, bottom_scale: { type: 'number' }, top_scale: { type: 'number' }, color: colour } } },
            triangles: { type: 'array', items: { type: 'object', properties: { pose, points: { type: 'array', items: vector3 }, color: colour } } },
          },
        },
      },
    },
  },
  'xrsim.Event': {
    type: 'object',
    description: 'One event record of the frame stream, decoded (see xrsim docs/ARCHITECTURE.md, the events channel).',
    properties: { timestamp: time, tick: { type: 'integer' }, name: { type: 'string' }, data: { type: 'object' } },
  },
  'xrsim.Controller': {
    type: 'object',
    description: 'A connected controller: grip and target-ray poses, the six xr-standard buttons and four axes.',
    properties: { timestamp: time, frame_id: { type: 'string' }, grip: pose, target_ray: pose, buttons: { type: 'object' }, axes: { type: 'array', items: { type: 'number' } } },
  },
};
