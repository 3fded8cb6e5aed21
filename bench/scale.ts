/**
 * The scale benchmark (issue 10): what the coordinator and the pool cost when sessions are tiny (five
 * ticks of a small physics task), and the coordinator's memory over a 100,000-session sweep.
 *
 * - `sessions_per_s_tiny_2_workers`: tiny sessions per second through `runSweep` on a warm 2-worker pool.
 * - `pool_efficiency_tiny`: that rate ÷ twice the rate of the same sessions one after another in one thread.
 * - `speedup_2_workers_tiny`: 2 workers against 1 on the same sessions.
 * - `coordinator_peak_rss_mb_100k`: the coordinator process's peak RSS over a 100,000-session sweep
 *   (workers are processes of their own: not counted).
 * - `rss_growth_mb_per_100k`: its RSS at the end minus at 10,000 sessions, per 100,000 sessions.
 *
 * - `cpu_ms_per_session_*` and `pool_efficiency_tiny_cpu`: CPU time per tiny session (2 workers) in one
 *   thread (`serial`), in the workers (`worker`: all their threads, from /proc, ÷ sessions) and in the
 *   coordinator, and the efficiency they predict when 2 cores serve both workers and the coordinator:
 *   2 ÷ (worker + coordinator) sessions per CPU-ms against 2 ÷ serial, so serial ÷ (worker + coordinator).
 *   Unlike rates, CPU time moves little when other work shares the machine.
 * - `pair_efficiency_tiny` (reported): two plain processes running the same sessions side by side (no pool,
 *   no coordinator, no messages per session: `plain-pair.ts`) against twice one of them alone. It is the
 *   most two cores give these sessions on this machine, so the ceiling of `pool_efficiency_tiny` and of
 *   `speedup_2_workers_tiny`; `pool_vs_pair_tiny` (≥ 0.95, issue 28) is the 2-worker pool's rate against the
 *   pair's. Tiny sessions run no program code (no fresh modules, no realm check): what the pool adds is the
 *   coordinator's CPU (about 0.05 ms a session, which the pair does not spend) and each sweep's start and end.
 *
 * Worker V8 flags: the pools' workers run with V8's defaults, as does this thread, unless
 * XRSIM_WORKER_V8_FLAGS names flags for the workers (`src/session/worker-flags.ts`). Then the same trials
 * also time a 2-worker pool with V8's defaults (`details.sessionsPerSecond.twoWorkersV8Defaults`), so one
 * run shows what the flags gain or lose. Flags that keep V8's GC off its helper threads when 2 workers fill
 * both cores (`--single-threaded-gc`, `--no-concurrent-marking`, larger semi-spaces) were measured this way
 * for issue 10 and none beat the defaults on both this and the sweep benchmark (docs/SWEEPS.md,
 * "Worker V8 flags"): what is left of the gap to 0.9 is the CPU each session costs when two run at once.
 *
 * The rates are medians over steady trials (`steady-trials.ts`): each trial times the 2-worker pool, the
 * 1-worker pool and this thread on the same sessions, in reverse order every other trial, and counts only
 * when an in-thread probe just before and just after it agrees (the VM's speed changes by tens of percent).
 *
 * Every process is warmed with {@link WARM_PER_PROCESS} sessions first: V8 keeps optimising Rapier's and
 * our code on its background threads for the first thousand or two sessions of a process, and each worker
 * process pays that again (cold, a worker's helper threads spend as much CPU as the session itself).
 *
 * XRSIM_BENCH_SCALE_SESSIONS runs the memory sweep smaller (the growth is then scaled to 100,000).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSessionPool, loadTask, runSweep, type SessionPool } from '../src/index.js';
import { cpuMs as cpuMsNow, median, processesCpuMs, round } from './stats.js';
import { PlainPair, type PlainRates } from './plain-pair.js';
import { inAlternatingOrder, steadyTrials } from './steady-trials.js';
import { runTinySerially, TINY_SCENES as SCENES } from './tiny-serial.js';

/** Tiny sessions per timed pool run (half as many in this thread). */
const TIMED = 1200;
/** Steady trials wanted, and the most run (`steady-trials.ts`). */
const STEADY_TRIALS = 5;
const MOST_TRIALS = 9;
/** In-thread tiny sessions of the probe around each trial (about 0.2 s). */
const PROBE_SESSIONS = 160;
/** Tiny sessions each process (worker or this thread) runs before anything is timed. */
const WARM_PER_PROCESS = 2000;

