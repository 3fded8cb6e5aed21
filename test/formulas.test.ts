/**
 * One registry for validator formulas: each is declared once (name, options with their schema, whether it
 * reads the frame state, implementation), and the task schema, the loader's reference checks and the
 * `ValidatorSpec` union derive from it. These tests prove the shipped schema agrees with the registry and
 * that a new formula needs nothing but its declaration.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineFormula, FORMULAS, formulaNamed, formulaSchema, listTaskIds, loadTask } from '../src/index.js';
import { scoreMilestones } from '../src/validate/score.js';
import { referenceFields, REFERENCE_TYPES, type ValidatorSchema } from '../src/task/reference-fields.js';
import { milestoneDefinition, validatorDefinition } from '../src/validate/schema.js';
import type { Formula } from '../src/validate/formula.js';
import { ROOT } from './helpers/cli.js';

const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'tasks/task.schema.json'), 'utf8'));

describe('the formula registry', () => {
  it('wrote tasks/task.schema.json: the file holds exactly the registry\'s validator branches (else run `npm run schema`)', () => {
    expect(SCHEMA.definitions.validator, 'tasks/task.schema.json is out of date with src/validate/registry.ts: run `npm run schema`').toEqual(validatorDefinition());
    expect(SCHEMA.definitions.milestone, 'tasks/task.schema.json is out of date with src/validate/schema.ts: run `npm run schema`').toEqual(milestoneDefinition());
  });

  it('names each formula once, and every reference its options use is a definition of the schema', () => {
    const types = FORMULAS.map((f) => f.type);
    expect(new Set(types).size).toBe(types.length);
    for (const type of types) expect(formulaNamed(type)?.type).toBe(type);
    const refs = JSON.stringify(validatorDefinition()).match(/"#\/definitions\/[A-Za-z]+"/g)!;
    for (const ref of new Set(refs)) expect(SCHEMA.definitions, ref).toHaveProperty(ref.slice('"#/definitions/'.length, -1));
    for (const type of Object.keys(REFERENCE_TYPES)) expect(SCHEMA.definitions).toHaveProperty(type);
  });

  it('finds every reference of every shipped task through the schema, and nothing else', () => {
    let found = 0;
    for (const id of listTaskIds()) {
      loadTask(id).spec.validators.forEach((v, i) => {
        for (const field of referenceFields(v, `$.validators[${i}]`)) {
          found++;
          expect(field.text, `${id} ${field.jsonPath}`).toMatch(/^(task:|scene:|tag:|hand:|head$)/);
        }
      });
    }
    expect(found).toBeGreaterThan(40);
    const reachability = { type: 'reachability', nodes: ['tag:a', [0, 1, 0], 'hand:left:palm'], from: 0, to: 2, maxStep: 1, milestones: [] };
    expect(referenceFields(reachability, '$')).toEqual([
      { jsonPath: '$.nodes[0]', text: 'tag:a', type: 'subject' },
      { jsonPath: '$.nodes[2]', text: 'hand:left:palm', type: 'subject' },
    ]);
  });

  it('a new formula is one declaration: its schema branch and its reference checks follow from it', () => {
    const judge = defineFormula({
      type: 'visual-judge',
      description: 'A test formula: how many frames a subject was seen in.',
      options: { subject: formulaSchema.subject, near: { type: 'array', items: formulaSchema.body }, threshold: { type: 'number' } },
      required: ['subject'],
      frameState: true,
      create: (spec) => ({ observe() {}, finish: () => scoreMilestones('visual-judge', spec.milestones, 0, 'atLeast', []) }),
    });
    const definition = validatorDefinition([...(FORMULAS as unknown as Formula[]), judge as unknown as Formula]) as ValidatorSchema & { properties: { type: { enum: string[] } } };
    expect(definition.properties.type.enum).toContain('visual-judge');
    const branch = definition.oneOf.find((b) => b.properties.type.const === 'visual-judge')!;
    expect(branch).toMatchObject({ required: ['type', 'milestones', 'subject'], properties: { subject: { $ref: '#/definitions/subject' } } });
    const spec = { type: 'visual-judge', subject: 'tag:cat', near: ['task:ball', 'scene:mug'], milestones: [] };
    expect(referenceFields(spec, '$.validators[3]', definition).map((f) => [f.jsonPath, f.type])).toEqual([
      ['$.validators[3].subject', 'subject'],
      ['$.validators[3].near[0]', 'bodyReference'],
      ['$.validators[3].near[1]', 'bodyReference'],
    ]);
  });
});
