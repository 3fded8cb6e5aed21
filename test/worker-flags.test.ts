/**
 * Extra V8 flags for the pool's workers (`src/session/worker-flags.ts`): how a user gives them, that bad flags
 * are refused, and that workers started with the GC flags measured for issue 10 give the same results and
 * hashes as sessions run in this thread with V8's defaults.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSessionPool, DEFAULT_WORKER_HEAP_MB, resolveWorkerHeapMb, resolveWorkerV8Flags, runSession, WORKER_HEAP_MB_ENV, WORKER_V8_FLAGS_ENV, XrsimInputError, type SessionSpec } from '../src/index.js';
import { WORKER_EXEC_ARGV } from '../src/session/worker-protocol.js';

/** The command line a process was started with (Linux). */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
}

describe('choosing worker V8 flags', () => {
  it(`a pool's own flags win over ${WORKER_V8_FLAGS_ENV}, which wins over none (V8's defaults)`, () => {
    const env = { [WORKER_V8_FLAGS_ENV]: ' --max-semi-space-size=32   --single-threaded-gc ' };
    expect(resolveWorkerV8Flags(undefined, env)).toEqual(['--max-semi-space-size=32', '--single-threaded-gc']);
    expect(resolveWorkerV8Flags(['--no-concurrent-marking'], env)).toEqual(['--no-concurrent-marking']);
    expect(resolveWorkerV8Flags([], env)).toEqual([]);
    expect(resolveWorkerV8Flags(undefined, { [WORKER_V8_FLAGS_ENV]: '' })).toEqual([]);
    expect(resolveWorkerV8Flags(undefined, {})).toEqual([]);
  });

  it(`the heap limit: a pool's own, else ${WORKER_HEAP_MB_ENV}, else ${DEFAULT_WORKER_HEAP_MB} MB; anything but a whole number of MB is refused`, () => {
    expect(resolveWorkerHeapMb(undefined, {})).toBe(DEFAULT_WORKER_HEAP_MB);
    expect(resolveWorkerHeapMb(undefined, { [WORKER_HEAP_MB_ENV]: '512' })).toBe(512);
    expect(resolveWorkerHeapMb(256, { [WORKER_HEAP_MB_ENV]: '512' })).toBe(256);
    expect(() => resolveWorkerHeapMb(undefined, { [WORKER_HEAP_MB_ENV]: 'lots' })).toThrow(new RegExp(`${WORKER_HEAP_MB_ENV} must be a whole number of MB`));
    expect(() => resolveWorkerHeapMb(32)).toThrow(/workerHeapMb must be a whole number of MB from 64/);
  });

  it('refuses anything that is not a --flag or --flag=value option, naming where it came from', () => {
    expect(() => resolveWorkerV8Flags(['--single-threaded-gc', 'evil.js'])).toThrow(XrsimInputError);
    expect(() => resolveWorkerV8Flags(['--require=x y'])).toThrow(/workerV8Flags: "--require=x y" is not a --flag/);
    expect(() => resolveWorkerV8Flags(undefined, { [WORKER_V8_FLAGS_ENV]: '--ok -e' })).toThrow(new RegExp(`${WORKER_V8_FLAGS_ENV}: "-e"`));
    expect(() => resolveWorkerV8Flags('--single-threaded-gc' as never)).toThrow(/must be a list of flags/);
    expect(() => createSessionPool({ workers: 1, workerV8Flags: ['nope'] })).toThrow(XrsimInputError);
  });
});

describe('sessions in workers started with the flags', () => {
  const specs: SessionSpec[] = [
    { task: 'physics/rolling-ball-checkpoints', seed: 5 },
    { task: 'physics/stack-settle', seed: 6, scene: 'kitchen' },
    { task: 'physics/material-curling', seed: 7, dominantHand: 'left' },
    { task: 'xr/poke-button', seed: 8 },
    { task: 'physics/rolling-ball-checkpoints', seed: 9, scene: 'office' },
    { task: 'xr/poke-button', seed: 10, dominantHand: 'left' },
  ];

  // The flags measured for issue 10 (docs/SWEEPS.md, "Worker V8 flags"): GC on a worker's own thread, another young generation.
  it.each([[['--single-threaded-gc']], [['--no-concurrent-marking', '--max-semi-space-size=64']]])('2 workers started with %j give the same results and hashes as this thread', async (flags) => {
    const inThread = [];
    for (const spec of specs) inThread.push(await runSession(spec));
    const pool = createSessionPool({ workers: 2, workerV8Flags: flags });
    try {
      expect(pool.workerV8Flags).toEqual(flags);
      const runs = await Promise.all(specs.map((spec) => pool.run(spec)));
      // The flags reached both worker processes' command lines, and no worker was replaced on the way.
      expect(pool.workerPids).toHaveLength(2);
      for (const pid of pool.workerPids) expect(commandLine(pid)).toEqual(expect.arrayContaining(flags));
      expect(pool.stats.started).toBe(2);
      const results = runs.map((run) => run.result);
      expect(results.map((r) => r.status)).toEqual(inThread.map((r) => r.status));
      expect(results.map((r) => r.hash)).toEqual(inThread.map((r) => r.hash));
      expect(results.map((r) => r.milestones)).toEqual(inThread.map((r) => r.milestones));
      expect(inThread.every((r) => r.status !== 'errored')).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it(`a pool without flags starts its workers with V8's defaults but for the heap limit (${WORKER_V8_FLAGS_ENV} unset)`, async () => {
    const pool = createSessionPool({ workers: 1, workerV8Flags: undefined });
    try {
      if (process.env[WORKER_V8_FLAGS_ENV] === undefined) expect(pool.workerV8Flags).toEqual([]);
      await pool.run(specs[0]);
      const [pid] = pool.workerPids;
      expect(commandLine(pid).filter((arg) => arg.startsWith('--') && !WORKER_EXEC_ARGV.includes(arg) && !arg.startsWith('--run-marker'))).toEqual([`--max-old-space-size=${pool.heapLimitMb}`, ...pool.workerV8Flags]);
    } finally {
      await pool.close();
    }
  });
});
