/**
 * Running sessions in worker threads with a wall-clock time limit: the only way to stop an app stuck in an
 * infinite loop (JavaScript cannot be interrupted from its own thread). A session past its limit is
 * `errored` with kind `timeout`; its worker is terminated and the pool replaces it, so the process, and a
 * sweep, go on. The limit is harness time, never simulation time: it cannot change a session's result.
 */
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { PACKAGE_ROOT } from '../paths.js';
import { erroredResult, type SessionResult } from './result.js';
import type { SessionSpec } from './spec.js';

/** The compiled worker entry (tests and the CLI both run from a built package). */
export const SESSION_WORKER = join(PACKAGE_ROOT, 'dist/workers/session-worker.js');

/** Default per-session wall-clock limit, seconds: far above any suite session (they take well under one). */
export const DEFAULT_TIME_LIMIT = 300;

/** Runs one session on `pool` with a time limit; never throws for the session's problems. */
export async function runOnPool(pool: Piscina, spec: SessionSpec, timeLimitSeconds = DEFAULT_TIME_LIMIT): Promise<SessionResult> {
  const signal = AbortSignal.timeout(timeLimitSeconds * 1000);
  try {
    return (await pool.run(spec, { signal })) as SessionResult;
  } catch (err) {
    if (signal.aborted) {
      return erroredResult(spec, new Error(`the session did not finish within its ${timeLimitSeconds} s time limit (an app or actor that never returns?); its worker was stopped`), 'timeout');
    }
    return erroredResult(spec, err, 'crash');
  }
}

/** Runs one session in its own worker thread with a time limit. */
export async function runSessionIsolated(spec: SessionSpec, options: { timeLimitSeconds?: number } = {}): Promise<SessionResult> {
  const pool = new Piscina({ filename: SESSION_WORKER, minThreads: 1, maxThreads: 1 });
  try {
    return await runOnPool(pool, spec, options.timeLimitSeconds);
  } finally {
    await pool.destroy();
  }
}
