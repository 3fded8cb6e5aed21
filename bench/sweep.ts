/**
 * The sweep benchmark (issue 6): sessions per second of the default suite (reference apps, seed 1, both
 * hands, each task's scenes) with 1 and 2 workers, in the same run; the pool's overhead against running the
 * same sessions one after another in one thread; the time to the first result from a cold start; and the
 * peak resident memory per worker.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSessionPool, expandMatrix, runSession, runSweep, type SessionPool } from '../src/index.js';
import { median, round } from './stats.js';

const OPTIONS = { seeds: [1], keepStreams: 'none' as const };

/** Wall seconds of a whole sweep, and of its first result, on `pool` (warm) or a new pool (cold). */
export async function timeSweep(workers: number, pool?: SessionPool): Promise<{ seconds: number; first: number; sessions: number }> {
  const out = mkdtempSync(join(tmpdir(), 'xrsim-bench-sweep-'));
  const start = performance.now();
  let first = 0;
  let sessions = 0;
  const sweep = runSweep({ ...OPTIONS, out, workers, executor: pool });
  for (let step = await sweep.next(); !step.done; step = await sweep.next()) {
    if (sessions++ === 0) first = (performance.now() - start) / 1000;
  }
  rmSync(out, { recursive: true, force: true });
  return { seconds: (performance.now() - start) / 1000, first, sessions };
}

/** The same sessions, one after another in this thread. */
async function timeSerial(): Promise<number> {
  const start = performance.now();
  for (const entry of expandMatrix(OPTIONS)) await runSession(entry.spec);
  return (performance.now() - start) / 1000;
}

/** Peak RSS of a worker process over a cold 2-worker sweep (as workers report it after each session), in a fresh process. */
function peakRssPerWorker(): number {
  const child = fileURLToPath(new URL('./sweep-rss-child.js', import.meta.url));
  const run = spawnSync(process.execPath, [child], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`rss child failed: ${run.stderr}`);
  return (JSON.parse(run.stdout.trim().split('\n').pop()!) as { peakWorkerMb: number }).peakWorkerMb;
}

/** Runs the sweep suite. */
export async function sweepBenchmark(progress: (line: string) => void) {
  progress('cold start: time to the first result …');
  const cold = await timeSweep(2);
  // Warm pools (one Rapier initialisation and JIT warm-up per worker), as a long sweep has them.
  const pools = { one: createSessionPool(1), two: createSessionPool(2) };
  progress('warming the pools and this thread …');
  await timeSweep(1, pools.one);
  await timeSweep(2, pools.two);
  await timeSerial();
  const one: number[] = [];
  const two: number[] = [];
  const serial: number[] = [];
  for (let trial = 0; trial < 3; trial++) {
    progress(`trial ${trial + 1} of 3: 1 worker, 2 workers, one thread …`);
    one.push((await timeSweep(1, pools.one)).seconds);
    two.push((await timeSweep(2, pools.two)).seconds);
    serial.push(await timeSerial());
  }
  await Promise.all([pools.one.close(), pools.two.close()]);
  progress('peak memory per worker …');
  const rss = peakRssPerWorker();
  const sessions = cold.sessions;
  return {
    details: {
      sessions,
      seconds: { oneWorker: round(median(one)), twoWorkers: round(median(two)), serialOneThread: round(median(serial)) },
      sessionsPerSecond: { oneWorker: round(sessions / median(one)), twoWorkers: round(sessions / median(two)) },
    },
    summary: {
      speedup_2_workers: round(median(one.map((t, i) => t / two[i]))),
      pool_overhead_1_worker: round(median(one.map((t, i) => t / serial[i]))),
      first_result_s: round(cold.first),
      peak_rss_mb_per_worker: round(rss),
    },
  };
}
