/**
 * Models for `createSession`, reused by their inputs. A sweep runs each task in each room for many seeds
 * and hands, and a model does not depend on either, so it is built once per worker. The inputs are the
 * loaded task and scene (the loaders return the same frozen objects while their files are unchanged), the
 * hand model, the spec's options and the content hashes of the task's programs (read again every time, so
 * an edited app or actor script gives a new model). Models are immutable; sharing one is what
 * `Session.create` was made for.
 */
import { resolvePrograms } from '../task/programs.js';
import { buildModel } from '../model/build.js';
import type { ModelOptions, SimModel } from '../model/types.js';
import type { LoadedScene } from '../scene/load.js';
import type { LoadedTask } from '../task/load.js';

/** Models kept per task and scene (different options: durations, sensing, apps, hand models). */
const PER_TASK_AND_SCENE = 16;

const models = new WeakMap<LoadedTask, WeakMap<LoadedScene, Map<string, SimModel>>>();
const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

/** `buildModel(scene, task, options)`, or the model an earlier call built from the same inputs. */
export function modelFor(scene: LoadedScene, task: LoadedTask, options: Omit<ModelOptions, 'programs'>): SimModel {
  // Inline tasks and scenes are new, unfrozen objects every time: nothing to reuse.
  if (!Object.isFrozen(task) || !Object.isFrozen(scene) || (options.handModel && !Object.isFrozen(options.handModel))) return buildModel(scene, task, options);
  const programs = resolvePrograms(task.spec, task.file, options.app, options.start);
  const key = JSON.stringify([
    options.substeps ?? null,
    options.duration ?? null,
    options.handModel ? idOf(options.handModel) : null,
    options.user ?? null,
    options.sensing ?? null,
    options.app ?? null,
    options.start ?? null,
    programs.actors?.sha256 ?? null,
    programs.app?.sha256 ?? null,
  ]);
  let byScene = models.get(task);
  if (!byScene) models.set(task, (byScene = new WeakMap()));
  let byOptions = byScene.get(scene);
  if (!byOptions) byScene.set(scene, (byOptions = new Map()));
  let model = byOptions.get(key);
  if (!model) {
    model = buildModel(scene, task, options);
    if (byOptions.size >= PER_TASK_AND_SCENE) byOptions.delete(byOptions.keys().next().value!);
    byOptions.set(key, model);
  }
  return model;
}

function idOf(object: object): number {
  let id = objectIds.get(object);
  if (id === undefined) objectIds.set(object, (id = nextObjectId++));
  return id;
}