/** A small user task, five ticks long (the rolling ball's scene and user). */
function tinyTask(dir: string): string {
  const { spec } = loadTask('physics/rolling-ball-checkpoints');
  const file = join(dir, 'tiny.json');
  writeFileSync(file, JSON.stringify({ ...spec, id: 'bench/tiny-rolling-ball', duration: 5 / 90 }));
  return file;
}

const options = (task: string, sessions: number, firstSeed: number) => ({
  tasks: [task],
  seeds: { from: firstSeed, to: firstSeed + Math.ceil(sessions / SCENES.length) - 1 },
  scenes: SCENES,
  hands: ['right' as const],
  keepStreams: 'none' as const,
});

type PoolRate = { rate: number; coordinatorCpuMs: number; workerCpuMs: number | null };
type SerialRate = { rate: number; seconds: number; cpuMs: number };

/** Sessions per second of a sweep of tiny sessions on `pool`, and CPU ms per session in the coordinator and in a worker. */
async function sweepRate(pool: SessionPool, task: string, sessions: number, firstSeed: number): Promise<PoolRate> {
  const out = mkdtempSync(join(tmpdir(), 'xrsim-bench-scale-'));
  const pids = pool.workerPids;
  const workersBefore = processesCpuMs(pids);
  const cpuBefore = cpuMsNow();
  const start = performance.now();
  let done = 0;
  const sweep = runSweep({ ...options(task, sessions, firstSeed), out, executor: pool });
  for (let step = await sweep.next(); !step.done; step = await sweep.next()) done++;
  const seconds = (performance.now() - start) / 1000;
  const coordinatorCpuMs = (cpuMsNow() - cpuBefore) / done;
  const workersAfter = processesCpuMs(pids);
  // Only when the same workers ran every session (none retired) and /proc can be read.
  const workerCpuMs = pool.workerPids.join() === pids.join() && workersBefore !== null && workersAfter !== null ? (workersAfter - workersBefore) / done : null;
  rmSync(out, { recursive: true, force: true });
  return { rate: done / seconds, coordinatorCpuMs, workerCpuMs };
}

/** Sessions per second of the same kind of sessions, one after another in this thread, and CPU ms per session. */
async function serialRate(task: string, sessions: number, firstSeed: number): Promise<SerialRate> {
  const { seconds, cpuMs } = await runTinySerially(task, sessions, firstSeed);
  return { rate: sessions / seconds, seconds, cpuMs: cpuMs / sessions };
}

