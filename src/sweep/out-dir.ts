/**
 * Output folders chosen by users (`--out`): created one level at a time and checked writable before
 * anything runs. (`mkdirSync(..., { recursive: true })` never returns for some paths, such as under /proc.)
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { XrsimInputError } from '../errors.js';

/** Creates `dir` (and missing parents) and checks it is a writable folder. Throws bad input otherwise. */
export function prepareOutDir(dir: string, option = '--out'): void {
  const absolute = resolve(dir);
  const missing: string[] = [];
  let existing = absolute;
  while (!existsSync(existing)) {
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const fail = (why: string): never => {
    throw new XrsimInputError(`cannot write to ${option} ${dir}: ${why}`, { expected: 'a writable folder (or a path where one can be created)' });
  };
  try {
    if (!statSync(existing).isDirectory()) fail(`${existing} is not a folder`);
    for (const folder of missing) mkdirSync(folder);
    accessSync(absolute, constants.W_OK | constants.X_OK);
  } catch (err) {
    if (err instanceof XrsimInputError) throw err;
    fail((err as Error).message);
  }
}

/** Checks that a file can be written at `path` (its folder exists and is writable; it is not a folder). */
export function checkWritableFile(path: string, option: string): void {
  const absolute = resolve(path);
  const fail = (why: string): never => {
    throw new XrsimInputError(`cannot write ${option} ${path}: ${why}`, { expected: 'a file path in a writable folder' });
  };
  if (existsSync(absolute) && statSync(absolute).isDirectory()) fail('it is a folder');
  const folder = dirname(absolute);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) fail(`${folder} is not a folder`);
  try {
    accessSync(existsSync(absolute) ? absolute : folder, constants.W_OK);
  } catch (err) {
    fail((err as Error).message);
  }
}
