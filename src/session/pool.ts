/**
 * A warm pool of session worker processes: one Rapier initialisation per worker, one whole session per job,
 * each with a wall-clock limit. When sessions are short a worker holds a few jobs at a time (sent in one
 * message), so it never waits for the pool between them; a job that never started when its worker died
 * or retired goes to the next worker. The only pool in xrsim: sweeps, flakiness studies, sweep verification and
 * isolated runs all use it. A session past its limit is `errored` (timeout) and its worker is killed and
 * replaced; a worker that dies is replaced and its session is `errored` (crash); a worker whose session left
 * the process changed retires and is replaced before its next job. The limit is harness time, never
 * simulation time: it cannot change a session's result.
 *
 * Workers are processes, not threads, so a session cannot reach the pool's memory or process state, its
 * memory is returned when the worker goes, and the coordinator's own footprint stays small.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { XrsimInputError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { erroredResult, type SessionResult } from './result.js';
import type { SessionSpec } from './spec.js';
import { isWorkerMessage, WORKER_EXEC_ARGV, type JobFailureKind, type RunJob, type WorkerMessage } from './worker-protocol.js';

/** The compiled worker entry (tests and the CLI both run from a built package). */
export const SESSION_WORKER = join(PACKAGE_ROOT, 'dist/workers/session-worker.js');

/** Default per-session wall-clock limit, seconds: far above any suite session (they take well under one). */
export const DEFAULT_TIME_LIMIT = 300;

/** Workers per core at most: more only adds memory and switching, never throughput. */
export const MAX_WORKERS_PER_CORE = 4;

/** Consecutive workers that exit before they are ready, after which the pool gives up. */
const START_FAILURES_ALLOWED = 3;

/** Options of {@link createSessionPool}. */
export interface SessionPoolOptions {
  /** Worker processes. Default: one per core. At most {@link MAX_WORKERS_PER_CORE} per core (see {@link resolveWorkerCount}). */
  workers?: number;
  /** Default wall-clock limit per session, seconds (default {@link DEFAULT_TIME_LIMIT}). */
  timeLimitSeconds?: number;
}

/** A session's result from a worker, with the wall seconds it ran there. */
export interface PooledRun {
  result: SessionResult;
  seconds: number;
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

/** Checks a wall-clock limit in seconds. */
export function checkTimeLimit(seconds: number | undefined): number {
  const value = seconds ?? DEFAULT_TIME_LIMIT;
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value))) throw new XrsimInputError(`the time limit must be a positive number of seconds, got ${value}`, { expected: 'seconds, such as 300' });
  return value;
}

/** Starts a pool (its workers start at once and initialise in the background). */
export function createSessionPool(options: SessionPoolOptions | number = {}): SessionPool {
  return new SessionPool(typeof options === 'number' ? { workers: options } : options);
}

interface Job {
  id: number;
  spec: SessionSpec;
  limitSeconds: number;
  resolve(run: PooledRun): void;
}

/** One worker process and the jobs sent to it: the first is running, the others wait in the worker, in order. */
interface Slot {
  child: ChildProcess;
  ready: boolean;
  jobs: Job[];
  /** The running job's time limit. */
  timer: NodeJS.Timeout | null;
  /** Set once the slot is being replaced: its process's late events are ignored. */
  gone: boolean;
}

/**
 * Jobs a worker holds at most (running and queued). Queued jobs spare a worker the wait for the pool
 * between sessions, and one message carries several, but they are committed to that worker: the pool
 * sends only as many as {@link QUEUED_SECONDS} of work, so long sessions still go one at a time to
 * whichever worker is free.
 */
export const MAX_JOBS_PER_WORKER = 16;
/** Seconds of work (at the recent mean session time) a worker may hold. */
const QUEUED_SECONDS = 0.05;
/** Weight of the newest session in the running mean of session seconds. */
const MEAN_WEIGHT = 0.2;
/** How long a dead worker's last replies may take to arrive before its running job is blamed. */
const LAST_REPLIES_WAIT_MS = 1000;

/** A pool of session workers. Create it with {@link createSessionPool}; {@link close} it when done. */
export class SessionPool implements SessionExecutor {
  readonly concurrency: number;
  /**
   * What happened to workers so far, why the last one that retired did, and the most memory a worker held;
   * `runMessages` and `jobsSent` count what went to the workers (several jobs per message when sessions are short).
   */
  readonly stats = { started: 0, retired: 0, crashed: 0, timedOut: 0, lastRetireReason: null as string | null, peakWorkerRssMb: 0, runMessages: 0, jobsSent: 0 };
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private queueHead = 0;
  private nextId = 1;
  private startFailures = 0;
  private closed = false;
  private broken: string | null = null;
  private readonly timeLimit: number;
  /** Running mean of the seconds sessions took in their workers, CPU or wall, whichever is larger (null before the first). */
  private meanSeconds: number | null = null;

