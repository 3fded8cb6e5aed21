/**
 * A validator formula is declared once, with {@link defineFormula}: its name, a description, its options
 * as JSON Schema fragments (from which both the task schema's branch and the TypeScript type of its spec
 * are derived), whether it reads the decoded frame state, and its implementation. `registry.ts` lists
 * every formula; `schema.ts` writes their branches into `tasks/task.schema.json`; the loader finds their
 * references through that schema. docs/TASKS.md says how to add one.
 */
import type { Vec3 } from '../geometry/types.js';
import type { AxesSpec, MilestoneSpec, Moment, PassRule, Window } from '../task/types.js';
import type { Validator } from './types.js';
import type { ValidatorContext } from './xr-context.js';

/** The part of JSON Schema that options are written in (keywords the type derivation reads, and any other). */
export interface OptionSchema {
  readonly $ref?: string;
  readonly type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  readonly enum?: readonly (string | number)[];
  readonly const?: string | number | boolean;
  readonly oneOf?: readonly OptionSchema[];
  readonly items?: OptionSchema;
  readonly properties?: { readonly [name: string]: OptionSchema };
  readonly required?: readonly string[];
  readonly description?: string;
  readonly [keyword: string]: unknown;
}

const SCENE_SCHEMA_ID = 'https://xrsim.dev/schemas/scene.schema.json';

/**
 * Fragments options refer to, defined once in the schema files. References (`subject`, `body`, `sensor`,
 * `object`) are checked by the loader and the model wherever a formula uses them.
 */
export const schema = {
  /** A point to follow: `task:<id>` or `scene:<id>` (a body), `tag:<role>`, `hand:<side>:<joint|pinch-point>` or `head`. */
  subject: { $ref: '#/definitions/subject' },
  /** A dynamic body: `task:<id>` or `scene:<id>`. */
  body: { $ref: '#/definitions/bodyReference' },
  /** A sensor of the task: `task:<id>`. */
  sensor: { $ref: '#/definitions/sensorReference' },
  /** A body, a fixture or a surface. */
  object: { $ref: '#/definitions/objectReference' },
  /** Seconds, or an event name (its first occurrence). */
  moment: { $ref: '#/definitions/moment' },
  /**
   * Which occurrences of an event moment a check measures: `first` (default), `each` (every one: the worst
   * counts, and none at all fails), `last`, or the Nth (1, 2, ...). A time moment happens once.
   */
  occurrence: {
    oneOf: [{ enum: ['first', 'each', 'last'] }, { type: 'integer', minimum: 1 }],
    description: 'Which occurrences of the `at` event are measured: `first` (default), `each` (every one; the worst counts, and none at all fails), `last`, or the Nth (1, 2, ...).',
  },
  /** `[from, to]` seconds. */
  window: { $ref: '#/definitions/window' },
  /** `atMost`, `atLeast` or `exactly`. */
  pass: { $ref: '#/definitions/pass' },
  /** Task-frame axes a distance uses: `xyz`, `xz`, `y`, `x` or `z`. */
  axes: { $ref: '#/definitions/axes' },
  /** `[x, y, z]`. */
  vec3: { $ref: `${SCENE_SCHEMA_ID}#/definitions/vec3` },
} as const;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RefValue<R extends string> = R extends `${string}/vec3`
  ? Vec3
  : R extends '#/definitions/moment'
    ? Moment
    : R extends '#/definitions/window'
      ? Window
      : R extends '#/definitions/pass'
        ? PassRule
        : R extends '#/definitions/axes'
          ? AxesSpec
          : string;

/** The TypeScript type of the values a schema fragment accepts. */
export type SchemaValue<S> = S extends { readonly $ref: infer R extends string }
  ? RefValue<R>
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly oneOf: readonly (infer O)[] }
        ? SchemaValue<O>
        : S extends { readonly type: 'array'; readonly items: infer I }
          ? S extends { readonly minItems: 2; readonly maxItems: 2 }
            ? [SchemaValue<I>, SchemaValue<I>]
            : SchemaValue<I>[]
          : S extends { readonly type: 'object'; readonly properties: infer P }
            ? ObjectValue<P, S extends { readonly required: readonly (infer K)[] } ? K : never>
            : S extends { readonly type: 'string' }
              ? string
              : S extends { readonly type: 'number' | 'integer' }
                ? number
                : S extends { readonly type: 'boolean' }
                  ? boolean
                  : unknown;

/** An object of schema properties `P`, the keys `K` required and the rest optional. */
type ObjectValue<P, K> = Simplify<{ -readonly [k in keyof P & K]: SchemaValue<P[k]> } & { -readonly [k in Exclude<keyof P, K>]?: SchemaValue<P[k]> }>;

/** The spec a task writes for a formula: its `type`, a description, milestones, and its options. */
export type FormulaSpec<T extends string, O, R> = Simplify<{ type: T; description?: string; milestones: MilestoneSpec[] } & ObjectValue<O, R>>;

/** Everything about one formula. */
export interface Formula<T extends string = string, O extends { readonly [name: string]: OptionSchema } = { readonly [name: string]: OptionSchema }, R extends string = string> {
  /** The name a task writes as the validator's `type`. */
  readonly type: T;
  /** What it measures, its metric and how milestones pass (the schema's description of it). */
  readonly description: string;
  /** Its options, besides `type`, `description` and `milestones`. */
  readonly options: O;
  /** Options a task must give. */
  readonly required: readonly R[];
  /** Whether it reads the decoded frame state (tags, app and input events); physics formulas do not. */
  readonly frameState: boolean;
  /** A validator for one spec of a session. */
  create(spec: FormulaSpec<T, O, R>, ctx: ValidatorContext): Validator;
}

/** The spec type of a formula. */
export type SpecOf<F> = F extends Formula<infer T, infer O, infer R> ? FormulaSpec<T, O, R> : never;

/** Declares a formula (and, from its options, the type of its spec: `SpecOf<typeof formula>`). */
export function defineFormula<const T extends string, const O extends { readonly [name: string]: OptionSchema }, const R extends keyof O & string>(
  formula: Formula<T, O, R>,
): Formula<T, O, R> {
  return formula;
}
