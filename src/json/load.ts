/**
 * Reading JSON data files (scenes, tasks) with errors that say where the problem is.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { XrsimInputError, pointerToJsonPath } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { readTextKept } from './kept-texts.js';
import { lineAndColumn, locateJsonSyntaxError } from './syntax.js';

/** The largest scene, task or hand-model file read (the shipped ones are a few kilobytes). */
export const MAX_JSON_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads and parses a JSON file. A syntax error names the file, the line and the column. Only regular files
 * of at most {@link MAX_JSON_FILE_BYTES} are read (`--task /dev/zero` would never end).
 */
export function readJsonFile(path: string): unknown {
  return parseJsonText(readTextFile(path), path);
}

/**
 * Reads a JSON file's text. Only a regular file of at most {@link MAX_JSON_FILE_BYTES} is read; a missing
 * file, a folder or anything else is bad input naming the file.
 */
export function readTextFile(path: string): string {
  const unreadable = (err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    return new XrsimInputError(code === 'ENOENT' ? 'no such file' : String(err), { file: path });
  };
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new XrsimInputError('is a directory, not a file', { file: path });
    if (!stat.isFile()) throw new XrsimInputError('not a regular file', { file: path, expected: 'a JSON file' });
    if (stat.size > MAX_JSON_FILE_BYTES) throw new XrsimInputError(`${stat.size} bytes is too large`, { file: path, expected: `a JSON file of at most ${MAX_JSON_FILE_BYTES} bytes` });
    return readTextKept(path, stat);
  } catch (err) {
    throw err instanceof XrsimInputError ? err : unreadable(err);
  }
}

/**
 * Parses JSON text; `file` is used only in error messages. A syntax error gives the line, the column and
 * what was expected there, and never quotes the text: the file may not be what the user thought it was.
 */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const problem = locateJsonSyntaxError(text);
    let where = '';
    if (problem) {
      const { line, column } = lineAndColumn(text, problem.offset);
      where = ` at line ${line}, column ${column}`;
    }
    throw new XrsimInputError(`invalid JSON${where}`, { file, expected: problem?.expected ?? 'a well-formed JSON document' });
  }
}

/**
 * How schemas are compiled, at run time and by `scripts/precompile-schemas.mjs`. Validation stops at the
 * first problem (no `allErrors`): collecting every error of a hostile file (a million wrong array items)
 * took minutes and gigabytes, and the user is shown one problem anyway. A `oneOf` still reports each
 * failing branch's first problem, which {@link pickMostSpecific} chooses from.
 */
export const AJV_OPTIONS: Options = { allErrors: false, strict: true, allowUnionTypes: true, discriminator: true };
/** The shipped schemas as standalone validators, written by `npm run build` (`scripts/precompile-schemas.mjs`). */
export const PRECOMPILED_SCHEMAS = join(PACKAGE_ROOT, 'dist', 'schemas', 'precompiled.cjs');

const ajv = new Ajv(AJV_OPTIONS);
/** Per schema file: its `$id` and its validator. */
const compiled = new Map<string, { id: string; validate: ValidateFunction }>();
const added = new Set<string>();

type Precompiled = Record<string, ValidateFunction> & { __schemaHashes: Record<string, string> };
let precompiled: Precompiled | null | undefined;

/**
 * The build's standalone validators, or null where there are none (a checkout not built yet). Compiling the
 * task schema at run time costs about a second, most of what opening a stream in the viewer waited for.
 */
function precompiledValidators(): Precompiled | null {
  if (precompiled === undefined) {
    try {
      precompiled = createRequire(import.meta.url)(PRECOMPILED_SCHEMAS) as Precompiled;
    } catch {
      precompiled = null;
    }
  }
  return precompiled;
}

function compiledSchema(schemaPath: string): { id: string; validate: ValidateFunction } {
  let entry = compiled.get(schemaPath);
  if (!entry) {
    const text = readTextFile(schemaPath);
    const schema = parseJsonText(text, schemaPath) as { $id: string };
    const ready = precompiledValidators();
    // Used only when made from this very file: an edited schema is compiled afresh.
    const fresh = ready?.__schemaHashes[schema.$id] === createHash('sha256').update(text).digest('hex') && typeof ready[schema.$id] === 'function';
    if (!added.has(schema.$id)) {
      ajv.addSchema(schema); // for schemas compiled here that refer to it (no compiling yet)
      added.add(schema.$id);
    }
    entry = { id: schema.$id, validate: fresh ? ready![schema.$id] : ajv.getSchema(schema.$id)! };
    compiled.set(schemaPath, entry);
  }
  return entry;
}

/**
 * Validates `data` against the JSON Schema in `schemaPath` (compiled once and cached).
 * `dependencies` are schemas that `schemaPath` refers to by `$id`; they are compiled first.
 */
export function validateAgainstSchema(schemaPath: string, data: unknown, file: string, dependencies: string[] = []): void {
  for (const dependency of dependencies) compiledSchema(dependency);
  checkNumbers(data, file, '');
  report(compiledSchema(schemaPath).validate, data, file, '');
}

/**
 * Validates `data` against one definition of a schema (`#/definitions/<name>`), for documents that embed
 * that part alone (a session spec's `user`). Errors are reported under `prefix` (such as `/user`).
 */
export function validateAgainstDefinition(schemaPath: string, definition: string, data: unknown, file: string, prefix: string, dependencies: string[] = []): void {
  for (const dependency of dependencies) compiledSchema(dependency);
  const root = compiledSchema(schemaPath);
  const key = `${root.id}#/definitions/${definition}`;
  const ready = precompiledValidators();
  const validate = root.validate === ready?.[root.id] ? ready[key] : ajv.getSchema(key);
  if (!validate) throw new Error(`schema ${schemaPath} has no definition "${definition}"`);
  checkNumbers(data, file, prefix);
  report(validate, data, file, prefix);
}