  constructor(options: SessionPoolOptions = {}) {
    this.concurrency = resolveWorkerCount(options.workers).workers;
    this.timeLimit = checkTimeLimit(options.timeLimitSeconds);
    for (let i = 0; i < this.concurrency; i++) this.slots.push(this.spawn());
  }

  /**
   * Jobs each worker holds at a time now: one until a session has finished, then as many as make
   * {@link QUEUED_SECONDS} of work at the mean session time, from 1 to {@link MAX_JOBS_PER_WORKER}.
   */
  get jobsPerWorker(): number {
    if (this.meanSeconds === null) return 1;
    return Math.max(1, Math.min(MAX_JOBS_PER_WORKER, Math.floor(QUEUED_SECONDS / Math.max(this.meanSeconds, 1e-6))));
  }

  /** Runs one session (queued until a worker is free). Never rejects for the session's problems. */
  run(spec: SessionSpec, options: { timeLimitSeconds?: number } = {}): Promise<PooledRun> {
    const limitSeconds = options.timeLimitSeconds === undefined ? this.timeLimit : checkTimeLimit(options.timeLimitSeconds);
    return new Promise((resolve) => {
      if (this.closed || this.broken) {
        resolve({ result: erroredResult(spec, new Error(this.broken ?? 'the session pool is closed'), 'crash'), seconds: 0 });
        return;
      }
      this.queue.push({ id: this.nextId++, spec, limitSeconds, resolve });
      this.pump();
    });
  }

