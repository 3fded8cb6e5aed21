/**
 * Starting one session worker process for the pool, and knowing when everything it wrote has been read.
 * A worker runs with the options every worker needs, a heap limit (so an app that allocates without end
 * stops at a stated size instead of taking the machine's memory), the pool's extra V8 flags (after the
 * limit, so that a `--max-old-space-size` of the user's wins), its run marker as fd 4, and its stderr
 * filtered (`worker-stderr.ts`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import { RUN_MARKER_ARG, RunMarker } from './run-marker.js';
import { WorkerStderr } from './worker-stderr.js';
import { WORKER_EXEC_ARGV } from './worker-protocol.js';

/** The compiled worker entry (tests and the CLI both run from a built package). */
export const SESSION_WORKER = join(PACKAGE_ROOT, 'dist/workers/session-worker.js');

/** How long a dead worker's last replies and stderr may take to arrive before its running job is judged. */
const LAST_OUTPUT_WAIT_MS = 1000;

/** A started worker process. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Null when no marker file could be made: the worker then answers each job before it starts the next. */
  marker: RunMarker | null;
  stderr: WorkerStderr;
}

/** Starts a worker with a heap limit of `heapLimitMb` and the extra `v8Flags`. */
export function startWorkerProcess(heapLimitMb: number, v8Flags: readonly string[]): WorkerProcess {
  const marker = RunMarker.create();
  const child = fork(SESSION_WORKER, marker ? [`${RUN_MARKER_ARG}4`] : [], {
    execArgv: [...WORKER_EXEC_ARGV, `--max-old-space-size=${heapLimitMb}`, ...v8Flags],
    serialization: 'advanced',
    // An app's console output goes to stderr: stdout carries the CLI's results (--json). The marker is fd 4.
    stdio: marker ? ['ignore', 2, 'pipe', 'ipc', marker.fd] : ['ignore', 2, 'pipe', 'ipc'],
  });
  return { child, marker, stderr: new WorkerStderr(child.stderr!) };
}

/**
 * Calls `then` once a worker that died has had its replies read (its channel closes) and its stderr
 * drained, or after {@link LAST_OUTPUT_WAIT_MS}: only then is its running job known, and why it died.
 */
export function afterLastOutput(worker: WorkerProcess, then: () => void): void {
  const { child } = worker;
  const replies = child.connected ? new Promise<void>((resolve) => child.once('disconnect', () => resolve())) : Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, LAST_OUTPUT_WAIT_MS)));
  void Promise.race([Promise.all([replies, worker.stderr.ended]), waited]).then(() => {
    clearTimeout(timer);
    then();
  });
}
