/**
 * Verifying a sweep folder: re-run its sessions (all, or a sample) in another order and on another pool,
 * and compare session hashes with the recorded ones. A mismatch with a kept stream is located: the stream
 * is re-run frame by frame to name the first divergent tick and channel.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { XrsimInputError } from '../errors.js';
import { runOnPool, SESSION_WORKER } from '../session/isolated.js';
import type { SessionSpec } from '../session/spec.js';
import { verifyStream, type Divergence } from '../stream/verify.js';
import { sessionIdentity } from './compare.js';
import { readResults, type SweepResultLine } from './results.js';

/** One re-run that did not reproduce its hash. */
export interface HashMismatch {
  session: string;
  recorded: string;
  rerun: string;
  /** Where the runs part, when the sweep kept the session's stream. */
  divergence: Divergence | null;
}

/** What verifying a sweep found. */
export interface SweepVerifyReport {
  dir: string;
  checked: number;
  identical: number;
  mismatches: HashMismatch[];
  /** Errored sessions are re-run but have no hash to compare. */
  skipped: number;
}

/** Re-runs `sample` sessions (default all) of the sweep in `dir` in reverse order on `workers` threads. */
export async function verifySweep(dir: string, options: { sample?: number; workers?: number; timeLimitSeconds?: number } = {}): Promise<SweepVerifyReport> {
  const results = readResults(dir).filter((r) => r.status !== 'errored' && r.hash);
  const skipped = readResults(dir).length - results.length;
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 1) throw new XrsimInputError(`--workers must be a positive integer, got ${workers}`);
  // A deterministic sample spread over the sweep, re-run last first.
  const n = Math.min(results.length, options.sample ?? results.length);
  const chosen = Array.from({ length: n }, (_, i) => results[Math.floor((i * results.length) / n)]).reverse();
  const pool = new Piscina({ filename: SESSION_WORKER, minThreads: Math.min(workers, Math.max(1, n)), maxThreads: workers });
  try {
    const reruns = await Promise.all(chosen.map((r) => runOnPool(pool, specOf(r), options.timeLimitSeconds)));
    const mismatches: HashMismatch[] = [];
    for (let i = 0; i < chosen.length; i++) {
      if (reruns[i].hash === chosen[i].hash) continue;
      const stream = chosen[i].stream;
      const divergence = stream && existsSync(stream) ? (await verifyStream(stream)).firstDivergence : null;
      mismatches.push({ session: sessionIdentity(chosen[i]), recorded: chosen[i].hash, rerun: reruns[i].hash, divergence });
    }
    return { dir, checked: chosen.length, identical: chosen.length - mismatches.length, mismatches, skipped };
  } finally {
    await pool.destroy();
  }
}

/** The spec a result line came from (its task, app, scene, seed and hand). */
function specOf(r: SweepResultLine): SessionSpec {
  return { task: r.task, ...(r.app ? { app: r.app } : {}), scene: r.scene, seed: r.seed, dominantHand: r.hand };
}
