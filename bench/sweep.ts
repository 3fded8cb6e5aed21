/**
 * The sweep benchmark (issue 6): sessions per second of the default suite (reference apps, seed 1, both
 * hands, each task's scenes) with 1 and 2 workers, in the same run; the pool's overhead against running the
 * same sessions one after another in one thread; the time to the first result from a cold start; and the
 * peak resident memory per worker.
 *
 * The pools are warmed until each worker has run the suite {@link WARM_RUNS_PER_WORKER} times, as in a
 * long sweep: V8 optimises on background threads for the first runs of each process, and every worker
 * process pays that again. The details give the CPU seconds the workers spent on a timed run (all
 * their threads, from /proc): 2 workers doing the same sessions for more CPU than 1 is what keeps the
 * speedup below 2 even with both cores free.
 *
 * The figures are medians over steady trials (`steady-trials.ts`): each trial times 1 worker, 2 workers and
 * this thread, in reverse order every other trial, and counts only when an in-thread probe (the matrix's
 * first sessions) just before and just after it agrees.
 *
 * `pool_overhead_1_worker` (≤ 1.05, issue 28): what a worker pays that this thread does not is each
 * session's fresh module state (docs/SWEEPS.md, "Fresh modules' cost": module bodies run as factories, whose
 * functions V8 optimises once per worker, not once per session), the hygiene check after each session with
 * program code, and the messages to and from the worker.
 *
 * Workers run with V8's defaults unless XRSIM_WORKER_V8_FLAGS names flags for them
 * (`src/session/worker-flags.ts`); then the same trials also time a 2-worker pool with V8's defaults
 * (`details.seconds.twoWorkersV8Defaults`), so one run shows what the flags gain or lose.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSessionPool, expandMatrix, runSession, runSweep, type SessionPool } from '../src/index.js';
import { median, processesCpuMs, round } from './stats.js';
import { inAlternatingOrder, steadyTrials } from './steady-trials.js';

const OPTIONS = { seeds: [1], keepStreams: 'none' as const };
/** Suite runs each worker (and this thread) makes before anything is timed. */
const WARM_RUNS_PER_WORKER = 3;
/** Steady trials wanted, and the most run (`steady-trials.ts`). */
const STEADY_TRIALS = 5;
const MOST_TRIALS = 7;
/** Sessions of the matrix (its first ones) that the probe around each trial runs in this thread. */
const PROBE_SESSIONS = 6;

/** A timed sweep: wall seconds, seconds to its first result, sessions, and its workers' CPU seconds (null when unknown). */
type Timed = { seconds: number; first: number; sessions: number; workerCpuSeconds: number | null };

/** Wall seconds of a whole sweep, and of its first result, on `pool` (warm) or a new pool (cold). */
export async function timeSweep(workers: number, pool?: SessionPool): Promise<Timed> {
  const out = mkdtempSync(join(tmpdir(), 'xrsim-bench-sweep-'));
  const pids = pool?.workerPids ?? [];
  const cpuBefore = processesCpuMs(pids);
  const start = performance.now();
  let first = 0;
  let sessions = 0;
  const sweep = runSweep({ ...OPTIONS, out, workers, executor: pool });
  for (let step = await sweep.next(); !step.done; step = await sweep.next()) {
    if (sessions++ === 0) first = (performance.now() - start) / 1000;
  }
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = processesCpuMs(pids);
  rmSync(out, { recursive: true, force: true });
  // Only for a warm pool whose workers all ran to the end (none replaced) and when /proc can be read.
  const workerCpuSeconds = pool && pool.workerPids.join() === pids.join() && cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / 1000 : null;
  return { seconds, first, sessions, workerCpuSeconds };
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
  // A control pool with V8's defaults, only when the workers were given flags (XRSIM_WORKER_V8_FLAGS).
  const control = pools.two.workerV8Flags.length > 0 ? createSessionPool({ workers: 2, workerV8Flags: [] }) : null;
  progress(`warming the pools and this thread (${WARM_RUNS_PER_WORKER} suite runs per worker) …`);
  for (let run = 0; run < WARM_RUNS_PER_WORKER; run++) {
    await timeSweep(1, pools.one);
    await timeSweep(2, pools.two);
    await timeSweep(2, pools.two);
    if (control) await timeSweep(2, control);
    if (control) await timeSweep(2, control);
    await timeSerial();
  }
  type Trial = { one: Timed; two: Timed; control: Timed | null; serial: number };
  const probeEntries = expandMatrix(OPTIONS).slice(0, PROBE_SESSIONS);
  const trials = await steadyTrials<Trial>({
    wanted: STEADY_TRIALS,
    most: MOST_TRIALS,
    progress,
    probe: async () => {
      const start = performance.now();
      for (const entry of probeEntries) await runSession(entry.spec);
      return (performance.now() - start) / 1000;
    },
    trial: async (index) => {
      const timed: { one?: Timed; two?: Timed; control?: Timed | null; serial?: number } = {};
      await inAlternatingOrder(index, [
        async () => void (timed.one = await timeSweep(1, pools.one)),
        async () => void (timed.two = await timeSweep(2, pools.two)),
        async () => void (timed.control = control ? await timeSweep(2, control) : null),
        async () => void (timed.serial = await timeSerial()),
      ]);
      return timed as Trial;
    },
  });
  const one = trials.used.map((t) => t.one.seconds);
  const two = trials.used.map((t) => t.two.seconds);
  const twoV8Defaults = trials.used.flatMap((t) => (t.control ? [t.control.seconds] : []));
  const serial = trials.used.map((t) => t.serial);
  const cpuOf = (runs: (Timed | null)[]) => runs.flatMap((t) => (t?.workerCpuSeconds == null ? [] : [t.workerCpuSeconds]));
  const workerCpu = { one: cpuOf(trials.used.map((t) => t.one)), two: cpuOf(trials.used.map((t) => t.two)), twoV8Defaults: cpuOf(trials.used.map((t) => t.control)) };
  const workerV8Flags = pools.two.workerV8Flags;
  await Promise.all([pools.one.close(), pools.two.close(), control?.close()]);
  progress('peak memory per worker …');
  const rss = peakRssPerWorker();
  const sessions = cold.sessions;
  return {
    details: {
      sessions,
      trials: { steady: trials.steady, used: trials.used.length, probeDrifts: trials.drifts },
      workerV8Flags,
      seconds: { oneWorker: round(median(one)), twoWorkers: round(median(two)), serialOneThread: round(median(serial)), ...(control ? { twoWorkersV8Defaults: round(median(twoV8Defaults)) } : {}) },
      sessionsPerSecond: { oneWorker: round(sessions / median(one)), twoWorkers: round(sessions / median(two)) },
      // CPU seconds of all worker processes together on one run of the suite (null without /proc).
      workerCpuSeconds: {
        oneWorker: workerCpu.one.length ? round(median(workerCpu.one)) : null,
        twoWorkers: workerCpu.two.length ? round(median(workerCpu.two)) : null,
        ...(control ? { twoWorkersV8Defaults: workerCpu.twoV8Defaults.length ? round(median(workerCpu.twoV8Defaults)) : null } : {}),
      },
    },
    summary: {
      speedup_2_workers: round(median(one.map((t, i) => t / two[i]))),
      pool_overhead_1_worker: round(median(one.map((t, i) => t / serial[i]))),
      first_result_s: round(cold.first),
      peak_rss_mb_per_worker: round(rss),
    },
  };
}
