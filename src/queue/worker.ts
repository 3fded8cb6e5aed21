/**
 * A queue worker (`xrsim worker`): takes session jobs from a BullMQ queue and runs them on this machine's
 * warm session pool, as many at once as the pool has workers (holding {@link PREFETCH} job more, ready to
 * start). Each job is checked first (`payload.ts`: its
 * shape, kernel version and key; `task-roots.ts`: every file it names): a refused job is an `errored` result
 * (bad input), never retried. A session whose session worker crashed fails the attempt, so BullMQ retries it
 * (on any worker) until the coordinator's attempts run out; every other result, `errored` included, is the
 * job's return value. Streams are kept in `streamsDir` as `--keep-streams` says.
 *
 * `close()` stops taking jobs, lets the running ones finish and report, and closes the pool. A worker that is
 * killed instead leaves its jobs locked; BullMQ's stalled-job check gives them to another worker once the
 * lock (`lockSeconds`) runs out.
 */
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Job, Queue, Worker } from 'bullmq';
import { QueueUnavailableError, XrsimInputError } from '../errors.js';
import { createSessionPool, DEFAULT_TIME_LIMIT, type SessionPool } from '../session/pool.js';
import { prepareOutDir } from '../sweep/out-dir.js';
import { runKeepingStreams, type KeepStreams } from '../sweep/record-kept.js';
import { checkScoringCommands, withScoringCommands, type ScoringCommands } from '../sweep/scoring-commands.js';
import type { SweepResultLine } from '../sweep/results.js';
import { checkReconnectSeconds, probeRedis, redisOptions, scrub } from './connection.js';
import { checkQueueName } from './coordinator.js';
import { erroredLine, keyOfJobId, readSessionJob } from './payload.js';
import { TaskRoots } from './task-roots.js';
import { parseQueueUrl, type QueueTarget } from './url.js';

/**
 * Jobs a worker holds beyond its pool's size. Sessions run as many at once as the pool has workers; the
 * one job more waits in the pool's own queue, so a session worker starts its next session the moment it
 * reports, instead of waiting for Redis (a round trip and BullMQ's bookkeeping per job: measured at
 * 2–5 ms per job on a loaded 2-core machine without it, under 1.5 ms with it).
 */
const PREFETCH = 1;

/** Where the scoring commands' files go on a worker with no `--streams-dir`. */
const SCORING_DIR = join('xrsim-out', 'worker');

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  /** `redis://[USER:PASSWORD@]HOST[:PORT][/DB]`, or `rediss://…` for TLS. */
  url: string;
  /** The queue's name (default `xrsim`): the coordinator's. */
  name?: string;
  /** Session worker processes, and so sessions at once (default: one per core). */
  workers?: number;
  /** Each session worker's JavaScript heap limit, MB (as a pool's `workerHeapMb`). */
  workerHeapMb?: number;
  /** Folders besides the package's own `tasks/`, `scenes/` and `hand-models/` that jobs may name files in. */
  taskRoots?: string[];
  /** Which streams to keep: `none` (default), `failed` or `all`. Anything but `none` needs `streamsDir`. */
  keepStreams?: KeepStreams;
  /** Where kept streams go, as `<key>.xrs` (a shared folder, for the coordinator's reports to find them). */
  streamsDir?: string;
  /**
   * The commands that score this worker's sessions (a judge of `visual` milestones, a design judge, an
   * agent), for every job it takes: a job never names a command. Their files go to `streamsDir`
   * (`<key>.visual/`, `.agent/`, `.design/`), or `xrsim-out/worker/` when no streams folder is given.
   */
  scoring?: ScoringCommands;
  /** Seconds a job stays claimed by a worker that stopped answering before another takes it (default 30). */
  lockSeconds?: number;
  /** Times a job may be put back after its worker stopped before it fails (default 1). */
  maxStalls?: number;
  /** Seconds a lost connection keeps trying to come back before the worker stops (default 60). */
  reconnectSeconds?: number;
  /** Stop (as on SIGTERM) once the queue has had nothing to do for this many seconds (default: never). */
  idleExitSeconds?: number;
  /** This worker's name in BullMQ (default `HOST:PID`). */
  workerName?: string;
  /** Lines for the operator (connection, progress, problems); never holds the password. */
  log?(line: string): void;
}

/** What a worker did. */
export interface QueueWorkerStats {
  /** Jobs taken (attempts). */
  jobs: number;
  /** Jobs that returned a result (passed, failed or errored). */
  completed: number;
  /** Attempts that failed because the session's worker process crashed (retried by BullMQ while attempts remain). */
  crashed: number;
  /** Jobs refused (bad payload, files outside the task roots). */
  refused: number;
}

/** How a worker ended. */
export interface QueueWorkerExit {
  /** `closed` (asked to stop, or idle), or `lost` (Redis could not be reached again). */
  reason: 'closed' | 'idle' | 'lost';
  error?: Error;
}

