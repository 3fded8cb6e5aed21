/**
 * The queue benchmark (issue 14): a sweep through BullMQ on a local redis-server against the local pool,
 * in the same run, and what each job costs the queue.
 *
 * - `queue_vs_local_2_workers`: sessions per second through the queue with 2 `xrsim worker` processes of one
 *   session worker each, ÷ the local pool with 2 workers, on the same matrix (suite tasks, reference apps,
 *   one scene); each trial uses fresh seeds for both, and the ratio is the median of the trials' ratios
 *   over steady trials (`steady-trials.ts`: bracketed by an in-thread probe; reverse order every other trial).
 * - `queue_overhead_ms_per_job`: what a job costs a worker slot beyond its session, from tiny sessions
 *   (five ticks): (queue seconds − local seconds) × 2 slots ÷ jobs.
 * - `redis_ops_per_job`: Redis commands per job over the tiny queue sweeps (INFO commandstats deltas; the
 *   commands BullMQ's Lua scripts run count, as they load the server like any other).
 * - `redis_cpu_us_per_job`, `redis_bytes_per_job` (in + out) and `coordinator_cpu_ms_per_job`: the load a
 *   fleet puts on Redis and on the one coordinator, for the projection in docs/DISTRIBUTED.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSessionPool, loadTask, runSession, runSweep, type RunSweepOptions, type SessionPool } from '../src/index.js';
import { startLocalRedis, type LocalRedis } from './redis-server.js';
import { median, round } from './stats.js';
import { inAlternatingOrder, steadyTrials } from './steady-trials.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SUITE = { tasks: ['physics/*', 'xr/{poke-button,palm-menu,pinch-spawn-ball}'], scenes: ['office'], hands: ['right' as const] };
const SUITE_SEEDS = 10;
const TINY_SESSIONS = 600;
/** Steady trials wanted, and the most run (`steady-trials.ts`). */
const TRIALS = 5;
const MOST_TRIALS = 8;
/** In-thread tiny sessions of the probe around each trial. */
const PROBE_SESSIONS = 160;

/** A small user task, five ticks long (as the scale benchmark's). */
function tinyTask(dir: string): string {
  const { spec } = loadTask('physics/rolling-ball-checkpoints');
  const file = join(dir, 'tiny.json');
  writeFileSync(file, JSON.stringify({ ...spec, id: 'bench/tiny-rolling-ball', duration: 5 / 90 }));
  return file;
}

/** Seconds and sessions of one sweep. */
type Timed = { seconds: number; sessions: number };

async function timeSweep(options: RunSweepOptions): Promise<Timed> {
  const start = performance.now();
  let sessions = 0;
  const sweep = runSweep(options);
  for (let step = await sweep.next(); !step.done; step = await sweep.next()) sessions++;
  rmSync(options.out, { recursive: true, force: true });
  return { seconds: (performance.now() - start) / 1000, sessions };
}

/** Redis's command count, CPU seconds and network bytes so far. */
function redisCounters(redis: LocalRedis): { commands: number; cpu: number; bytes: number } {
  const stats = redis.info('commandstats');
  let commands = 0;
  for (const [name, value] of Object.entries(stats)) {
    // Not the benchmark's own INFO calls.
    if (name.startsWith('cmdstat_') && name !== 'cmdstat_info') commands += Number(/calls=(\d+)/.exec(value)?.[1] ?? 0);
  }
  const cpu = redis.info('cpu');
  const net = redis.info('stats');
  return {
    commands,
    cpu: Number(cpu.used_cpu_user) + Number(cpu.used_cpu_sys),
    bytes: Number(net.total_net_input_bytes) + Number(net.total_net_output_bytes),
  };
}

function startWorkers(url: string, taskRoot: string): ChildProcess[] {
  return [0, 1].map(() => spawn(process.execPath, [CLI, 'worker', '--queue', url, '--queue-name', 'bench', '--workers', '1', '--task-root', taskRoot], { stdio: ['ignore', 'ignore', 'inherit'] }));
}

