/**
 * Running one session in its own worker process with a wall-clock time limit: the only way to stop an app
 * stuck in an infinite loop (JavaScript cannot be interrupted from its own thread), and a session that
 * starts from a fresh process whatever ran before it.
 */
import { createSessionPool, DEFAULT_TIME_LIMIT } from './pool.js';
import type { SessionResult } from './result.js';
import type { SessionSpec } from './spec.js';

export { DEFAULT_TIME_LIMIT, SESSION_WORKER } from './pool.js';

/** Runs one session in a worker process of its own, with a time limit (default {@link DEFAULT_TIME_LIMIT} s) and a heap limit (`workerHeapMb`, as a pool's). */
export async function runSessionIsolated(spec: SessionSpec, options: { timeLimitSeconds?: number; workerHeapMb?: number } = {}): Promise<SessionResult> {
  const pool = createSessionPool({ workers: 1, timeLimitSeconds: options.timeLimitSeconds, workerHeapMb: options.workerHeapMb });
  try {
    return (await pool.run(spec)).result;
  } finally {
    await pool.close();
  }
}
