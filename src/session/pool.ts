/**
 * A warm pool of session worker processes: one Rapier initialisation per worker, one whole session per job,
 * each with a wall-clock limit. When sessions are short a worker holds a few jobs at a time (sent in one
 * message) and answers them a few at a time, so neither waits for the other between them; the worker's
 * run marker (`run-marker.ts`) names the job it is running, so a job whose answer was lost or that never
 * started when its worker died or retired goes to the next worker. The only pool in xrsim: sweeps,
 * flakiness studies, sweep verification and isolated runs all use it. A session past its limit is `errored` (timeout) and its worker is killed and
 * replaced; a worker that dies is replaced and its session is `errored` (crash); a worker whose session left
 * the process changed retires and is replaced before its next job. The limit is harness time, never
 * simulation time: it cannot change a session's result.
 *
 * Workers are processes, not threads, so a session cannot reach the pool's memory or process state, its
 * memory is returned when the worker goes, and the coordinator's own footprint stays small.
 */
import { checkBatchSeconds, checkTimeLimit, MAX_JOBS_PER_WORKER, resolveWorkerCount, TextRun, type PooledRun, type SessionExecutor, type SessionPoolOptions } from './executor.js';
import { erroredResult, type SessionResult } from './result.js';
import type { SessionSpec } from './spec.js';
import { resolveWorkerHeapMb, resolveWorkerV8Flags, WORKER_HEAP_MB_ENV } from './worker-flags.js';
import { afterLastOutput, SESSION_WORKER, startWorkerProcess, type WorkerProcess } from './worker-process.js';
import { isJobDone, isWorkerMessage, type JobDone, type JobFailureKind, type RunJob, type WorkerMessage } from './worker-protocol.js';

export { SESSION_WORKER } from './worker-process.js';

/** Consecutive workers that exit before they are ready, after which the pool gives up. */
const START_FAILURES_ALLOWED = 3;

export { checkTimeLimit, DEFAULT_BATCH_SECONDS, DEFAULT_TIME_LIMIT, MAX_JOBS_PER_WORKER, MAX_WORKERS_PER_CORE, resolveWorkerCount, type PooledRun, type SessionExecutor, type SessionPoolOptions, type WorkerCount } from './executor.js';

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

/**
 * One worker process and the jobs sent to it and not answered yet, in order: finished ones whose answers
 * are on their way, the running one (its marker says which), and those waiting in the worker.
 */
interface Slot extends WorkerProcess {
  ready: boolean;
  jobs: Job[];
  /** Since when (wall-clock ms, `Date` epoch) the first of `jobs` is the oldest unanswered: the deadline of a job the marker does not name yet. */
  headSince: number;
  /**
   * Fires at the earliest deadline any of `jobs` can have (`timerAt`); it reads the marker and waits again
   * if the running job's own deadline is later.
   */
  timer: NodeJS.Timeout | null;
  timerAt: number;
  /** Set once the slot is being replaced: its process's late events are ignored. */
  gone: boolean;
}

/** Weight of the newest session in the running mean of session seconds. */
const MEAN_WEIGHT = 0.2;
/** The longest delay a Node timer takes; a longer time limit is waited for in several steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A pool of session workers. Create it with {@link createSessionPool}; {@link close} it when done. */
export class SessionPool implements SessionExecutor {
  readonly concurrency: number;
  /** The extra Node and V8 flags its workers start with, besides `WORKER_EXEC_ARGV` (see `worker-flags.ts`). */
  readonly workerV8Flags: readonly string[];
  /** Each worker's JavaScript heap limit, MB. */
  readonly heapLimitMb: number;
  /**
   * What happened to workers so far, why the last one that retired did, and the most memory a worker held;
   * `runMessages` and `jobsSent` count what went to the workers, `replies` the answers that came back
   * (several jobs per message each way when sessions are short).
   */
  readonly stats = { started: 0, retired: 0, crashed: 0, timedOut: 0, lastRetireReason: null as string | null, peakWorkerRssMb: 0, runMessages: 0, jobsSent: 0, replies: 0 };
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private queueHead = 0;
  private nextId = 1;
  private startFailures = 0;
  private closed = false;
  private pumpScheduled = false;
  private broken: string | null = null;
  private readonly timeLimit: number;
  /** Seconds of work a worker may hold ({@link SessionPoolOptions.batchSeconds}). */
  private readonly batchSeconds: number;
  /** Running mean of the seconds sessions took in their workers, CPU or wall, whichever is larger (null before the first). */
  private meanSeconds: number | null = null;

