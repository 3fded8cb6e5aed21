/**
 * Whole-file code caches for fresh module instances (`src/app/eager-code-cache.ts`): V8 takes them under the
 * process's own flags, they hold more than the top level, the instance made from one runs as compiled from
 * source, and a cache V8 refuses makes `fresh-modules.ts` fall back (refusal is an error Node throws).
 * Fresh instances need `--experimental-vm-modules`, so this runs in a child process on the compiled code.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

it('a whole-file code cache is taken, holds the lazy functions and runs them', () => {
  const out = execFileSync(
    process.execPath,
    ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', join(ROOT, 'test/fixtures/code-cache/probe.mjs'), pathToFileURL(join(ROOT, 'dist/src/app/eager-code-cache.js')).href],
    { encoding: 'utf8' },
  );
  const result = JSON.parse(out.trim().split('\n').pop()!) as { topLevel: number; whole: number; outer: number; late: number; refused: boolean };
  expect(result.whole).toBeGreaterThan(result.topLevel);
  expect(result.outer).toBe(7);
  expect(result.late).toBe(42);
  expect(result.refused).toBe(true);
});
