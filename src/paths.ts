/**
 * Where the package's data folders are, whether running from `src/` (tests) or `dist/src/` (CLI).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'xrsim') {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`xrsim: cannot find the package root above ${start}`);
    dir = parent;
  }
}

/** Absolute path of the xrsim package (the folder holding `package.json`). */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
/** The shipped scene library. */
export const SCENES_DIR = join(PACKAGE_ROOT, 'scenes');
/** The shipped task suite. */
export const TASKS_DIR = join(PACKAGE_ROOT, 'tasks');
/** The shipped hand models and pose library. */
export const HAND_MODELS_DIR = join(PACKAGE_ROOT, 'hand-models');
/** JSON Schema of hand-model files. */
export const HAND_MODEL_SCHEMA = join(HAND_MODELS_DIR, 'hand-model.schema.json');
/** JSON Schema of the pose library. */
export const POSES_SCHEMA = join(HAND_MODELS_DIR, 'poses.schema.json');
/** JSON Schema of scene files. */
export const SCENE_SCHEMA = join(SCENES_DIR, 'scene.schema.json');
/** JSON Schema of task files. */
export const TASK_SCHEMA = join(TASKS_DIR, 'task.schema.json');
/** The package version from `package.json`. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