/** A running queue worker. */
export interface QueueWorker {
  readonly name: string;
  readonly stats: QueueWorkerStats;
  /** Sessions it runs at once (its pool's size). */
  readonly concurrency: number;
  /** Settles when the worker has stopped. */
  readonly finished: Promise<QueueWorkerExit>;
  /** Takes no new jobs, finishes the running ones, closes the pool. `force` abandons running jobs (BullMQ gives them to others). */
  close(force?: boolean): Promise<QueueWorkerExit>;
}

/** Checks the options, connects (throwing `QueueUnavailableError` when Redis cannot be used) and starts taking jobs. */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const target = parseQueueUrl(options.url);
  const name = checkQueueName(options.name);
  const roots = TaskRoots.create(options.taskRoots ?? []);
  const keep = options.keepStreams ?? (options.streamsDir ? 'failed' : 'none');
  if (!['failed', 'all', 'none'].includes(keep)) throw new XrsimInputError(`--keep-streams must be failed, all or none, got ${JSON.stringify(keep)}`);
  if (keep !== 'none' && !options.streamsDir) throw new XrsimInputError(`--keep-streams ${keep} needs --streams-dir DIR: a worker keeps streams only in a folder its operator names`);
  if (options.streamsDir) prepareOutDir(options.streamsDir);
  const scoring = options.scoring ?? {};
  checkScoringCommands(scoring);
  const lockSeconds = options.lockSeconds ?? 30;
  if (!(Number.isFinite(lockSeconds) && lockSeconds >= 1)) throw new XrsimInputError(`--lock-seconds must be at least 1, got ${lockSeconds}`);
  const maxStalls = options.maxStalls ?? 1;
  if (!(Number.isInteger(maxStalls) && maxStalls >= 0)) throw new XrsimInputError(`maxStalls must be an integer ≥ 0, got ${maxStalls}`);
  const idleExitSeconds = options.idleExitSeconds;
  if (idleExitSeconds !== undefined && !(Number.isFinite(idleExitSeconds) && idleExitSeconds > 0)) throw new XrsimInputError(`--idle-exit must be a positive number of seconds, got ${idleExitSeconds}`);
  const reconnectSeconds = checkReconnectSeconds(options.reconnectSeconds);
  const workerName = options.workerName ?? `${hostname()}:${process.pid}`;
  const log = options.log ?? (() => {});
  await probeRedis(target);

  const { Worker, Queue } = await import('bullmq');
  const pool = createSessionPool({ workers: options.workers, timeLimitSeconds: DEFAULT_TIME_LIMIT, workerHeapMb: options.workerHeapMb });
  const state = new WorkerState(target, pool, log);
  const connection = redisOptions(target, reconnectSeconds, (tries) => state.lose(`lost the connection to Redis at ${target.display} and could not get it back in ${reconnectSeconds} s (${tries} tries)`));
  const runJob = async (job: Job): Promise<SweepResultLine> => {
    state.stats.jobs++;
    state.busy++;
    try {
      return await processJob(job, { roots, pool, keep, streamsDir: options.streamsDir, scoring, workerName, stats: state.stats });
    } finally {
      state.busy--;
      state.lastBusy = Date.now(); // xrsim-allow-clock: --idle-exit, a worker's own lifetime
    }
  };
  const worker = new Worker(name, runJob, {
    connection,
    concurrency: pool.concurrency + PREFETCH,
    name: workerName,
    lockDuration: lockSeconds * 1000,
    stalledInterval: lockSeconds * 1000,
    maxStalledCount: maxStalls,
  });
  worker.on('error', (err: Error) => state.warn(err));
  const counter = idleExitSeconds === undefined ? null : new Queue(name, { connection });
  counter?.on('error', () => {});
  state.attach(worker, counter);
  await Promise.race([worker.waitUntilReady(), state.finished.then((exit) => Promise.reject(exit.error ?? new Error('the worker stopped while starting')))]);
  log(`taking jobs from queue ${name} at ${target.display} as ${workerName}: ${pool.concurrency} session worker${pool.concurrency === 1 ? '' : 's'}; task roots ${roots.dirs.join(', ')}; streams ${keep === 'none' ? 'not kept' : `${keep} kept in ${options.streamsDir}`}${describeScoring(scoring)}`);
  if (idleExitSeconds !== undefined) state.exitWhenIdle(idleExitSeconds);
  return {
    name: workerName,
    stats: state.stats,
    concurrency: pool.concurrency,
    finished: state.finished,
    close: (force = false) => state.close('closed', force),
  };
}

/** The scoring commands, for the log line a worker starts with. */
function describeScoring({ judge, designJudge, agent }: ScoringCommands): string {
  const given = [judge && `judge ${judge}`, designJudge && `design judge ${designJudge}`, agent && `agent ${agent}`].filter(Boolean);
  return given.length ? `; ${given.join('; ')}` : '';
}

