/**
 * Resolving references (`task:ball`, `scene:table`, see `task/references.ts`) against a model: which
 * body, static object or sensor they name. Actors, validators, sessions and the environment all resolve
 * through here, so an unknown object is the same {@link XrsimInputError} wherever it is named.
 */
import { formatReference, parseReference, unknownReference, type Reference, type ReferenceOptions } from '../task/references.js';
import { referenceFields, REFERENCE_TYPES } from '../task/reference-fields.js';
import type { ValidatorSpecBase } from '../task/types.js';
import type { ObjectOrigin, SimModel } from './types.js';

/** The objects of a model that references name. */
export type ModelObjects = Pick<SimModel, 'bodies' | 'statics' | 'sensors'>;

/** What can be resolved to an object of the model. */
export type ObjectReference = Extract<Reference, { kind: 'task' | 'scene' }>;

/** `task:ball`: the reference of a model object. */
export function objectReference(origin: ObjectOrigin, id: string): string {
  return formatReference({ kind: origin, id });
}

function asObject(ref: string | Reference, options: ReferenceOptions): { ref: ObjectReference; text: string } {
  const parsed = typeof ref === 'string' ? parseReference(ref, { ...options, accept: ['task', 'scene'] }) : ref;
  if (parsed.kind !== 'task' && parsed.kind !== 'scene') throw new Error(`${formatReference(parsed)} is not an object reference`);
  return { ref: parsed, text: formatReference(parsed) };
}

function find<T extends { origin: ObjectOrigin; id: string }>(list: readonly T[], ref: ObjectReference): number {
  return list.findIndex((o) => o.origin === ref.kind && o.id === ref.id);
}

/** Index in `model.bodies` (and the `bodies` channel) of the dynamic body a reference names. */
export function bodyIndexOf(model: ModelObjects, ref: string | Reference, options: ReferenceOptions = {}): number {
  const { ref: object, text } = asObject(ref, options);
  const index = find(model.bodies, object);
  if (index < 0) throw unknownReference(text, 'dynamic body', model.bodies.map((b) => objectReference(b.origin, b.id)), options);
  return index;
}

/** Index in `model.statics` of the surface or fixture a reference names. */
export function staticIndexOf(model: ModelObjects, ref: string | Reference, options: ReferenceOptions = {}): number {
  const { ref: object, text } = asObject(ref, options);
  const index = find(model.statics, object);
  if (index < 0) throw unknownReference(text, 'surface or fixture', model.statics.map((s) => objectReference(s.origin, s.id)), options);
  return index;
}

/** Index in `model.sensors` of the sensor a reference names (sensors are the task's own). */
export function sensorIndexOf(model: ModelObjects, ref: string | Reference, options: ReferenceOptions = {}): number {
  const { ref: object, text } = asObject(ref, options);
  const index = object.kind === 'task' ? model.sensors.findIndex((s) => s.id === object.id) : -1;
  if (index < 0) throw unknownReference(text, 'sensor', model.sensors.map((s) => objectReference('task', s.id)), options);
  return index;
}

/** The colliders of the object a reference names: a dynamic body, or else a surface or fixture. */
export function collidersOf(model: ModelObjects, ref: string | Reference, options: ReferenceOptions = {}): readonly number[] {
  const { ref: object, text } = asObject(ref, options);
  const owner = model.bodies[find(model.bodies, object)] ?? model.statics[find(model.statics, object)];
  if (!owner) throw unknownReference(text, 'body, surface or fixture', [...model.bodies, ...model.statics].map((o) => objectReference(o.origin, o.id)), options);
  return owner.colliders;
}

/**
 * Checks that every object a task's validators name is in the model (the loader checks the task's own
 * objects; the scene's are known only here). Throws `XrsimInputError` naming the file and JSON path.
 */
export function checkValidatorReferences(model: ModelObjects, validators: readonly ValidatorSpecBase[], file: string): void {
  validators.forEach((validator, i) => {
    for (const field of referenceFields(validator, `$.validators[${i}]`)) {
      const { accept, objects } = REFERENCE_TYPES[field.type];
      const where = { file, jsonPath: field.jsonPath };
      const ref = parseReference(field.text, { accept, bare: 'task', ...where });
      if (ref.kind !== 'task' && ref.kind !== 'scene') continue;
      if (objects === 'body') bodyIndexOf(model, ref, where);
      else if (objects === 'sensor') sensorIndexOf(model, ref, where);
      else collidersOf(model, ref, where);
    }
  });
}
