/**
 * The coordinator's side of a queue sweep: an {@link EntryRunner} for `runSweep` that enqueues each session
 * as a BullMQ job and resolves with the result line a worker returns. The sweep's matrix expansion,
 * `results.jsonl`, resume, progress and summaries are the local sweep's own; only the runner differs.
 *
 * - The job id is the session's key (behind `s-`), so a session is in the queue once, whoever adds it: a second add of a
 *   job still waiting, running or finished is a no-op (BullMQ's `duplicated` event), and its result is
 *   collected from Redis.
 * - At most `window` jobs of this coordinator are in Redis at once (`runSweep` pulls the matrix lazily).
 *   A job is removed once its line is in `results.jsonl`, so a restarted coordinator collects the jobs that
 *   finished while it was down and nothing is lost or counted twice.
 * - A job that crashed its session worker is tried `attempts` times (exponential backoff); then it is an
 *   `errored` line carrying every attempt's reason.
 * - Results arrive as `completed` events; a check every few seconds catches any event the coordinator
 *   missed (a stream trimmed while it lagged, a reconnection).
 */
import type { Job, Queue, QueueEvents } from 'bullmq';
import { QueueUnavailableError, XrsimInputError } from '../errors.js';
import type { SweepEntry } from '../sweep/matrix.js';
import type { SweepResultLine } from '../sweep/results.js';
import type { EntryRunner, RunLine } from '../sweep/entry-runner.js';
import { checkReconnectSeconds, probeRedis, redisOptions, scrub } from './connection.js';
import { checkReturnedLine, DEFAULT_QUEUE_NAME, erroredLine, jobIdOf, keyOfJobId, SESSION_JOB_NAME, sessionJob, type SessionJob } from './payload.js';
import { parseQueueUrl, type QueueTarget } from './url.js';

/** Options of a queue sweep (`runSweep({ queue })`, `xrsim sweep --queue`). */
export interface QueueSweepOptions {
  /** `redis://[USER:PASSWORD@]HOST[:PORT][/DB]`, or `rediss://…` for TLS. */
  url: string;
  /** The queue's name; workers must use the same (default `xrsim`). */
  name?: string;
  /** Jobs of this sweep in Redis at once (default {@link DEFAULT_WINDOW}): keep it above the fleet's total worker count. */
  window?: number;
  /** Tries per session when its session worker crashes, before it is `errored` (default {@link DEFAULT_ATTEMPTS}). */
  attempts?: number;
  /** Seconds before the second try; each later one waits twice as long (default 1). */
  backoffSeconds?: number;
  /** Seconds a connection lost during the run keeps trying to come back before the sweep stops (default 60). */
  reconnectSeconds?: number;
  /** Notes for the user (a worker died and its job was put back; nothing finished for a minute). */
  onNotice?(message: string): void;
}

export const DEFAULT_WINDOW = 1000;
export const DEFAULT_ATTEMPTS = 3;
/** Finished jobs nobody collected are dropped by BullMQ after this many seconds (a coordinator that never came back). */
export const UNCOLLECTED_JOB_AGE_S = 7 * 24 * 3600;
/** Every few seconds, jobs not heard of for a while are looked up in Redis in case their event was missed (a bounded batch). */
const RECONCILE_EVERY_MS = 5_000;
const RECONCILE_AFTER_MS = 15_000;
const RECONCILE_BATCH = 200;
/** The longest a close waits for BullMQ to let go of its connections. */
const CLOSE_TIMEOUT_MS = 10_000;
/** How long without any finished session before the coordinator says so. */
const QUIET_NOTICE_MS = 60_000;

/** Checks a queue name: BullMQ uses it in Redis keys. */
export function checkQueueName(name: string | undefined): string {
  const value = name ?? DEFAULT_QUEUE_NAME;
  if (typeof value !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(value)) {
    throw new XrsimInputError(`--queue-name must be 1 to 100 letters, digits, '.', '_' or '-', got ${JSON.stringify(value)}`, { expected: 'a name such as xrsim or nightly-main' });
  }
  return value;
}

function positiveInteger(option: string, value: number | undefined, fallback: number, max: number): number {
  const v = value ?? fallback;
  if (!(Number.isInteger(v) && v >= 1 && v <= max)) throw new XrsimInputError(`${option} must be an integer from 1 to ${max}, got ${v}`);
  return v;
}

/**
 * Connects to the queue (throwing {@link QueueUnavailableError} when Redis cannot be used) and returns the
 * runner a sweep enqueues its sessions through.
 */