/** The coordinator's memory over a long sweep, measured in a child process. */
function coordinatorMemory(task: string, sessions: number, dir: string) {
  const child = fileURLToPath(new URL('./coordinator-child.js', import.meta.url));
  const run = spawnSync(process.execPath, ['--expose-gc', child, JSON.stringify({ ...options(task, sessions, 1), out: join(dir, 'memory'), workers: 2, sampleEvery: 5000 })], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`coordinator child failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as { sessions: number; seconds: number; samples: { done: number; heapMb: number; rssMb: number }[]; peakRssMb: number; peakHeapMb: number };
}

/** Runs the scale suite. */
export async function scaleBenchmark(progress: (line: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-bench-scale-'));
  const task = tinyTask(dir);
  const pools = { one: createSessionPool(1), two: createSessionPool(2) };
  // A control pool with V8's defaults, only when the workers were given flags (XRSIM_WORKER_V8_FLAGS).
  const control = pools.two.workerV8Flags.length > 0 ? createSessionPool({ workers: 2, workerV8Flags: [] }) : null;
  const plain = new PlainPair(task);
  try {
    progress(`warming the pools and this thread (${WARM_PER_PROCESS} sessions per process) …`);
    await sweepRate(pools.one, task, WARM_PER_PROCESS, 100_000);
    await sweepRate(pools.two, task, 2 * WARM_PER_PROCESS, 100_000);
    if (control) await sweepRate(control, task, 2 * WARM_PER_PROCESS, 100_000);
    await plain.warm(WARM_PER_PROCESS, 100_000);
    await serialRate(task, WARM_PER_PROCESS, 100_000);
    type Trial = { two: number; one: number; serial: number; twoV8Defaults: number | null; plain: PlainRates; cpu: { serial: number; worker: number | null; coordinator: number } };
    const trials = await steadyTrials<Trial>({
      wanted: STEADY_TRIALS,
      most: MOST_TRIALS,
      progress,
      probe: async () => (await serialRate(task, PROBE_SESSIONS, 300_000)).seconds,
      trial: async (index) => {
        const seed = 200_000 + index * TIMED;
        const rates: { two?: PoolRate; one?: PoolRate; control?: PoolRate; serial?: SerialRate; plain?: PlainRates } = {};
        await inAlternatingOrder(index, [
          async () => void (rates.two = await sweepRate(pools.two, task, TIMED, seed)),
          async () => void (rates.one = await sweepRate(pools.one, task, TIMED, seed)),
          async () => void (rates.control = control ? await sweepRate(control, task, TIMED, seed) : undefined),
          async () => void (rates.serial = await serialRate(task, TIMED / 2, seed)),
          async () => void (rates.plain = await plain.rates(TIMED / 2, seed)),
        ]);
        const { two, one, control: onControl, serial, plain: plainRates } = rates as Required<typeof rates>;
        return {
          two: two.rate,
          one: one.rate,
          serial: serial.rate,
          twoV8Defaults: onControl?.rate ?? null,
          plain: plainRates,
          cpu: { serial: serial.cpuMs, worker: two.workerCpuMs, coordinator: two.coordinatorCpuMs },
        };
      },
    });
    const two = trials.used.map((t) => t.two);
    const one = trials.used.map((t) => t.one);
    const serial = trials.used.map((t) => t.serial);
    const alone = trials.used.map((t) => t.plain.alone);
    const pair = trials.used.map((t) => t.plain.pair);
    const twoV8Defaults = trials.used.flatMap((t) => (t.twoV8Defaults === null ? [] : [t.twoV8Defaults]));
    const cpu = {
      serial: trials.used.map((t) => t.cpu.serial),
      worker: trials.used.flatMap((t) => (t.cpu.worker === null ? [] : [t.cpu.worker])),
      coordinator: trials.used.map((t) => t.cpu.coordinator),
    };
    const cpuMs = { serial: median(cpu.serial), worker: cpu.worker.length ? median(cpu.worker) : null, coordinator: median(cpu.coordinator) };
    const workerV8Flags = pools.two.workerV8Flags;
    await Promise.all([pools.one.close(), pools.two.close(), control?.close()]);
    plain.close();
    const sessions = Number(process.env.XRSIM_BENCH_SCALE_SESSIONS ?? 100_000);
    progress(`coordinator memory over a ${sessions}-session sweep on 2 workers …`);
    const memory = coordinatorMemory(task, sessions, dir);
    const at10k = memory.samples.find((s) => s.done >= 10_000) ?? memory.samples[0];
    const end = memory.samples[memory.samples.length - 1];
    const growthPer100k = ((end.rssMb - at10k.rssMb) * 100_000) / Math.max(1, end.done - at10k.done);
    return {
      details: {
        timedSessions: TIMED,
        trials: { steady: trials.steady, used: trials.used.length, probeDrifts: trials.drifts },
        workerV8Flags,
        sessionsPerSecond: { twoWorkers: two.map((r) => round(r)), oneWorker: one.map((r) => round(r)), serialOneThread: serial.map((r) => round(r)), plainProcessAlone: alone.map((r) => round(r)), plainProcessPair: pair.map((r) => round(r)), ...(control ? { twoWorkersV8Defaults: twoV8Defaults.map((r) => round(r)) } : {}) },
        cpuMsPerSession: { serial: cpu.serial.map((ms) => round(ms)), worker: cpu.worker.map((ms) => round(ms)), coordinator: cpu.coordinator.map((ms) => round(ms)) },
        memorySweep: { sessions: memory.sessions, seconds: memory.seconds, samples: memory.samples, peakHeapMb: memory.peakHeapMb },
      },
      summary: {
        sessions_per_s_tiny_2_workers: round(median(two)),
        pool_efficiency_tiny: round(median(two.map((t, i) => t / (2 * serial[i])))),
        speedup_2_workers_tiny: round(median(two.map((t, i) => t / one[i]))),
        pair_efficiency_tiny: round(median(pair.map((p, i) => p / (2 * alone[i])))),
        pool_vs_pair_tiny: round(median(two.map((t, i) => t / pair[i]))),
        cpu_ms_per_session_serial: round(cpuMs.serial),
        cpu_ms_per_session_worker: cpuMs.worker === null ? null : round(cpuMs.worker),
        cpu_ms_per_session_coordinator: round(cpuMs.coordinator),
        pool_efficiency_tiny_cpu: cpuMs.worker === null ? null : round(cpuMs.serial / (cpuMs.worker + cpuMs.coordinator)),
        coordinator_peak_rss_mb_100k: round(memory.peakRssMb),
        rss_growth_mb_per_100k: round(growthPer100k),
      },
    };
  } finally {
    await Promise.all([pools.one.close(), pools.two.close(), control?.close()]);
    plain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
