/**
 * Precompiles the JSON Schemas that loaders validate against (scenes, tasks, hand models, poses) into one
 * CommonJS module of standalone Ajv validators, `dist/schemas/precompiled.cjs`, so that a process does not
 * compile them at startup (about a second: most of the time to open a stream in the viewer). Each export is
 * keyed by the schema's `$id` (and `$id#/definitions/NAME` for each definition) and the module records the
 * SHA-256 of every schema file it was made from: `src/json/load.ts` uses a validator only when its schema
 * file is unchanged, and compiles at run time otherwise. Run by `npm run build`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, PRECOMPILED_SCHEMAS } from '../dist/src/json/load.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FILES = ['scenes/scene.schema.json', 'tasks/task.schema.json', 'hand-models/hand-model.schema.json', 'hand-models/poses.schema.json'];

const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
const exports = {};
const hashes = {};
for (const file of FILES) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const schema = JSON.parse(text);
  ajv.addSchema(schema);
  hashes[schema.$id] = createHash('sha256').update(text).digest('hex');
  exports[schema.$id] = schema.$id;
  for (const name of Object.keys(schema.definitions ?? {})) exports[`${schema.$id}#/definitions/${name}`] = `${schema.$id}#/definitions/${name}`;
}
const code = (standaloneCode.default ?? standaloneCode)(ajv, exports);
mkdirSync(dirname(PRECOMPILED_SCHEMAS), { recursive: true });
writeFileSync(PRECOMPILED_SCHEMAS, `${code}\nexports.__schemaHashes = ${JSON.stringify(hashes)};\n`);
