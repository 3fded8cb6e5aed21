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
 * XRSIM_BENCH_SCALE_SESSIONS runs the memory sweep smaller (the growth is then scaled to 100,000).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSessionPool, loadTask, runSession, runSweep, type SessionPool } from '../src/index.js';
import { median, round } from './stats.js';

const SCENES = ['empty-lab', 'living-room', 'kitchen', 'office'];
const TIMED = 2000;

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

/** Sessions per second of a sweep of `sessions` tiny sessions on `pool`. */
async function sweepRate(pool: SessionPool, task: string, sessions: number, firstSeed: number): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'xrsim-bench-scale-'));
  const start = performance.now();
  let done = 0;
  const sweep = runSweep({ ...options(task, sessions, firstSeed), out, executor: pool });
  for (let step = await sweep.next(); !step.done; step = await sweep.next()) done++;
  const seconds = (performance.now() - start) / 1000;
  rmSync(out, { recursive: true, force: true });
  return done / seconds;
}

/** Sessions per second of the same kind of sessions, one after another in this thread. */
async function serialRate(task: string, sessions: number, firstSeed: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < sessions; i++) await runSession({ task, seed: firstSeed + Math.floor(i / SCENES.length), scene: SCENES[i % SCENES.length], dominantHand: 'right' });
  return sessions / ((performance.now() - start) / 1000);
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
  try {
    progress('warming the pools and this thread …');
    await sweepRate(pools.one, task, 400, 100_000);
    await sweepRate(pools.two, task, 400, 100_000);
    await serialRate(task, 400, 100_000);
    const one: number[] = [];
    const two: number[] = [];
    const serial: number[] = [];
    for (let trial = 0; trial < 3; trial++) {
      progress(`trial ${trial + 1} of 3: ${TIMED} tiny sessions on 2 workers, on 1 worker, in one thread …`);
      const seed = 200_000 + trial * TIMED;
      two.push(await sweepRate(pools.two, task, TIMED, seed));
      one.push(await sweepRate(pools.one, task, TIMED, seed));
      serial.push(await serialRate(task, TIMED / 2, seed));
    }
    await Promise.all([pools.one.close(), pools.two.close()]);
    const sessions = Number(process.env.XRSIM_BENCH_SCALE_SESSIONS ?? 100_000);
    progress(`coordinator memory over a ${sessions}-session sweep on 2 workers …`);
    const memory = coordinatorMemory(task, sessions, dir);
    const at10k = memory.samples.find((s) => s.done >= 10_000) ?? memory.samples[0];
    const end = memory.samples[memory.samples.length - 1];
    const growthPer100k = ((end.rssMb - at10k.rssMb) * 100_000) / Math.max(1, end.done - at10k.done);
    return {
      details: {
        timedSessions: TIMED,
        sessionsPerSecond: { twoWorkers: two.map((r) => round(r)), oneWorker: one.map((r) => round(r)), serialOneThread: serial.map((r) => round(r)) },
        memorySweep: { sessions: memory.sessions, seconds: memory.seconds, samples: memory.samples, peakHeapMb: memory.peakHeapMb },
      },
      summary: {
        sessions_per_s_tiny_2_workers: round(median(two)),
        pool_efficiency_tiny: round(median(two.map((t, i) => t / (2 * serial[i])))),
        speedup_2_workers_tiny: round(median(two.map((t, i) => t / one[i]))),
        coordinator_peak_rss_mb_100k: round(memory.peakRssMb),
        rss_growth_mb_per_100k: round(growthPer100k),
      },
    };
  } finally {
    await Promise.all([pools.one.close(), pools.two.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