/** Runs the queue suite. */
export async function queueBenchmark(progress: (line: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-bench-queue-'));
  const tiny = tinyTask(dir);
  const redis = await startLocalRedis();
  const workers = startWorkers(redis.url, dir);
  const pool: SessionPool = createSessionPool(2);
  const queue = { url: redis.url, name: 'bench' };
  let seed = 1000;
  const matrix = (tasks: object, seeds: number) => {
    const from = seed;
    seed += seeds;
    return { ...tasks, seeds: { from, to: from + seeds - 1 }, out: join(dir, `out-${from}`) };
  };
  const tinyMatrix = () => matrix({ tasks: [tiny], scenes: ['empty-lab', 'living-room', 'kitchen', 'office'], hands: ['right' as const] }, TINY_SESSIONS / 4);
  try {
    progress('warming the local pool and the queue workers …');
    for (const m of [() => matrix(SUITE, 1), tinyMatrix]) {
      await timeSweep({ ...m(), executor: pool, keepStreams: 'none' });
      await timeSweep({ ...m(), queue });
    }
    type Counters = { commands: number; cpu: number; bytes: number };
    type Trial = { suiteLocal: Timed; suiteQueue: Timed; tinyLocal: Timed; tinyQueue: Timed; coordinatorCpuMs: number; redis: Counters };
    const trials = await steadyTrials<Trial>({
      wanted: TRIALS,
      most: MOST_TRIALS,
      progress,
      probe: async () => {
        const start = performance.now();
        for (let i = 0; i < PROBE_SESSIONS; i++) await runSession({ task: tiny, seed: 500_000 + i, scene: 'empty-lab', dominantHand: 'right' });
        return (performance.now() - start) / 1000;
      },
      trial: async (index) => {
        // Fresh seeds per trial, the same for the local pool and the queue.
        const suite = matrix(SUITE, SUITE_SEEDS);
        const small = tinyMatrix();
        const run: Partial<Trial> = {};
        await inAlternatingOrder(index, [
          async () => void (run.suiteLocal = await timeSweep({ ...suite, executor: pool, keepStreams: 'none' })),
          async () => void (run.suiteQueue = await timeSweep({ ...suite, queue })),
          async () => void (run.tinyLocal = await timeSweep({ ...small, executor: pool, keepStreams: 'none' })),
          async () => {
            const before = redisCounters(redis);
            const cpuBefore = process.cpuUsage();
            run.tinyQueue = await timeSweep({ ...small, queue });
            const cpu = process.cpuUsage(cpuBefore);
            const after = redisCounters(redis);
            run.coordinatorCpuMs = (cpu.user + cpu.system) / 1000;
            run.redis = { commands: after.commands - before.commands, cpu: after.cpu - before.cpu, bytes: after.bytes - before.bytes };
          },
        ]);
        return run as Trial;
      },
    });
    const used = trials.used;
    const ratios = used.map((t) => t.suiteLocal.seconds / t.suiteQueue.seconds);
    const overheads = used.map((t) => ((t.tinyQueue.seconds - t.tinyLocal.seconds) * 2 * 1000) / t.tinyQueue.sessions);
    const jobs = used.reduce((sum, t) => sum + t.tinyQueue.sessions, 0);
    const coordinatorCpu = used.reduce((sum, t) => sum + t.coordinatorCpuMs, 0);
    const redisUse = used.reduce((sum, t) => ({ commands: sum.commands + t.redis.commands, cpu: sum.cpu + t.redis.cpu, bytes: sum.bytes + t.redis.bytes }), { commands: 0, cpu: 0, bytes: 0 });
    const rate = (timed: Timed) => round(timed.sessions / timed.seconds);
    return {
      details: {
        suiteSessionsPerTrial: used[0].suiteLocal.sessions,
        trials: { steady: trials.steady, used: used.length, probeDrifts: trials.drifts },
        sessionsPerSecond: {
          suiteLocal: used.map((t) => rate(t.suiteLocal)),
          suiteQueue: used.map((t) => rate(t.suiteQueue)),
          tinyLocal: used.map((t) => rate(t.tinyLocal)),
          tinyQueue: used.map((t) => rate(t.tinyQueue)),
        },
        overheadMsPerJob: overheads.map((o) => round(o)),
        tinyJobsMeasured: jobs,
        redisVersion: redis.info('server').redis_version,
      },
      summary: {
        queue_vs_local_2_workers: round(median(ratios)),
        queue_overhead_ms_per_job: round(median(overheads)),
        redis_ops_per_job: round(redisUse.commands / jobs),
        redis_cpu_us_per_job: round((redisUse.cpu * 1e6) / jobs),
        redis_bytes_per_job: Math.round(redisUse.bytes / jobs),
        coordinator_cpu_ms_per_job: round(coordinatorCpu / jobs),
      },
    };
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(workers.map((w) => new Promise((resolve) => (w.exitCode !== null ? resolve(null) : w.once('exit', resolve)))));
    await pool.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
