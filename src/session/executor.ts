/**
 * What a coordinator needs from whatever runs its sessions (`SessionExecutor`: the local pool in
 * `pool.ts`, a distributed queue in `src/queue/`), and the checks of a pool's options.
 */
import { availableParallelism } from 'node:os';
import { XrsimInputError } from '../errors.js';
import type { SessionResult } from './result.js';
import type { SessionSpec } from './spec.js';

/** Default per-session wall-clock limit, seconds: far above any suite session (they take well under one). */
export const DEFAULT_TIME_LIMIT = 300;

/** Workers per core at most: more only adds memory and switching, never throughput. */
export const MAX_WORKERS_PER_CORE = 4;

/** Options of `createSessionPool`. */
export interface SessionPoolOptions {
  /** Worker processes. Default: one per core. At most {@link MAX_WORKERS_PER_CORE} per core (see {@link resolveWorkerCount}). */
  workers?: number;
  /** Default wall-clock limit per session, seconds (default {@link DEFAULT_TIME_LIMIT}). */
  timeLimitSeconds?: number;
  /**
   * Extra Node and V8 flags the workers start with (`['--max-old-space-size=8192']`). Default: the
   * `XRSIM_WORKER_V8_FLAGS` environment variable (flags separated by spaces), else none: V8's defaults.
   * GC flags change speed, never a result or hash (see `worker-flags.ts`).
   */
  workerV8Flags?: readonly string[];
  /**
   * Each worker's JavaScript heap limit, MB (V8's `--max-old-space-size`; default `XRSIM_WORKER_HEAP_MB`,
   * else 4096). A session whose worker reaches it is `errored` (kind `out-of-memory`), and V8's report of
   * it stays out of the terminal.
   */
  workerHeapMb?: number;
  /**
   * Seconds of work (at the recent mean session time) each worker may hold at once, running and queued
   * (default {@link DEFAULT_BATCH_SECONDS}): short sessions then travel several per message and a worker
   * never waits for the pool between them; at most {@link MAX_JOBS_PER_WORKER} jobs. `0` sends one
   * session at a time to whichever worker is free.
   */
  batchSeconds?: number;
}

/** Default {@link SessionPoolOptions.batchSeconds}: a tenth of a second of work per worker. */
export const DEFAULT_BATCH_SECONDS = 0.1;

/**
 * Jobs a worker holds at most (running and queued). Queued jobs spare a worker the wait for the pool
 * between sessions, and one message carries several, but they are committed to that worker: the pool
 * sends only as many as {@link SessionPoolOptions.batchSeconds} of work, so long sessions still go one at
 * a time to whichever worker is free.
 */
export const MAX_JOBS_PER_WORKER = 64;

/** A session's result from a worker, with the wall seconds it ran there. */
export interface PooledRun {
  result: SessionResult;
  seconds: number;
  /**
   * The result's JSON text, exactly `JSON.stringify(result)`, when the worker sent it as text (a result with
   * no NaN, infinity or undefined): a coordinator can write it out without parsing and re-serialising it.
   */
  readonly resultJson?: string;
}

/** Anything that runs sessions for a coordinator: the local pool here, a distributed queue elsewhere. */
export interface SessionExecutor {
  /** Sessions it runs at once; a coordinator keeps a small multiple of this in flight. */
  readonly concurrency: number;
  /** Runs one session. Never rejects for the session's own problems: they are `errored` results. */
  run(spec: SessionSpec, options?: { timeLimitSeconds?: number }): Promise<PooledRun>;
  /**
   * Sessions each unit of concurrency takes at a time now, when it queues several (the local pool does
   * when sessions are short); a coordinator scales what it keeps in flight by it. Default 1.
   */
  readonly jobsPerWorker?: number;
}

/** The worker count to use for a request, and whether it was capped. */
export interface WorkerCount {
  workers: number;
  requested: number;
  /** The most this machine allows ({@link MAX_WORKERS_PER_CORE} per core). */
  max: number;
  capped: boolean;
}

/**
 * Checks a requested worker count (default: one per core) and caps it at {@link MAX_WORKERS_PER_CORE} per
 * core. Throws {@link XrsimInputError} for anything but a positive integer.
 */
export function resolveWorkerCount(requested: number | undefined): WorkerCount {
  const cores = availableParallelism();
  const max = MAX_WORKERS_PER_CORE * cores;
  const value = requested ?? cores;
  if (!Number.isInteger(value) || value < 1) throw new XrsimInputError(`workers must be a positive integer, got ${value}`, { expected: `an integer from 1 to ${max}` });
  return { workers: Math.min(value, max), requested: value, max, capped: value > max };
}

/** Checks {@link SessionPoolOptions.batchSeconds}: a finite number of seconds, 0 or more. */
export function checkBatchSeconds(seconds: number | undefined): number {
  const value = seconds ?? DEFAULT_BATCH_SECONDS;
  if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value))) throw new XrsimInputError(`batchSeconds must be 0 or a positive number of seconds, got ${value}`, { expected: `seconds of work per worker, such as ${DEFAULT_BATCH_SECONDS} (0: one session at a time)` });
  return value;
}

/** Checks a wall-clock limit in seconds. */
export function checkTimeLimit(seconds: number | undefined): number {
  const value = seconds ?? DEFAULT_TIME_LIMIT;
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value))) throw new XrsimInputError(`the time limit must be a positive number of seconds, got ${value}`, { expected: 'seconds, such as 300' });
  return value;
}

/**
 * A run whose result came as JSON text: parsed when `result` is first read. A sweep writes the text into its
 * results file as it is and parses it once, with the line around it (`sweep/record-kept.ts`).
 */
export class TextRun implements PooledRun {
  private parsed: SessionResult | undefined;

  constructor(
    readonly resultJson: string,
    readonly seconds: number,
  ) {}

  get result(): SessionResult {
    return (this.parsed ??= JSON.parse(this.resultJson) as SessionResult);
  }
}