  constructor(options: SessionPoolOptions = {}) {
    this.concurrency = resolveWorkerCount(options.workers).workers;
    this.timeLimit = checkTimeLimit(options.timeLimitSeconds);
    this.batchSeconds = checkBatchSeconds(options.batchSeconds);
    this.workerV8Flags = resolveWorkerV8Flags(options.workerV8Flags);
    this.heapLimitMb = resolveWorkerHeapMb(options.workerHeapMb);
    for (let i = 0; i < this.concurrency; i++) this.slots.push(this.spawn());
  }

  /**
   * Jobs each worker holds at a time now: one until a session has finished, then as many as make
   * `batchSeconds` of work at the mean session time, from 1 to {@link MAX_JOBS_PER_WORKER}.
   */
  get jobsPerWorker(): number {
    if (this.meanSeconds === null) return 1;
    return Math.max(1, Math.min(MAX_JOBS_PER_WORKER, Math.floor(this.batchSeconds / Math.max(this.meanSeconds, 1e-6))));
  }

  /** Process ids of the workers now (to watch their CPU time or memory from outside). */
  get workerPids(): number[] {
    return this.slots.flatMap((slot) => (slot.child.pid === undefined ? [] : [slot.child.pid]));
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
      this.schedulePump();
    });
  }

  /**
   * Pumps once the caller's synchronous run of `run()` calls is over: jobs queued together then go out
   * together. Pumping on each call sent the first jobs of a burst one per message (a worker's share of a
   * queue of one job is one job), up to half a worker's batch of them.
   */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
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
    const slot: Slot = { ...startWorkerProcess(this.heapLimitMb, this.workerV8Flags), ready: false, jobs: [], headSince: 0, timer: null, timerAt: Infinity, gone: false };
    const { child } = slot;
    this.stats.started++;
    child.on('message', (message: unknown) => {
      if (!slot.gone && isWorkerMessage(message)) this.onMessage(slot, message);
    });
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      this.onExit(slot, code, signal);
      slot.marker?.close();
    };
    child.on('exit', (code, signal) => afterLastOutput(slot, () => exited(code, signal)));
    child.on('error', () => afterLastOutput(slot, () => exited(null, null)));
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
    this.stats.replies++;
    for (const done of message.jobs) {
      if (!isJobDone(done) || slot.jobs[0]?.id !== done.id) continue;
      this.finishJob(slot, done);
      if (done.retire) {
        // A retiring worker runs nothing more: its queued jobs go to the fresh worker.
        this.stats.retired++;
        this.stats.lastRetireReason = done.retire;
        this.requeue(slot);
        this.replace(slot, 'SIGTERM');
        break;
      }
    }
    slot.headSince = Date.now(); // xrsim-allow-clock: the pool's time limits, outside any session
    if (!slot.gone && slot.jobs.length === 0) {
      this.clearTimer(slot);
      this.setIdle(slot);
    }
    this.pump();
  }

  /** Hands a finished job's result on (the oldest of the slot's jobs). */
  private finishJob(slot: Slot, done: JobDone): void {
    this.stats.peakWorkerRssMb = Math.max(this.stats.peakWorkerRssMb, done.rssMb);
    // The larger of CPU and wall time: a browser app's session spends its time in Chromium, not in the
    // worker's CPU, and judging it by CPU alone would commit many long sessions to one worker.
    const cost = Math.max(done.seconds, typeof done.cpuSeconds === 'number' ? done.cpuSeconds : 0);
    this.meanSeconds = this.meanSeconds === null ? cost : this.meanSeconds + MEAN_WEIGHT * (cost - this.meanSeconds);
    const job = slot.jobs.shift()!;
    job.resolve(done.result ? { result: done.result, seconds: done.seconds } : new TextRun(done.resultJson!, done.seconds));
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.gone || this.closed) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (slot.jobs.length > 0 && slot.stderr.outOfMemory) {
      this.stats.crashed++;
      this.failJob(slot, this.running(slot).index, 'out-of-memory', `out of memory: the session's worker reached its heap limit of ${this.heapLimitMb} MB (an app that allocates without end?) and was replaced; a larger limit: workerHeapMb, --worker-heap-mb or ${WORKER_HEAP_MB_ENV}`);
      this.requeue(slot);
    } else if (slot.jobs.length > 0) {
      this.stats.crashed++;
      this.failJob(slot, this.running(slot).index, 'crash', `the session's worker process ${how} before the session finished (an app calling process.exit, or out of memory?); a new worker took its place`);
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
    // When the queue drains at the end of a run, no worker takes more than its share of the jobs left
    // (queued and held): else one works through a long batch while the others wait idle.
    let workers = 0;
    let outstanding = this.queue.length - this.queueHead;
    for (const slot of this.slots) {
      if (!slot.ready || slot.gone) continue;
      workers++;
      outstanding += slot.jobs.length;
    }
    const most = Math.min(depth, Math.max(1, Math.ceil(outstanding / Math.max(1, workers))));
    for (const slot of this.slots) {
      if (this.queueHead >= this.queue.length) break;
      if (!slot.ready || slot.gone || !slot.child.connected || slot.jobs.length > depth >> 1 || slot.jobs.length >= most) continue;
      const now = Date.now(); // xrsim-allow-clock
      if (slot.jobs.length === 0) {
        slot.child.ref();
        slot.child.channel?.ref();
        slot.headSince = now;
      }
      const jobs: RunJob['jobs'] = [];
      let shortestLimit = Infinity;
      while (slot.jobs.length < most && this.queueHead < this.queue.length) {
        const job = this.queue[this.queueHead++];
        slot.jobs.push(job);
        jobs.push({ id: job.id, spec: job.spec });
        shortestLimit = Math.min(shortestLimit, job.limitSeconds * 1000);
      }
      // None of these jobs can run out of time before now + its limit.
      if (now + shortestLimit < slot.timerAt) this.armTimer(slot, now + shortestLimit);
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

  /**
   * The job the slot's worker is running, by its marker, and when that job's limit runs out. A job the
   * marker does not name has not started yet (or the worker has no marker): the oldest unanswered one,
   * counted from when it became the oldest.
   */
  private running(slot: Slot): { index: number; deadline: number } {
    const mark = slot.marker?.read();
    const index = mark ? slot.jobs.findIndex((job) => job.id === mark.id) : -1;
    if (index < 0 || !Number.isFinite(mark!.startedAt)) return { index: 0, deadline: slot.headSince + job0Limit(slot) };
    return { index, deadline: mark!.startedAt + slot.jobs[index].limitSeconds * 1000 };
  }

  private armTimer(slot: Slot, at: number): void {
    this.clearTimer(slot);
    slot.timerAt = at;
    slot.timer = setTimeout(() => this.onDeadline(slot), Math.min(LONGEST_TIMER_MS, Math.max(0, at - Date.now()))); // xrsim-allow-clock
  }

  private clearTimer(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.timerAt = Infinity;
  }

  /**
   * The earliest deadline a job of the slot could have has passed: time the running job out if its own
   * has, or wait until the earliest of its deadline and those of the jobs after it (not started yet).
   */
  private onDeadline(slot: Slot): void {
    slot.timer = null;
    slot.timerAt = Infinity;
    if (slot.gone || slot.jobs.length === 0) return;
    const { index, deadline } = this.running(slot);
    const now = Date.now(); // xrsim-allow-clock
    if (now < deadline) {
      let next = deadline;
      for (let i = index + 1; i < slot.jobs.length; i++) next = Math.min(next, now + slot.jobs[i].limitSeconds * 1000);
      return this.armTimer(slot, next);
    }
    const job = slot.jobs[index];
    this.stats.timedOut++;
    this.failJob(slot, index, 'timeout', `the session did not finish within its ${job.limitSeconds} s time limit (an app or actor that never returns?); its worker was stopped`);
    this.requeue(slot);
    this.replace(slot, 'SIGKILL');
    this.pump();
  }

  /** Ends one of the slot's jobs as `errored`. */
  private failJob(slot: Slot, index: number, kind: JobFailureKind, message: string): void {
    const [job] = slot.jobs.splice(index, 1);
    job.resolve({ result: erroredResult(job.spec, new Error(message), kind), seconds: 0 });
  }

  /** The slot's unanswered jobs (never started, or their answers lost with the worker) go back to the front of the queue, in order. */
  private requeue(slot: Slot): void {
    this.clearTimer(slot);
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
    while (slot.jobs.length > 0) this.failJob(slot, 0, 'crash', reason);
    this.clearTimer(slot);
    const child = slot.child;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.ref(); // an idle worker is unreferenced: its exit must still keep the process waiting for it
      child.kill(signal);
    });
  }
}

/** The time limit of the slot's oldest unanswered job, milliseconds. */
function job0Limit(slot: Slot): number {
  return slot.jobs[0].limitSeconds * 1000;
}
