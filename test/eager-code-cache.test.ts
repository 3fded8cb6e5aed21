/**
 * Whole-file code caches for fresh module instances (`src/app/eager-code-cache.ts`): V8 takes them under the
 * process's own flags, they hold more than the top level, the instance made from one runs as compiled from
 * source, and a cache V8 refuses makes `fresh-modules.ts` fall back (refusal is an error Node throws).
 * Fresh instances need `--experimental-vm-modules`, so the probe runs in a child process on the compiled code,
 * and the sessions in a pool's worker.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { createSessionPool, runSession } from '../src/index.js';
import { ROOT, tempDir } from './helpers/cli.js';
import { tinyTask } from './helpers/tiny-task.js';

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

it('an app that throws records the same stack, so the same hash, in a worker\'s later sessions (made from the cache) as in one thread', async () => {
  const dir = tempDir();
  const task = tinyTask(dir, 'throws', 'export function frame() {\n  throw new Error("boom");\n}\n');
  const spec = { task, app: 'reference', scene: 'office', seed: 2, dominantHand: 'right' as const };
  const alone = await runSession(spec);
  expect(alone.appErrors).toBeGreaterThan(0);
  const pool = createSessionPool(1);
  try {
    // The first session compiles from source and makes the cache; the later ones are made from it.
    for (let i = 0; i < 3; i++) expect((await pool.run(spec)).result.hash, `session ${i + 1}`).toBe(alone.hash);
  } finally {
    await pool.close();
  }
});
