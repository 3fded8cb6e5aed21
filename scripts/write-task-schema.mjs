// Writes the validator and milestone sections of tasks/task.schema.json from the formula registry (run `npm run schema`
// after adding or changing a formula; test/formulas.test.ts fails until you do).
import { readFileSync, writeFileSync } from 'node:fs';
import { milestoneDefinition, validatorDefinition } from '../dist/src/validate/schema.js';

const path = new URL('../tasks/task.schema.json', import.meta.url);
const schema = JSON.parse(readFileSync(path, 'utf8'));
schema.definitions.milestone = milestoneDefinition();
schema.definitions.validator = validatorDefinition();
writeFileSync(path, `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${schema.definitions.validator.oneOf.length} formulas into tasks/task.schema.json`);
