/**
 * The session worker protocol: what a pool sends a worker process and what it gets back. A worker runs one
 * whole session per job (never single steps: a round trip costs more than a tick). Messages travel over
 * Node's IPC channel with the structured-clone serialiser, so results keep NaN and infinities exactly.
 *
 *   pool → worker   RunJob            sessions to run, in order, after those already sent (a worker holds a
 *                                     short queue, so it never waits for the pool between tiny sessions)
 *   worker → pool   WorkerReady       sent once, after Rapier is initialised and the process captured
 *                   JobsDone          finished sessions, oldest first: each one's result, how long it ran,
 *                                     and whether the worker retires
 *
 * A worker runs its jobs strictly in the order they were sent. Short sessions are answered several at a
 * time (one message and one wake-up of the pool for many): a worker replies once its queue is empty or
 * once the unanswered ones add up to {@link REPLY_AFTER_SECONDS} (so the pool refills it in time, and a
 * long session is answered as soon as it ends). Before each
 * job it marks the job as started in its run marker (`run-marker.ts`): when a worker hangs or dies, the
 * pool reads the marker, and the job it names ends as an `errored` result of one of the kinds in
 * {@link JobFailureKind}; the jobs before it (finished, their answers lost with the worker) and after it
 * (never started) go to another worker and run again, to the same results. A worker without a marker
 * answers every job before it starts the next, and the oldest unanswered job is the running one.
 */
import type { SessionResult } from './result.js';
import type { SessionSpec } from './spec.js';

/** Sessions to run, in order, after the worker's queued ones. Each `id` is unique within a pool. */
export interface RunJob {
  type: 'run';
  jobs: { id: number; spec: SessionSpec }[];
}

/** The worker is initialised and takes jobs. */
export interface WorkerReady {
  type: 'ready';
}

/** Finished jobs, oldest first (the worker's `rssMb` is in each). */
export interface JobsDone {
  type: 'done';
  jobs: JobDone[];
}

/** One finished job. */
export interface JobDone {
  id: number;
  /**
   * The session's result; the session's own problems (bad input, an exception) are `errored` results,
   * never a missing reply. Sent as `resultJson`, its JSON text, when that carries it exactly (no NaN,
   * infinities or undefined): text costs a third of a structured clone to send and read.
   */
  result?: SessionResult;
  resultJson?: string;
  /** Wall seconds the session took in the worker (harness time: never part of a result's identity). */
  seconds: number;
  /** CPU seconds the worker process spent on it (with the wall seconds, the larger sizes the pool's batches). */
  cpuSeconds: number;
  /** The worker's resident memory, MiB, measured after this session or one shortly before it (reading it costs a file read). */
  rssMb: number;
  /**
   * Set when the session left the process changed (a global or built-in prototype replaced, a timer or
   * socket it could not clear, a listener added, the working directory moved) or the worker grew past its
   * memory limit: the worker exits and the pool starts a fresh one, so the next session starts clean. A
   * retiring worker runs none of its queued jobs: the pool hands them to the fresh one.
   */
  retire: string | null;
}

/** Messages a pool sends. */
export type PoolMessage = RunJob;
/** Messages a worker sends. */
export type WorkerMessage = WorkerReady | JobsDone;

/**
 * A worker answers its finished jobs once their wall seconds add up to this, if its queue did not run out
 * first: half the work the pool lets a worker hold by default (`DEFAULT_BATCH_SECONDS` in `executor.ts`), so
 * the pool refills a worker's queue before it runs dry.
 */
export const REPLY_AFTER_SECONDS = 0.05;

/**
 * Why a job ended without a reply from its worker:
 * - `timeout`: it ran past its wall-clock limit; its worker was killed.
 * - `crash`: its worker process died (an app calling `process.exit`, running out of memory, a native fault),
 *   or no worker could be started.
 */
export type JobFailureKind = 'timeout' | 'crash' | 'out-of-memory';

/**
 * Node options every session worker runs with: fresh module instances per session need vm modules, and
 * resolving packages from an app's own folder needs import.meta.resolve's parent argument.
 */
export const WORKER_EXEC_ARGV: readonly string[] = ['--experimental-vm-modules', '--experimental-import-meta-resolve', '--disable-warning=ExperimentalWarning'];

/** A worker retires after a session that leaves its resident memory above this many MiB. */
export const WORKER_RSS_LIMIT_MB = 2048;

/** True for a message a worker may send (the IPC channel carries whatever a process writes to it). */
export function isWorkerMessage(value: unknown): value is WorkerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'ready') return true;
  return type === 'done' && Array.isArray((value as Partial<JobsDone>).jobs);
}

/** True for a job record in a {@link JobsDone} message that carries an id and a result. */
export function isJobDone(value: unknown): value is JobDone {
  if (typeof value !== 'object' || value === null) return false;
  const done = value as Partial<JobDone>;
  return typeof done.id === 'number' && ((typeof done.result === 'object' && done.result !== null) || typeof done.resultJson === 'string');
}
