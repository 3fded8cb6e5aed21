/**
 * Bounded everything else (issue 36, item 6): a seed range of any size starts at once and resumes; a
 * flakiness study, which holds every result, refuses more than it can hold; a session worker has a heap
 * limit, and an app that allocates without end is `errored` (out of memory) with V8's report kept out of
 * the terminal, and the next session on that pool runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSessionPool } from '../../src/index.js';
import { CLI, ROOT, tempDir, xrsim } from '../helpers/cli.js';

const fixture = (name: string) => join(ROOT, 'test/fixtures/apps', name);

/** Result lines written so far in a sweep folder. */
const linesIn = (out: string) => (existsSync(join(out, 'results.jsonl')) ? readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.endsWith('}')).length : 0);

/** Runs `xrsim ...args` until `out` holds at least `lines` results, then stops it (SIGKILL). */
async function sweepUntil(args: string[], out: string, lines: number): Promise<void> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    while (linesIn(out) < lines) {
      if (child.exitCode !== null) throw new Error(`the sweep exited (${child.exitCode}) with ${linesIn(out)} results`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe('seed ranges of any size', () => {
  it('a trillion seeds start at once, and the same command resumes the same matrix', async () => {
    const out = join(tempDir(), 'huge');
    const args = ['sweep', 'physics/stack-settle', '--seeds', '1..1000000000000', '--hands', 'right', '--scenes', 'office', '--workers', '1', '--out', out];
    await sweepUntil(args, out, 3);
    const first = linesIn(out);
    await sweepUntil(args, out, first + 3); // refused as another sweep's folder, it would exit instead
    const seeds = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l).seed);
    expect(new Set(seeds).size).toBe(seeds.length); // resumed, not started again
  });

  it('a flakiness study too large to hold is refused before anything runs', () => {
    const r = xrsim('flaky', 'physics/stack-settle', '--seeds', '1..1000000000000', '--out', join(tempDir(), 'flaky'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/keeps every run's result in memory: at most 1,000,000 sessions/);
  });
});

describe('a session worker has a heap limit', () => {
  it('an app that allocates without end is errored (out of memory), and V8\'s report stays out of the terminal', () => {
    const r = xrsim('run', '--task', 'xr/poke-button', '--app', fixture('allocates-forever.mjs'), '--worker-heap-mb', '128', '--json');
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ status: 'errored', error: { kind: 'out-of-memory' } });
    expect(r.json.error.message).toMatch(/^out of memory: the session's worker reached its heap limit of 128 MB/);
    for (const v8 of ['Last few GCs', 'FATAL ERROR', 'Native stack trace', 'JavaScript heap out of memory']) expect(r.stderr + r.stdout).not.toContain(v8);
  });

  it('the pool replaces the worker and runs the next session; a heap limit that is no size is bad input', async () => {
    const pool = createSessionPool({ workers: 1, workerHeapMb: 128 });
    try {
      const [hog, next] = await Promise.all([
        pool.run({ task: 'xr/poke-button', app: fixture('allocates-forever.mjs'), seed: 1, duration: 0.5 }),
        pool.run({ task: 'xr/poke-button', seed: 1, duration: 0.5 }),
      ]);
      expect(hog.result.error?.kind).toBe('out-of-memory');
      expect(next.result.status).not.toBe('errored');
      expect(pool.stats.crashed).toBe(1);
    } finally {
      await pool.close();
    }
    expect(() => createSessionPool({ workers: 1, workerHeapMb: 10 })).toThrow(/workerHeapMb must be a whole number of MB from 64/);
    const r = xrsim('run', '--task', 'physics/stack-settle', '--worker-heap-mb', '1.5', '--json');
    expect(r.code).toBe(2);
  });
});