/**
 * The largest magnitude any number in a scene, task, hand model or session spec may have. The world is
 * metres, kilograms and seconds at human scale; past this, float32 channels and the physics engine lose
 * all precision (1e6 m is already 6 cm per float32 step) and a pose at 1e308 becomes infinite.
 */
export const MAX_INPUT_MAGNITUDE = 1e6;

/**
 * Refuses non-finite numbers (NaN and ±Infinity in inline objects, or a literal such as 1e309 that
 * overflows a double) and numbers past {@link MAX_INPUT_MAGNITUDE}, naming the JSON path. The value itself
 * is not quoted (errors never echo a file's contents).
 */
function checkNumbers(data: unknown, file: string, prefix: string): void {
  const path = pathToBadNumber(data);
  if (path === null) return;
  const value = path.value as number;
  const pointer = prefix + path.keys.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  throw new XrsimInputError(Number.isFinite(value) ? 'number out of range' : 'not a finite number', {
    file,
    jsonPath: pointerToJsonPath(pointer),
    expected: `a finite number from -${MAX_INPUT_MAGNITUDE} to ${MAX_INPUT_MAGNITUDE}`,
  });
}

/** One container being walked: its keys (null for an array, walked by index) and the next position. */
interface WalkFrame {
  container: Record<string, unknown> | unknown[];
  keys: string[] | null;
  next: number;
}

/**
 * The keys leading to the first number (in document order) that is not finite or past
 * {@link MAX_INPUT_MAGNITUDE}, and that number; null when there is none. Depth first with an explicit
 * stack, building no path until one is found: a 16 MB file of 8 million numbers is walked in a few tens
 * of milliseconds (a pointer string per value took seconds, most of them in the garbage collector).
 */
function pathToBadNumber(data: unknown): { keys: string[]; value: unknown } | null {
  const isBad = (v: unknown) => typeof v === 'number' && !(Number.isFinite(v) && Math.abs(v) <= MAX_INPUT_MAGNITUDE);
  if (isBad(data)) return { keys: [], value: data };
  if (data === null || typeof data !== 'object') return null;
  const seen = new Set<object>([data]);
  const stack: WalkFrame[] = [{ container: data as WalkFrame['container'], keys: Array.isArray(data) ? null : Object.keys(data), next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const length = frame.keys === null ? (frame.container as unknown[]).length : frame.keys.length;
    if (frame.next >= length) {
      stack.pop();
      continue;
    }
    const at = frame.next++;
    const child = frame.keys === null ? (frame.container as unknown[])[at] : (frame.container as Record<string, unknown>)[frame.keys[at]];
    if (isBad(child)) {
      const keys = stack.map((f) => (f.keys === null ? String(f.next - 1) : f.keys[f.next - 1]));
      return { keys, value: child };
    }
    if (child !== null && typeof child === 'object' && !seen.has(child)) {
      seen.add(child);
      stack.push({ container: child as WalkFrame['container'], keys: Array.isArray(child) ? null : Object.keys(child), next: 0 });
    }
  }
  return null;
}

function report(validate: ValidateFunction, data: unknown, file: string, prefix: string): void {
  if (validate(data)) return;
  const first = pickMostSpecific(validate.errors ?? [])[0];
  throw new XrsimInputError(describeAjvError(first), {
    file,
    jsonPath: pointerToJsonPath(prefix + errorPointer(first)),
    expected: expectedFor(first),
  });
}

function errorPointer(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `${e.instancePath}/${String(e.params.additionalProperty)}`;
  if (e.keyword === 'required') return `${e.instancePath}/${String(e.params.missingProperty)}`;
  return e.instancePath;
}

function describeAjvError(e: ErrorObject): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown property "${String(e.params.additionalProperty)}"`;
    case 'required':
      return `missing required property "${String(e.params.missingProperty)}"`;
    default:
      return e.message ?? `failed ${e.keyword}`;
  }
}

function expectedFor(e: ErrorObject): string | undefined {
  switch (e.keyword) {
    case 'type':
      return String(e.params.type);
    case 'enum':
      return `one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return JSON.stringify(e.params.allowedValue);
    case 'minItems':
    case 'maxItems':
      return `${e.keyword === 'minItems' ? 'at least' : 'at most'} ${String(e.params.limit)} items`;
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return `a number ${String(e.params.comparison)} ${String(e.params.limit)}`;
    case 'pattern':
      return `a string matching ${String(e.params.pattern)}`;
    default:
      return undefined;
  }
}

/**
 * ajv reports the first problem of every failing branch of a oneOf; the user wants the deepest, most specific one.
 * Errors are ordered deepest path first; `oneOf`/`anyOf` summaries go last.
 */
function pickMostSpecific(errors: ErrorObject[]): ErrorObject[] {
  const depth = (e: ErrorObject) => errorPointer(e).split('/').length;
  const isSummary = (e: ErrorObject) => e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if';
  return [...errors].sort((a, b) => Number(isSummary(a)) - Number(isSummary(b)) || depth(b) - depth(a));
}

const documents = new Map<string, unknown>();

/** The parsed JSON Schema document at `schemaPath` (read once), for code that reads a schema's structure. */
export function schemaDocument(schemaPath: string): unknown {
  if (!documents.has(schemaPath)) documents.set(schemaPath, readJsonFile(schemaPath));
  return documents.get(schemaPath);
}