export async function openQueueRunner(options: QueueSweepOptions, sweep: { timeLimitSeconds: number }): Promise<EntryRunner> {
  const target = parseQueueUrl(options.url);
  const name = checkQueueName(options.name);
  const window = positiveInteger('the queue window', options.window, DEFAULT_WINDOW, 1_000_000);
  const attempts = positiveInteger('the number of attempts', options.attempts, DEFAULT_ATTEMPTS, 100);
  const backoffSeconds = options.backoffSeconds ?? 1;
  if (!(Number.isFinite(backoffSeconds) && backoffSeconds >= 0)) throw new XrsimInputError(`the backoff must be a number of seconds ≥ 0, got ${backoffSeconds}`);
  const reconnectSeconds = checkReconnectSeconds(options.reconnectSeconds);
  // Events are read from the stream's last entry as of now: the XREAD loop starts a little later, and the
  // first `duplicated` events (a restarted sweep's finished jobs) must not fall in between.
  const eventsKey = `bull:${name}:events`;
  const lastEventId = await probeRedis(target, async (client) => (await client.xrevrange(eventsKey, '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-0');
  const { Queue, QueueEvents, Job } = await import('bullmq');
  let runner: QueueRunner | null = null;
  let giveUp: (err: QueueUnavailableError) => void = () => {};
  const lost = new Promise<never>((_, reject) => (giveUp = reject));
  lost.catch(() => {});
  const connection = redisOptions(target, reconnectSeconds, (tries) => {
    const err = new QueueUnavailableError(
      `lost the connection to Redis at ${target.display} and could not get it back in ${reconnectSeconds} s (${tries} tries); every result already written is kept: run the same sweep again (same --out) to resume`,
    );
    giveUp(err);
    runner?.failAll(err);
  });
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection, lastEventId });
  if (queue.keys.events !== eventsKey) throw new Error(`BullMQ's events key is ${queue.keys.events}, not ${eventsKey}`);
  // Connection trouble is reported through the reconnection policy above; BullMQ's own error events would repeat it.
  queue.on('error', () => {});
  events.on('error', () => {});
  try {
    await Promise.race([Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), lost]);
  } catch (err) {
    await Promise.allSettled([queue.disconnect(), events.disconnect()]);
    throw err;
  }
  runner = new QueueRunner({ target, queue, events, fromId: (id) => Job.fromId(queue, id), window, attempts, backoffMs: backoffSeconds * 1000, timeLimitSeconds: sweep.timeLimitSeconds, onNotice: options.onNotice });
  return runner;
}

interface Waiter {
  entry: SweepEntry;
  resolve(run: RunLine): void;
  reject(err: Error): void;
  /** When Redis was last asked about this job (ms). */
  checkedAt: number;
}

interface RunnerParts {
  target: QueueTarget;
  queue: Queue;
  events: QueueEvents;
  fromId(id: string): Promise<Job | undefined>;
  window: number;
  attempts: number;
  backoffMs: number;
  timeLimitSeconds: number;
  onNotice?(message: string): void;
}

/** The runner: one waiter per job in flight, settled by queue events or by the periodic check. */
class QueueRunner implements EntryRunner {
  readonly capacity: number;
  /** Sessions in flight, by job id. */
  private readonly waiting = new Map<string, Waiter>();
  private readonly timer: NodeJS.Timeout;
  private lastFinish = Date.now(); // xrsim-allow-clock: queue timing, outside any session
  private lastQuietNotice = 0;
  private failure: Error | null = null;
  private closed = false;

