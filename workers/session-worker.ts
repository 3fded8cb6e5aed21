/**
 * Session worker process: runs one whole session per job, in the order its pool (`src/session/pool.ts`,
 * which forks it with the options in `WORKER_EXEC_ARGV`) sent them. Rapier is initialised once, before the
 * first job, and the process stays warm. Each session gets fresh instances of its app's and actors'
 * modules; after each one the process is checked (`ProcessHygiene`) and, if the session changed it, the
 * worker retires. Short sessions are answered several at a time; each job is marked as started in the run
 * marker first, so the pool can tell which one was running if the worker hangs or dies.
 * The protocol is in `src/session/worker-protocol.ts`.
 */
import { Worker } from 'node:worker_threads';
import { freshModuleCount, useFreshModules } from '../src/app/fresh-modules.js';
import { initPhysics } from '../src/physics/world.js';
import { ProcessHygiene } from '../src/session/hygiene.js';
import { sharedChromium } from '../src/browser/chromium.js';
import { usesBrowser } from '../src/session/browser-spec.js';
import { runJudgedSession } from '../src/judge/session.js';
import { REPLY_AFTER_SECONDS, WORKER_RSS_LIMIT_MB, type JobDone, type PoolMessage, type RunJob, type WorkerMessage } from '../src/session/worker-protocol.js';
import { runMarkerWriter } from '../src/session/run-marker.js';
import type { SessionSpec } from '../src/session/spec.js';

if (!process.send) {
  process.stderr.write('session-worker: start me with child_process.fork (I take jobs over IPC)\n');
  process.exit(2);
}
// Captured before any session: a session may replace globals, and the worker must still report on it.
const send = process.send!.bind(process) as (message: WorkerMessage, callback?: (error: Error | null) => void) => boolean;
const now = performance.now.bind(performance);
const residentBytes = process.memoryUsage.rss.bind(process.memoryUsage);
const cpuUsage = process.cpuUsage.bind(process);
const SafePromise = Promise;
const stringify = JSON.stringify;
const { isArray } = Array;
const { getPrototypeOf, prototype: ObjectPrototype, create: createObject } = Object;
const isFinite = Number.isFinite;
/** Marks a job as started (null without a marker: then every job is answered before the next starts). */
const markStarted = runMarkerWriter(process.argv);

// A worker lives as long as its pool: when the pool's process goes away, so does the worker.
process.on('disconnect', () => process.exit(0));
watchForOrphaning();
useFreshModules();
await initPhysics();
let retiring = false;
/** Jobs sent and not yet started, oldest first (the pool sends a few at a time when sessions are short). */
const queued: RunJob['jobs'] = [];
let queuedHead = 0;
let running = false;
/** {@link browserApp}'s answers for the jobs of the latest message. */
let browserTasks: Record<string, boolean> = createObject(null);
process.on('message', (message: PoolMessage) => {
  if (message?.type !== 'run' || retiring) return;
  // Index writes and a counted loop: this can run while a session that replaced Array methods awaits.
  for (let i = 0; i < message.jobs.length; i++) queued[queued.length] = message.jobs[i];
  browserTasks = createObject(null); // plain property writes: no Map method a session could have replaced
  if (!running) void runQueued();
});
send({ type: 'ready' });
/** Captured when the first job arrives, once the IPC channel has set itself up: how a fresh worker looks. */
let hygiene: ProcessHygiene | null = null;
/** When resident memory was last read, and what it was: reading it costs a file read, far more than a tiny session. */
let rssReadAt = -Infinity;
let rssMb = 0;
const RSS_READ_EVERY_MS = 100;

/**
 * Runs the queued jobs one after another. Finished jobs are answered together: when the queue is empty, the
 * worker retires, or they took {@link REPLY_AFTER_SECONDS} (half of what the pool lets a worker hold, so the
 * pool refills the queue before it runs dry; a long session is answered as soon as it ends).
 */
