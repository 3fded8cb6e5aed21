/**
 * The task schema's `definitions.validator`, written from the formula registry: one branch per formula,
 * with the options it declares, and `definitions.milestone`, which every formula shares. `npm run schema`
 * writes both into `tasks/task.schema.json`; `test/formulas.test.ts` fails when the file and the registry
 * disagree.
 */
import type { Formula } from './formula.js';
import { FORMULAS } from './registry.js';

/** The JSON Schema of one validator of a task, for every formula in `formulas`. */
export function validatorDefinition(formulas: readonly Formula[] = FORMULAS as unknown as readonly Formula[]): object {
  return {
    type: 'object',
    required: ['type'],
    properties: { type: { enum: formulas.map((f) => f.type) } },
    discriminator: { propertyName: 'type' },
    oneOf: formulas.map((f) => ({
      description: f.description,
      type: 'object',
      additionalProperties: false,
      required: ['type', 'milestones', ...f.required],
      properties: {
        type: { const: f.type },
        description: { type: 'string' },
        milestones: { type: 'array', minItems: 1, items: { $ref: '#/definitions/milestone' } },
        ...f.options,
      },
    })),
  };
}

const MILESTONE_ID = { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]*$' } as const;

/** The JSON Schema of one milestone of a validator (the same for every formula). */
export function milestoneDefinition(): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'threshold'],
    properties: {
      id: MILESTONE_ID,
      threshold: { type: 'number' },
      description: { type: 'string' },
      requires: {
        description:
          'Milestones of this task that must pass for this one to pass (a guard means something only once the behaviour it guards happened). When one fails, this one fails and scores at most what it scored.',
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: MILESTONE_ID,
      },
    },
  };
}
