/**
 * Loading scenes by id (from the shipped library) or by path (a user's own file), with full validation.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { XrsimInputError, childPath } from '../errors.js';
import { aabbOverlap, composePose, type Aabb, partsOf, placedShapeAabb, polygonProblem, quatFromEulerDeg, quatFromYawDeg, type Pose } from '../geometry/math.js';
import type { PlacedGeometrySpec } from '../geometry/types.js';
import { ContentCache, deepFreeze } from '../json/cache.js';
import { parseJsonText, readTextFile, validateAgainstSchema } from '../json/load.js';
import { hasOwnName, listNames } from '../json/names.js';
import { SCENE_SCHEMA, SCENES_DIR } from '../paths.js';
import type { AnchorSpec, SceneSpec } from './types.js';

/** A validated scene and where it came from. */
export interface LoadedScene {
  spec: SceneSpec;
  /** The file it was read from, or `<inline scene>`. */
  file: string;
}

/** Ids of the shipped scenes, sorted. */
export function listSceneIds(): string[] {
  return readdirSync(SCENES_DIR)
    .filter((name) => name.endsWith('.json') && !name.endsWith('.schema.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

/** True when a reference names a file rather than a library id. */
export function looksLikePath(ref: string): boolean {
  return ref.endsWith('.json') || ref.startsWith('.') || ref.startsWith('/') || ref.includes('\\');
}

/**
 * Loads a scene from a library id (`kitchen`), a file path (`./my-room.json`) or an inline object.
 * Throws {@link XrsimInputError} naming the file and JSON path on any problem.
 */
export function loadScene(ref: string | SceneSpec): LoadedScene {
  if (typeof ref !== 'string') return { spec: validateScene(ref, '<inline scene>'), file: '<inline scene>' };
  let file: string;
  if (looksLikePath(ref)) {
    file = ref;
  } else {
    file = join(SCENES_DIR, `${ref}.json`);
    if (!/^[a-z0-9][a-z0-9-]*$/.test(ref) || !existsSync(file)) {
      throw new XrsimInputError(`unknown scene "${ref}". Known scenes: ${listSceneIds().join(', ')}`, {
        expected: 'a scene id or a path to a scene .json file',
      });
    }
  }
  const text = readTextFile(file);
  return sceneFiles.get(file, text, () => deepFreeze({ spec: validateScene(parseJsonText(text, file), file), file }));
}

/** Scenes loaded from files, by content. */
const sceneFiles = new ContentCache<LoadedScene>();

/** Schema validation plus the checks a schema cannot express. Returns the data typed as a scene. */
export function validateScene(data: unknown, file: string): SceneSpec {
  validateAgainstSchema(SCENE_SCHEMA, data, file);
  const scene = data as SceneSpec;
  const seen = new Set<string>();
  const checkId = (id: string, path: string) => {
    if (seen.has(id)) throw new XrsimInputError(`duplicate id "${id}"`, { file, jsonPath: path, expected: 'ids unique within the scene' });
    seen.add(id);
  };
  scene.surfaces.forEach((surface, i) => {
    const path = `$.surfaces[${i}]`;
    checkId(surface.id, childPath(path, 'id'));
    checkGeometry(surface, path, file);
    if (!hasOwnName(scene.materials, surface.material)) {
      throw new XrsimInputError(`unknown material "${surface.material}"`, {
        file,
        jsonPath: childPath(path, 'material'),
        expected: `one of the scene's materials: ${listNames(Object.keys(scene.materials))}`,
      });
    }
  });
  scene.props.forEach((prop, i) => {
    checkId(prop.id, `$.props[${i}].id`);
    checkGeometry(prop, `$.props[${i}]`, file);
  });
  for (const [name, anchor] of Object.entries(scene.anchors)) checkAnchorIsClear(scene, name, anchor, file);
  return scene;
}

/** Every placed object has exactly one of `shape` and `parts`, and every polygon is a usable convex slab. */
export function checkGeometry(object: PlacedGeometrySpec, path: string, file: string): void {
  if ((object.shape === undefined) === (object.parts === undefined)) {
    throw new XrsimInputError('give exactly one of "shape" and "parts"', { file, jsonPath: path, expected: 'a shape or a list of parts' });
  }
  const shapes = object.shape ? [{ shape: object.shape, path: childPath(path, 'shape') }] : object.parts!.map((p, i) => ({ shape: p.shape, path: `${path}.parts[${i}].shape` }));
  for (const { shape, path: shapePath } of shapes) {
    if (shape.type !== 'polygon') continue;
    const problem = polygonProblem(shape.points);
    if (problem) {
      throw new XrsimInputError(problem, { file, jsonPath: childPath(shapePath, 'points'), expected: 'at least 3 distinct [x, z] points forming a convex polygon of non-zero area' });
    }
  }
}

/** Height above the anchor that must be free of obstacles. */
const ANCHOR_CLEAR_HEIGHT = 1.2;

/** The anchor as a pose. */
export function anchorPose(anchor: AnchorSpec): Pose {
  return { position: [...anchor.position], rotation: quatFromYawDeg(anchor.yawDeg) };
}

/** An anchor promises a free rectangle; make sure no surface or prop sits in it. */
function checkAnchorIsClear(scene: SceneSpec, name: string, anchor: AnchorSpec, file: string): void {
  const frame = anchorPose(anchor);
  const [length, width] = anchor.clear;
  // Start just above the supporting surface so the floor (or table top) the anchor sits on does not count.
  const free: Aabb = { min: [-length / 2, 0.005, -width / 2], max: [length / 2, ANCHOR_CLEAR_HEIGHT, width / 2] };
  const objects: { id: string; object: PlacedGeometrySpec; path: string }[] = [
    ...scene.surfaces.map((s, i) => ({ id: s.id, object: s, path: `$.surfaces[${i}]` })),
    ...scene.props.map((p, i) => ({ id: p.id, object: p, path: `$.props[${i}]` })),
  ];
  for (const { id, object, path } of objects) {
    const objectPose: Pose = { position: object.position, rotation: quatFromEulerDeg(object.eulerDeg) };
    for (const part of partsOf(object)) {
      const world = composePose(objectPose, part.pose);
      const box = placedShapeAabb(part.shape, world, frame);
      if (aabbOverlap(box, free, 0.001)) {
        throw new XrsimInputError(`"${id}" intrudes into the clear area of anchor "${name}"`, {
          file,
          jsonPath: path,
          expected: `nothing within the ${length} m × ${width} m rectangle of $.anchors["${name}"], up to ${ANCHOR_CLEAR_HEIGHT} m above it`,
        });
      }
    }
  }
}