async function runQueued(): Promise<void> {
  running = true;
  let unanswered: JobDone[] = [];
  let unansweredSeconds = 0;
  while (queuedHead < queued.length && !retiring) {
    const job = queued[queuedHead++];
    if (queuedHead === queued.length) {
      queued.length = 0;
      queuedHead = 0;
    }
    markStarted?.(job.id);
    const done = await runJob(job.id, job.spec);
    if (done.retire) retiring = true;
    unanswered[unanswered.length] = done;
    unansweredSeconds += done.seconds;
    if (retiring || !markStarted || queuedHead === queued.length || unansweredSeconds >= REPLY_AFTER_SECONDS) {
      const message: WorkerMessage = { type: 'done', jobs: unanswered };
      unanswered = [];
      unansweredSeconds = 0;
      // Written to the channel before the next session starts: answers the pool has are never run again.
      await new SafePromise<void>((resolve) => send(message, () => resolve()));
    }
  }
  running = false;
}

async function runJob(id: number, spec: SessionSpec): Promise<JobDone> {
  hygiene ??= ProcessHygiene.capture();
  const usedBrowser = browserApp(spec);
  if (usedBrowser) await warmBrowser(hygiene);
  hygiene.beginSession();
  const modulesBefore = freshModuleCount();
  const start = now(); // harness time, outside the session
  const cpuStart = cpuUsage();
  const replacements = sharedChromium().replacements;
  const result = await runJudgedSession(spec);
  // A page that stopped answering took the warm browser down: the worker starts the next one now, so the
  // process is back in the state its hygiene knows (a browser's pipes and listeners), not the session.
  if (sharedChromium().replacements !== replacements) await sharedChromium().browser().catch(() => undefined);
  const end = now();
  const seconds = (end - start) / 1000;
  const cpu = cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  let retire: string | null;
  try {
    retire = await hygiene.endSession(freshModuleCount() !== modulesBefore, usedBrowser);
  } catch (err) {
    retire = `the process could not be checked after the session (${String(err)})`;
  }
  // A long session reads its memory every time; short ones every RSS_READ_EVERY_MS (a burst of sessions
  // that each grow the heap still crosses the limit a few sessions later at most).
  if (end - rssReadAt >= RSS_READ_EVERY_MS || seconds * 1000 >= RSS_READ_EVERY_MS) {
    rssMb = residentBytes() / 2 ** 20;
    rssReadAt = now();
  }
  if (!retire && rssMb > WORKER_RSS_LIMIT_MB) retire = `the worker's resident memory reached ${rssMb.toFixed(0)} MiB`;
  // Plain JSON travels as text (a third of the structured clone's cost); NaN, infinities and undefined need the clone.
  return isPlainJson(result, 0) ? { id, resultJson: stringify(result), seconds, cpuSeconds, rssMb, retire } : { id, result, seconds, cpuSeconds, rssMb, retire };
}

/**
 * Whether a session runs a browser app, by task and app, for the jobs of the latest message: the task is
 * read once per message rather than before every short session (the session reads it again anyway).
 */
function browserApp(spec: SessionSpec): boolean {
  if (typeof spec.task !== 'string') return usesBrowser(spec);
  const key = `${spec.task}\0${spec.app ?? ''}`;
  return (browserTasks[key] ??= usesBrowser(spec));
}

/** True when JSON text carries `value` exactly: finite numbers, strings, booleans, null, plain objects and arrays, no undefined. */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return isFinite(value);
  if (typeof value !== 'object' || depth > 64) return false;
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false;
    return true;
  }
  if (getPrototypeOf(value) !== ObjectPrototype) return false;
  for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/**
 * One Chromium per worker, kept warm across sessions (each gets a fresh context). It is launched here,
 * between sessions, never by a session: its resources and playwright-core's globals are the worker's, so
 * the hygiene takes them into its clean state. A launch that fails is left to the session to report.
 */
async function warmBrowser(hygiene: ProcessHygiene): Promise<void> {
  const chromium = sharedChromium();
  const launches = chromium.launches;
  await chromium.browser().catch(() => undefined);
  if (chromium.launches !== launches) hygiene.rebase();
}

/**
 * A killed pool (SIGKILL) cannot stop its workers, and a worker stuck in an app's endless loop never reads
 * the closed channel. A small watchdog thread notices the parent is gone and ends the process.
 */
function watchForOrphaning(): void {
  const watchdog = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData.parent) process.kill(process.pid, 'SIGKILL'); }, 1000);`,
    { eval: true, workerData: { parent: process.ppid }, resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 } },
  );
  watchdog.unref();
}
