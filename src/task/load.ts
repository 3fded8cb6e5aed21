/**
 * Loading tasks by id (from the shipped suite) or by path (a user's own file), with full validation.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { XrsimInputError, childPath } from '../errors.js';
import { ContentCache, deepFreeze } from '../json/cache.js';
import { parseJsonText, readTextFile, validateAgainstDefinition, validateAgainstSchema } from '../json/load.js';
import { hasOwnName, listNames } from '../json/names.js';
import { SCENE_SCHEMA, TASK_SCHEMA, TASKS_DIR } from '../paths.js';
import { checkGeometry, looksLikePath } from '../scene/load.js';
import { DEFAULT_APP } from './programs.js';
import { referenceFields, REFERENCE_TYPES, type ReferenceField } from './reference-fields.js';
import { formatReference, parseReference, unknownReference } from './references.js';
import { isBrowserAppEntry, type BrowserAppEntrySpec, type TaskSpec } from './types.js';
import { FAILURE_CATEGORY_IDS } from './failure-categories.js';
import { checkMilestoneMoments, checkMilestoneRequirements, checkVisualViews } from './requirements.js';

/** A validated task and where it came from. */
export interface LoadedTask {
  spec: TaskSpec;
  /** The file it was read from, or `<inline task>`. */
  file: string;
}

/** Ids of the shipped tasks (`physics/stack-settle`, ...), sorted. */
export function listTaskIds(): string[] {
  const ids: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (existsSync(join(path, 'task.json'))) ids.push(relative(TASKS_DIR, path).split(sep).join('/'));
        walk(path);
      }
    }
  };
  walk(TASKS_DIR);
  return ids.sort();
}

/**
 * Loads a task from a suite id (`physics/stack-settle`), a path (`./my-task.json`, or a folder holding
 * `task.json`) or an inline object. Throws {@link XrsimInputError} naming the file and JSON path on any problem.
 */
export function loadTask(ref: string | TaskSpec): LoadedTask {
  if (typeof ref !== 'string') return { spec: validateTask(ref, '<inline task>'), file: '<inline task>' };
  let file: string;
  if (looksLikePath(ref)) {
    file = existsSync(ref) && statSync(ref).isDirectory() ? join(ref, 'task.json') : ref;
  } else {
    file = join(TASKS_DIR, ...ref.split('/'), 'task.json');
    if (!/^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/.test(ref) || !existsSync(file)) {
      throw new XrsimInputError(`unknown task "${ref}". Known tasks: ${listTaskIds().join(', ')}`, {
        expected: 'a task id or a path to a task .json file',
      });
    }
  }
  const text = readTextFile(file);
  return taskFiles.get(file, text, () => deepFreeze({ spec: validateTask(parseJsonText(text, file), file), file }));
}

/** Tasks loaded from files, by content (a task file is read again for every session of a sweep). */
const taskFiles = new ContentCache<LoadedTask>();

/** Validates sensing options given outside a task file (a session spec's `sensing`), reporting `$.sensing...` paths. */
export function validateSensingOptions(sensing: unknown): void {
  validateAgainstDefinition(TASK_SCHEMA, 'sensing', sensing, '<session spec>', '/sensing', [SCENE_SCHEMA]);
}

/** Validates user options given outside a task file (a session spec's `user`), reporting `$.user...` paths. */
export function validateUserOptions(user: unknown): void {
  validateAgainstDefinition(TASK_SCHEMA, 'user', user, '<session spec>', '/user', [SCENE_SCHEMA]);
}

/** Schema validation plus cross-reference checks. Returns the data typed as a task. */
export function validateTask(data: unknown, file: string): TaskSpec {
  // The task schema refers to the scene schema's geometry definitions.
  validateAgainstSchema(TASK_SCHEMA, data, file, [SCENE_SCHEMA]);
  const task = data as TaskSpec;
  const materials = task.materials ?? {};
  const kinds = new Map<string, 'fixture' | 'body' | 'sensor'>();
  const declare = (id: string, kind: 'fixture' | 'body' | 'sensor', path: string) => {
    if (kinds.has(id)) throw new XrsimInputError(`duplicate id "${id}"`, { file, jsonPath: path, expected: 'ids unique within the task' });
    kinds.set(id, kind);
  };
  (task.fixtures ?? []).forEach((fixture, i) => {
    const path = `$.fixtures[${i}]`;
    declare(fixture.id, 'fixture', childPath(path, 'id'));
    checkGeometry(fixture, path, file);
    if (!hasOwnName(materials, fixture.material)) {
      throw new XrsimInputError(`unknown material "${fixture.material}"`, {
        file,
        jsonPath: childPath(path, 'material'),
        expected: `one of the task's materials: ${listNames(Object.keys(materials)) || '(none defined)'}`,
      });
    }
  });
  (task.bodies ?? []).forEach((body, i) => {
    declare(body.id, 'body', `$.bodies[${i}].id`);
    checkGeometry(body, `$.bodies[${i}]`, file);
  });
  (task.sensors ?? []).forEach((sensor, i) => {
    declare(sensor.id, 'sensor', `$.sensors[${i}].id`);
    checkGeometry(sensor, `$.sensors[${i}]`, file);
  });
  const expectKind = (id: string, wanted: ('fixture' | 'body' | 'sensor')[], path: string) => {
    const kind = kinds.get(id);
    if (!kind || !wanted.includes(kind)) {
      const candidates = [...kinds].filter(([, k]) => wanted.includes(k)).map(([name]) => name);
      throw new XrsimInputError(kind ? `"${id}" is a ${kind}` : `unknown ${wanted.join(' or ')} "${id}"`, {
        file,
        jsonPath: path,
        expected: `one of the task's ${wanted.map(plural).join(' or ')}: ${listNames(candidates) || '(none)'}`,
      });
    }
  };
  (task.randomize ?? []).forEach((r, i) => expectKind(r.body, ['body'], `$.randomize[${i}].body`));
  const milestoneIds = new Set<string>();
  task.validators.forEach((v, i) => {
    const path = `$.validators[${i}]`;
    v.milestones.forEach((m, j) => {
      if (milestoneIds.has(m.id)) {
        throw new XrsimInputError(`duplicate milestone id "${m.id}"`, { file, jsonPath: `${path}.milestones[${j}].id`, expected: 'milestone ids unique within the task' });
      }
      milestoneIds.add(m.id);
    });
    for (const field of referenceFields(v, path)) checkTaskReference(field, kinds, file);
  });
  checkMilestoneRequirements(task, file);
  checkMilestoneMoments(task, file);
  checkVisualViews(task, file);
  checkApps(task, milestoneIds, file);
  return task;
}

