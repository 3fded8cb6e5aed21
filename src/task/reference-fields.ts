/**
 * Which fields of a task's validators are references, and to what. This is read from the task schema, not
 * written again here: a formula's options name `#/definitions/subject`, `bodyReference`, `sensorReference`
 * or `objectReference` for a reference (the formula registry writes them into `tasks/task.schema.json`), so a new formula's
 * references are checked by the loader and the model with no change to either.
 */
import { childPath } from '../errors.js';
import { schemaDocument } from '../json/load.js';
import { ownEntry } from '../json/names.js';
import { TASK_SCHEMA } from '../paths.js';
import type { ReferenceKind } from './references.js';
import type { ValidatorSpecBase } from './types.js';

/** The schema definitions that are references, what each accepts, and what its objects must be. */
export const REFERENCE_TYPES = {
  /** A point a formula follows: a body, an app's tag, a hand joint or the head. */
  subject: { accept: ['task', 'scene', 'tag', 'hand', 'head'], objects: 'body' },
  /** A dynamic body: a task body or a scene prop. */
  bodyReference: { accept: ['task', 'scene'], objects: 'body' },
  /** A sensor of the task. */
  sensorReference: { accept: ['task'], objects: 'sensor' },
  /** A body, a fixture or a surface. */
  objectReference: { accept: ['task', 'scene'], objects: 'object' },
} as const satisfies Record<string, { accept: readonly ReferenceKind[]; objects: string }>;

/** The name of a reference definition. */
export type ReferenceType = keyof typeof REFERENCE_TYPES;

/** One reference field of a validator: where it is, what it says, and what it must name. */
export interface ReferenceField {
  jsonPath: string;
  text: string;
  type: ReferenceType;
}

interface SchemaNode {
  $ref?: string;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
}

/** The schema of a validator: one branch per formula, as in the task schema's `definitions.validator`. */
export interface ValidatorSchema {
  oneOf: (SchemaNode & { properties: { type: { const: string } } })[];
}

/** The task schema's `definitions.validator`. */
export function taskValidatorSchema(): ValidatorSchema {
  return (schemaDocument(TASK_SCHEMA) as { definitions: { validator: ValidatorSchema } }).definitions.validator;
}

/** Every reference field of validator `spec` (at `jsonPath`), in document order. */
export function referenceFields(spec: ValidatorSpecBase, jsonPath: string, schema: ValidatorSchema = taskValidatorSchema()): ReferenceField[] {
  const fields: ReferenceField[] = [];
  const branch = schema.oneOf.find((b) => b.properties.type.const === spec.type);
  if (branch) walk(branch, spec, jsonPath, fields);
  return fields;
}

function walk(schema: SchemaNode, value: unknown, jsonPath: string, out: ReferenceField[]): void {
  const definition = schema.$ref?.startsWith('#/definitions/') ? schema.$ref.slice('#/definitions/'.length) : undefined;
  if (definition !== undefined && definition in REFERENCE_TYPES) {
    if (typeof value === 'string') out.push({ jsonPath, text: value, type: definition as ReferenceType });
    return;
  }
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) walk(branch, value, jsonPath, out);
  if (schema.items && Array.isArray(value)) value.forEach((item, i) => walk(schema.items!, item, `${jsonPath}[${i}]`, out));
  if (schema.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      const property = ownEntry(schema.properties, key);
      if (property) walk(property, child, childPath(jsonPath, key), out);
    }
  }
}
