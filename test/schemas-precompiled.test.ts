/**
 * The build precompiles the shipped JSON Schemas (`scripts/precompile-schemas.mjs`), so that loading a task
 * does not compile them at startup. The loader uses a precompiled validator only for the very file it was
 * made from; these tests check the build's module is fresh and says what run-time compiling says.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS, PRECOMPILED_SCHEMAS } from '../src/json/load.js';
import { ROOT } from './helpers/cli.js';

const FILES = ['scenes/scene.schema.json', 'tasks/task.schema.json', 'hand-models/hand-model.schema.json', 'hand-models/poses.schema.json'];

describe('precompiled schemas', () => {
  const precompiled = createRequire(import.meta.url)(PRECOMPILED_SCHEMAS);

  it('were made from the schema files as they are', () => {
    for (const file of FILES) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const id = JSON.parse(text).$id;
      expect(precompiled.__schemaHashes[id], file).toBe(createHash('sha256').update(text).digest('hex'));
      expect(typeof precompiled[id], file).toBe('function');
    }
  });

  it('report the same errors as the schema compiled at run time', () => {
    const ajv = new Ajv(AJV_OPTIONS);
    for (const file of FILES) ajv.addSchema(JSON.parse(readFileSync(join(ROOT, file), 'utf8')));
    const task = JSON.parse(readFileSync(join(ROOT, 'tasks/xr/poke-button/task.json'), 'utf8'));
    const broken = { ...task, duration: 'long', validators: [{ ...task.validators[0], milestones: [{ id: 'x' }] }, { type: 'visual', moments: [], milestones: [] }] };
    const id = 'https://xrsim.dev/schemas/task.schema.json';
    for (const data of [task, broken]) {
      const runtime = ajv.getSchema(id)!;
      expect(precompiled[id](data)).toBe(runtime(data));
      expect(precompiled[id].errors).toEqual(runtime.errors);
    }
    // Validation stops at the first problem (AJV_OPTIONS has no allErrors): the broken task has one.
    expect(precompiled[id].errors?.length).toBeGreaterThanOrEqual(1);
  });
});