/**
 * Parses a validator's reference and, when it names an object of the task, checks that the task declares
 * one of the right kind. Scene objects are checked when the model is built (the scene is not known yet).
 */
function checkTaskReference(field: ReferenceField, kinds: Map<string, 'fixture' | 'body' | 'sensor'>, file: string): void {
  const { accept, objects } = REFERENCE_TYPES[field.type];
  const ref = parseReference(field.text, { accept, bare: 'task', file, jsonPath: field.jsonPath });
  if (ref.kind !== 'task') return;
  const wanted: ('fixture' | 'body' | 'sensor')[] = objects === 'object' ? ['body', 'fixture'] : [objects];
  if (!wanted.includes(kinds.get(ref.id)!)) {
    const known = [...kinds].filter(([, kind]) => wanted.includes(kind)).map(([id]) => formatReference({ kind: 'task', id }));
    throw unknownReference(field.text, `${wanted.join(' or ')} of the task`, known, { file, jsonPath: field.jsonPath });
  }
}

/**
 * An app list needs a reference app; expected failures must name milestones of the task, and an app expected
 * to fail names its failure category. An empty list (`"apps": {}`) is a task meant for candidate apps given
 * by path: its validators are the test, and it needs no reference.
 */
function checkApps(task: TaskSpec, milestones: Set<string>, file: string): void {
  if (!task.apps || Object.keys(task.apps).length === 0) return;
  if (!task.apps[DEFAULT_APP]) {
    throw new XrsimInputError(`the task lists apps but no "${DEFAULT_APP}" app`, { file, jsonPath: '$.apps', expected: `a "${DEFAULT_APP}" app that passes every milestone` });
  }
  for (const [name, app] of Object.entries(task.apps)) {
    const adversarial = (app.expectFail ?? []).length > 0;
    if (adversarial && !app.category) {
      throw new XrsimInputError('an adversarial app needs a category', { file, jsonPath: `$.apps.${name}`, expected: `"category": one of ${FAILURE_CATEGORY_IDS.join(', ')}` });
    }
    if (!adversarial && app.category) {
      throw new XrsimInputError('only an app that is expected to fail has a failure category', { file, jsonPath: `$.apps.${name}.category`, expected: 'no category, or an expectFail list' });
    }
    if (app.failsWithHand && !adversarial) {
      throw new XrsimInputError('only an app that is expected to fail names the hand it fails with', { file, jsonPath: `$.apps.${name}.failsWithHand`, expected: 'no failsWithHand, or an expectFail list' });
    }
    if (isBrowserAppEntry(app) && !file.startsWith('<')) checkBrowserEntry(app, dirname(file), file, `$.apps.${name}`);
    (app.expectFail ?? []).forEach((id, i) => {
      if (!milestones.has(id)) {
        throw new XrsimInputError(`unknown milestone "${id}"`, { file, jsonPath: `$.apps.${name}.expectFail[${i}]`, expected: `one of the task's milestones: ${listNames(milestones)}` });
      }
    });
  }
}

/** A browser entry's directory and page exist inside the task's folder tree. */
function checkBrowserEntry(app: BrowserAppEntrySpec, base: string, file: string, jsonPath: string): void {
  const dir = resolve(base, app.dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new XrsimInputError(`browser app directory not found: ${dir}`, { file, jsonPath: `${jsonPath}.dir`, expected: 'a directory holding the page, relative to the task file' });
  }
  const page = app.page ?? 'index.html';
  if (page.split(/[\\/]/).includes('..') || isAbsolute(page) || !existsSync(join(dir, page))) {
    throw new XrsimInputError(`browser app page not found: ${join(dir, page)}`, { file, jsonPath: `${jsonPath}.page`, expected: 'an .html file inside the app directory (default index.html)' });
  }
}

function plural(kind: 'fixture' | 'body' | 'sensor'): string {
  return kind === 'body' ? 'bodies' : `${kind}s`;
}
