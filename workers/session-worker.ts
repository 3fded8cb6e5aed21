/**
 * Session worker process: runs one whole session per job, for a pool (`src/session/pool.ts`) that forks it
 * with the options in `WORKER_EXEC_ARGV`. Rapier is initialised once, before the first job, and the process
 * stays warm. Each session gets fresh instances of its app's and actors' modules; after each one the
 * process is checked (`ProcessHygiene`) and, if the session changed it, the worker retires.
 * The protocol is in `src/session/worker-protocol.ts`.
 */
import { Worker } from 'node:worker_threads';
import { freshModuleCount, useFreshModules } from '../src/app/fresh-modules.js';
import { initPhysics } from '../src/physics/world.js';
import { ProcessHygiene } from '../src/session/hygiene.js';
import { sharedChromium } from '../src/browser/chromium.js';
import { usesBrowser } from '../src/session/browser-spec.js';
import { runJudgedSession } from '../src/judge/session.js';
import { WORKER_RSS_LIMIT_MB, type JobDone, type PoolMessage, type WorkerMessage } from '../src/session/worker-protocol.js';

if (!process.send) {
  process.stderr.write('session-worker: start me with child_process.fork (I take jobs over IPC)\n');
  process.exit(2);
}
// Captured before any session: a session may replace globals, and the worker must still report on it.
const send = process.send!.bind(process) as (message: WorkerMessage) => boolean;
const now = performance.now.bind(performance);
const residentBytes = process.memoryUsage.rss.bind(process.memoryUsage);

// A worker lives as long as its pool: when the pool's process goes away, so does the worker.
process.on('disconnect', () => process.exit(0));
watchForOrphaning();
useFreshModules();
await initPhysics();
let retiring = false;
process.on('message', (message: PoolMessage) => {
  if (message?.type === 'run' && !retiring) void runJob(message.id, message.spec);
});
send({ type: 'ready' });
/** Captured when the first job arrives, once the IPC channel has set itself up: how a fresh worker looks. */
let hygiene: ProcessHygiene | null = null;

async function runJob(id: number, spec: PoolMessage['spec']): Promise<void> {
  hygiene ??= ProcessHygiene.capture();
  if (usesBrowser(spec)) await warmBrowser(hygiene);
  hygiene.beginSession();
  const modulesBefore = freshModuleCount();
  const start = now(); // harness time, outside the session
  const replacements = sharedChromium().replacements;
  const result = await runJudgedSession(spec);
  // A page that stopped answering took the warm browser down: the worker starts the next one now, so the
  // process is back in the state its hygiene knows (a browser's pipes and listeners), not the session.
  if (sharedChromium().replacements !== replacements) await sharedChromium().browser().catch(() => undefined);
  const seconds = (now() - start) / 1000;
  let retire: string | null;
  try {
    retire = await hygiene.endSession(freshModuleCount() !== modulesBefore);
  } catch (err) {
    retire = `the process could not be checked after the session (${String(err)})`;
  }
  const rssMb = residentBytes() / 2 ** 20;
  if (!retire && rssMb > WORKER_RSS_LIMIT_MB) retire = `the worker's resident memory reached ${rssMb.toFixed(0)} MiB`;
  const done: JobDone = { type: 'done', id, result, seconds, rssMb, retire };
  if (retire) retiring = true;
  send(done);
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
