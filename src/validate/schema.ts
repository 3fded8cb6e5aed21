/**
 * The task schema's `definitions.validator`, written from the formula registry: one branch per formula,
 * with the options it declares. `npm run schema` writes it into `tasks/task.schema.json`;
 * `test/formulas.test.ts` fails when the file and the registry disagree.
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