/** Runs one job to the line it returns, or throws to fail the attempt (a crashed session worker). */
async function processJob(
  job: Job,
  ctx: { roots: TaskRoots; pool: SessionPool; keep: KeepStreams; streamsDir?: string; scoring: ScoringCommands; workerName: string; stats: QueueWorkerStats },
): Promise<SweepResultLine> {
  const jobId = String(job.id);
  const read = readSessionJob(job.data, jobId);
  const spec = (job.data as { spec?: unknown } | null)?.spec;
  if (read.refused) {
    ctx.stats.refused++;
    return erroredLine(keyOfJobId(jobId), spec, `the worker refuses this job: ${read.refused.message}`, 'bad-input', read.refused.error);
  }
  const refusal = ctx.roots.refusal(read.job.spec);
  if (refusal) {
    ctx.stats.refused++;
    return erroredLine(keyOfJobId(jobId), spec, refusal, 'bad-input');
  }
  const { key, spec: entrySpec, timeLimitSeconds } = read.job;
  const streamPath = join(ctx.streamsDir ?? '.', `${key}.xrs`);
  const scored = withScoringCommands(entrySpec, key, resolve(ctx.streamsDir ?? SCORING_DIR), ctx.scoring);
  const { line } = await runKeepingStreams(ctx.pool, { key, spec: entrySpec }, scored, { keep: ctx.keep, streamPath: () => streamPath, timeLimitSeconds });
  if (line.status === 'errored' && line.error?.kind === 'crash') {
    ctx.stats.crashed++;
    // BullMQ keeps each failed attempt's stack: make it the reason, so the coordinator can list them all.
    const failure = new Error(line.error.message);
    failure.stack = `${ctx.workerName}: ${line.error.message}`;
    throw failure;
  }
  ctx.stats.completed++;
  return line;
}

/** The worker's counters, its end, and how it stops. */
class WorkerState {
  readonly stats: QueueWorkerStats = { jobs: 0, completed: 0, crashed: 0, refused: 0 };
  busy = 0;
  lastBusy = Date.now(); // xrsim-allow-clock
  readonly finished: Promise<QueueWorkerExit>;
  private end!: (exit: QueueWorkerExit) => void;
  private worker: Worker | null = null;
  private counter: Queue | null = null;
  private closing: Promise<QueueWorkerExit> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private lastWarning = '';

  constructor(
    private readonly target: QueueTarget,
    private readonly pool: SessionPool,
    private readonly log: (line: string) => void,
  ) {
    this.finished = new Promise((resolve) => (this.end = resolve));
  }

  attach(worker: Worker, counter: Queue | null): void {
    this.worker = worker;
    this.counter = counter;
  }

  /** Logs a BullMQ error once (they repeat while a connection is down), with the password scrubbed. */
  warn(err: Error): void {
    const text = scrub(err?.message ?? String(err), this.target);
    if (text === this.lastWarning) return;
    this.lastWarning = text;
    this.log(`warning: ${text}`);
  }

  lose(message: string): void {
    void this.close('lost', true, new QueueUnavailableError(message));
  }

  exitWhenIdle(seconds: number): void {
    this.idleTimer = setInterval(async () => {
      if (this.busy > 0 || Date.now() - this.lastBusy < seconds * 1000 || this.closing) return; // xrsim-allow-clock: queue timing, outside any session
      const counts = await this.counter?.getJobCounts('waiting', 'delayed', 'prioritized', 'active').catch(() => null);
      if (!counts || counts.waiting + counts.delayed + counts.prioritized > 0) return;
      this.log(`the queue has had nothing for this worker for ${seconds} s: stopping`);
      void this.close('idle', false);
    }, 1000);
  }

  close(reason: QueueWorkerExit['reason'], force: boolean, error?: Error): Promise<QueueWorkerExit> {
    this.closing ??= (async () => {
      if (this.idleTimer) clearInterval(this.idleTimer);
      if (reason !== 'lost' && !force) this.log(`stopping: taking no new jobs; finishing the ${this.busy} job${this.busy === 1 ? '' : 's'} it holds`);
      // A forced close does not wait for running jobs (BullMQ gives them to other workers once their locks expire).
      await Promise.allSettled([this.worker?.close(force), force ? this.counter?.disconnect() : this.counter?.close()]);
      await this.pool.close();
      const { jobs, completed, crashed, refused } = this.stats;
      this.log(`stopped (${reason}): ${jobs} jobs taken, ${completed} completed, ${crashed} crashed attempts, ${refused} refused`);
      const exit: QueueWorkerExit = { reason, ...(error ? { error } : {}) };
      this.end(exit);
      return exit;
    })();
    return this.closing;
  }
}
