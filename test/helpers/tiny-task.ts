/**
 * Five-tick task files for pool and sweep tests: the rolling-ball task cut to five ticks, optionally with a
 * reference app written from source, in a test's own folder.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTask } from '../../src/index.js';

/** Writes `dir/<name>.json` (id `test/tiny-<name>`), with `app` (module source, written next to it) as its reference app. */
export function tinyTask(dir: string, name: string, app?: string): string {
  const { spec } = loadTask('physics/rolling-ball-checkpoints');
  const task = { ...spec, id: `test/tiny-${name}`, duration: 5 / 90, ...(app ? { apps: { reference: { module: writeApp(dir, name, app) } } } : {}) };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(task));
  return file;
}

function writeApp(dir: string, name: string, source: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  return file;
}