  /** Stops every worker. Sessions still queued or running end as `errored`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failQueued('the session pool was closed');
    const exits = this.slots.map((slot) => this.stop(slot, 'SIGTERM', 'the session pool was closed while the session ran'));
    await Promise.all(exits);
  }

  private spawn(): Slot {
    const child = fork(SESSION_WORKER, [], {
      execArgv: [...WORKER_EXEC_ARGV],
      serialization: 'advanced',
      // An app's console output goes to stderr: stdout carries the CLI's results (--json).
      stdio: ['ignore', 2, 'inherit', 'ipc'],
    });
    const slot: Slot = { child, ready: false, jobs: [], timer: null, gone: false };
    this.stats.started++;
    child.on('message', (message: unknown) => {
      if (!slot.gone && isWorkerMessage(message)) this.onMessage(slot, message);
    });
    child.on('exit', (code, signal) => this.afterLastReplies(slot, () => this.onExit(slot, code, signal)));
    child.on('error', () => this.afterLastReplies(slot, () => this.onExit(slot, null, null)));
    return slot;
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === 'ready') {
      slot.ready = true;
      this.startFailures = 0;
      this.setIdle(slot);
      this.pump();
      return;
    }
    if (slot.jobs[0]?.id !== message.id) return;
    this.stats.peakWorkerRssMb = Math.max(this.stats.peakWorkerRssMb, message.rssMb);
    // The larger of CPU and wall time: a browser app's session spends its time in Chromium, not in the
    // worker's CPU, and judging it by CPU alone would commit many long sessions to one worker.
    const cost = Math.max(message.seconds, typeof message.cpuSeconds === 'number' ? message.cpuSeconds : 0);
    this.meanSeconds = this.meanSeconds === null ? cost : this.meanSeconds + MEAN_WEIGHT * (cost - this.meanSeconds);
    this.finishJob(slot, { result: message.result ?? (JSON.parse(message.resultJson!) as SessionResult), seconds: message.seconds });
    if (message.retire) {
      // A retiring worker runs nothing more: its queued jobs go to the fresh worker.
      this.stats.retired++;
      this.stats.lastRetireReason = message.retire;
      this.requeue(slot);
      this.replace(slot, 'SIGTERM');
    } else if (slot.jobs.length === 0) {
      this.setIdle(slot);
    }
    this.pump();
  }

  /**
   * A worker that died may have written replies the pool has not read yet: its channel closes once they
   * are read (or after {@link LAST_REPLIES_WAIT_MS}), and only then is its running job known.
   */
  private afterLastReplies(slot: Slot, then: () => void): void {
    const child = slot.child;
    if (!child.connected) return then();
    const timer = setTimeout(finish, LAST_REPLIES_WAIT_MS);
    child.once('disconnect', finish);
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      then();
    }
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.gone || this.closed) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (slot.jobs.length > 0) {
      this.stats.crashed++;
      this.failJob(slot, 'crash', `the session's worker process ${how} before the session finished (an app calling process.exit, or out of memory?); a new worker took its place`);
      this.requeue(slot);
    } else if (!slot.ready && ++this.startFailures >= START_FAILURES_ALLOWED) {
      this.broken = `session workers cannot start: ${START_FAILURES_ALLOWED} in a row ${how} before they were ready (is the package built? ${SESSION_WORKER})`;
      this.failQueued(this.broken);
      slot.gone = true;
      return;
    }
    this.replace(slot, null);
    this.pump();
  }

  /**
   * Hands queued jobs to ready workers, several per message when sessions are short: a worker gets more
   * once it holds half of {@link jobsPerWorker} or fewer, so it never runs dry while the pool has work.
   */
  private pump(): void {
    const depth = this.jobsPerWorker;
    for (const slot of this.slots) {
      if (this.queueHead >= this.queue.length) break;
      if (!slot.ready || slot.gone || !slot.child.connected || slot.jobs.length > depth >> 1) continue;
      const wasIdle = slot.jobs.length === 0;
      const jobs: RunJob['jobs'] = [];
      while (slot.jobs.length < depth && this.queueHead < this.queue.length) {
        const job = this.queue[this.queueHead++];
        slot.jobs.push(job);
        jobs.push({ id: job.id, spec: job.spec });
      }
      if (wasIdle) {
        slot.child.ref();
        slot.child.channel?.ref();
        this.startTimer(slot);
      }
      const message: RunJob = { type: 'run', jobs };
      this.stats.runMessages++;
      this.stats.jobsSent += jobs.length;
      slot.child.send(message);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
  }

  /** The limit of the slot's running job (its first): started when the worker starts it, or reports the one before. */
  private startTimer(slot: Slot): void {
    const job = slot.jobs[0];
    slot.timer = job ? setTimeout(() => this.onTimeout(slot), job.limitSeconds * 1000) : null;
  }

  private onTimeout(slot: Slot): void {
    const job = slot.jobs[0];
    if (!job) return;
    this.stats.timedOut++;
    this.failJob(slot, 'timeout', `the session did not finish within its ${job.limitSeconds} s time limit (an app or actor that never returns?); its worker was stopped`);
    this.requeue(slot);
    this.replace(slot, 'SIGKILL');
    this.pump();
  }

  /** Ends the slot's running job and starts the next one's clock. */
  private finishJob(slot: Slot, run: PooledRun): void {
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.jobs.shift()!;
    this.startTimer(slot);
    job.resolve(run);
  }

  private failJob(slot: Slot, kind: JobFailureKind, message: string): void {
    this.finishJob(slot, { result: erroredResult(slot.jobs[0].spec, new Error(message), kind), seconds: 0 });
  }

  /** The slot's jobs that never started go back to the front of the queue, in order. */
  private requeue(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (slot.jobs.length === 0) return;
    this.queue.splice(this.queueHead, 0, ...slot.jobs);
    slot.jobs = [];
  }

  private failQueued(message: string): void {
    while (this.queueHead < this.queue.length) {
      const job = this.queue[this.queueHead++];
      job.resolve({ result: erroredResult(job.spec, new Error(message), 'crash'), seconds: 0 });
    }
  }

  /** An idle worker does not keep the process alive: a harness that forgets to close the pool still exits. */
  private setIdle(slot: Slot): void {
    slot.child.unref();
    slot.child.channel?.unref();
  }

  /** Stops a slot's worker (when `signal` is set) and starts a fresh one in its place. */
  private replace(slot: Slot, signal: NodeJS.Signals | null): void {
    if (signal) void this.stop(slot, signal, 'its worker was replaced');
    slot.gone = true;
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed && !this.broken) this.slots[index] = this.spawn();
  }

  private stop(slot: Slot, signal: NodeJS.Signals, reason: string): Promise<void> {
    slot.gone = true;
    while (slot.jobs.length > 0) this.failJob(slot, 'crash', reason);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const child = slot.child;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.ref(); // an idle worker is unreferenced: its exit must still keep the process waiting for it
      child.kill(signal);
    });
  }
}