  constructor(private readonly parts: RunnerParts) {
    this.capacity = parts.window;
    const { events } = parts;
    events.on('completed', ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) => this.completed(jobId, returnvalue));
    events.on('failed', ({ jobId, failedReason }: { jobId: string; failedReason: string }) => void this.failed(jobId, failedReason));
    events.on('duplicated', ({ jobId }: { jobId: string }) => void this.check(jobId));
    events.on('stalled', ({ jobId }: { jobId: string }) => {
      if (this.waiting.has(jobId)) parts.onNotice?.(`session ${keyOfJobId(jobId)}: its worker stopped while running it (killed, or cut off from Redis); BullMQ's stalled-job check put it back in the queue for another worker`);
    });
    this.timer = setInterval(() => void this.reconcile(), RECONCILE_EVERY_MS);
    this.timer.unref();
  }

  run(entry: SweepEntry): Promise<RunLine> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.waiting.set(jobIdOf(entry.key), { entry, resolve, reject, checkedAt: Date.now() }); // xrsim-allow-clock: queue timing, outside any session
      this.add(entry);
    });
  }

  written(line: SweepResultLine): void {
    // The line is safe in results.jsonl: the job can go. A failed removal leaves it to BullMQ's age limit.
    if (!this.failure) this.parts.queue.remove(jobIdOf(line.key)).catch(() => {});
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.failAll(new Error('the queue sweep was closed'));
    const { queue, events } = this.parts;
    // After a lost connection BullMQ's close returns at once (disconnect() would wait forever); bound it anyway.
    const bound = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref());
    await Promise.race([Promise.allSettled([events.close(), queue.close()]), bound]);
  }

  /** Rejects every session in flight (Redis is gone): `runSweep` stops and keeps what it wrote. */
  failAll(err: Error): void {
    this.failure ??= err;
    for (const waiter of this.waiting.values()) waiter.reject(this.failure);
    this.waiting.clear();
  }

  private add(entry: SweepEntry): void {
    const data: SessionJob = sessionJob(entry, this.parts.timeLimitSeconds);
    const age = { age: UNCOLLECTED_JOB_AGE_S };
    this.parts.queue
      .add(SESSION_JOB_NAME, data, { jobId: jobIdOf(entry.key), attempts: this.parts.attempts, backoff: { type: 'exponential', delay: this.parts.backoffMs }, removeOnComplete: age, removeOnFail: age })
      .catch((err: unknown) => this.failAll(this.unavailable(err, `could not enqueue session ${entry.key}`)));
  }

  private settle(jobId: string, line: SweepResultLine): void {
    const waiter = this.waiting.get(jobId);
    if (!waiter) return;
    this.waiting.delete(jobId);
    this.lastFinish = Date.now(); // xrsim-allow-clock: queue timing, outside any session
    waiter.resolve({ line, text: null });
  }

  private completed(jobId: string, returnvalue: unknown): void {
    const waiter = this.waiting.get(jobId);
    if (!waiter) return;
    const key = waiter.entry.key;
    const line = checkReturnedLine(returnvalue, key)
      ? returnvalue
      : erroredLine(key, waiter.entry.spec, 'the worker returned something that is not a result line (is another program using this queue?)', 'crash');
    this.settle(jobId, line);
  }

  /** A job out of attempts: an `errored` line with every attempt's reason (read from the job's stack traces). */
  private async failed(jobId: string, failedReason: string | undefined, known?: Job): Promise<void> {
    const waiter = this.waiting.get(jobId);
    if (!waiter) return;
    let job = known;
    try {
      job ??= await this.parts.fromId(jobId);
    } catch {
      job = undefined;
    }
    const reasons = (job?.stacktrace ?? []).filter((s) => typeof s === 'string' && s !== '');
    const stalled = /stalled more than allowable limit/.test(failedReason ?? '');
    const lines = reasons.map((reason, i) => `attempt ${i + 1}: ${reason}`);
    if (stalled) lines.push('then its worker process stopped while running it (killed, out of memory, or cut off from Redis) more often than the workers allow');
    const message = `the session failed on the queue's workers after ${lines.length || 1} attempt${lines.length === 1 ? '' : 's'}: ${lines.join('; ') || failedReason || 'no reason recorded'}`;
    this.settle(jobId, erroredLine(waiter.entry.key, waiter.entry.spec, scrub(message, this.parts.target), 'crash'));
  }

  /** Looks a job up in Redis: collects it when finished, adds it again when it vanished. */
  private async check(jobId: string): Promise<void> {
    const waiter = this.waiting.get(jobId);
    if (!waiter) return;
    waiter.checkedAt = Date.now(); // xrsim-allow-clock: queue timing, outside any session
    let job: Job | undefined;
    try {
      job = await this.parts.fromId(jobId);
    } catch {
      return; // a connection problem: the reconnection policy reports it, the next check retries
    }
    if (!this.waiting.has(jobId)) return;
    if (!job) return this.add(waiter.entry); // removed by someone else before we saw its result: run it again
    if (!job.finishedOn) return; // waiting, running or waiting to retry
    // A worker always returns a line, so a finished job without one failed (a failed earlier attempt leaves a failedReason on completed jobs too).
    if (job.returnvalue != null) return this.completed(jobId, job.returnvalue);
    return this.failed(jobId, job.failedReason, job);
  }

  /** The safety net for missed events; also says when nothing has finished for a while. */
  private async reconcile(): Promise<void> {
    const now = Date.now(); // xrsim-allow-clock: queue timing, outside any session
    const due: string[] = [];
    for (const [jobId, waiter] of this.waiting) {
      if (due.length >= RECONCILE_BATCH) break;
      if (now - waiter.checkedAt >= RECONCILE_AFTER_MS) due.push(jobId);
    }
    for (const jobId of due) {
      // Checked jobs go to the back of the line (Map order), so the next round starts with the others.
      const waiter = this.waiting.get(jobId)!;
      this.waiting.delete(jobId);
      this.waiting.set(jobId, waiter);
    }
    await Promise.all(due.map((jobId) => this.check(jobId)));
    if (this.waiting.size > 0 && now - this.lastFinish > QUIET_NOTICE_MS && now - this.lastQuietNotice > QUIET_NOTICE_MS) {
      this.lastQuietNotice = now;
      const counts = await this.parts.queue.getJobCounts('waiting', 'active', 'delayed').catch(() => null);
      const state = counts ? `${counts.waiting} waiting, ${counts.active} running, ${counts.delayed} waiting to retry` : 'counts unavailable';
      this.parts.onNotice?.(`no session finished in the last ${Math.round((now - this.lastFinish) / 1000)} s (queue ${this.parts.queue.name} at ${this.parts.target.display}: ${state}); are xrsim worker processes running on it?`);
    }
  }

  private unavailable(err: unknown, what: string): Error {
    if (err instanceof QueueUnavailableError) return err;
    return new QueueUnavailableError(scrub(`${what} on the queue at ${this.parts.target.display}: ${(err as Error)?.message ?? String(err)}`, this.parts.target));
  }
}
