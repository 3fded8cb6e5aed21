/**
 * Verifying a sweep folder: re-run its sessions (all, or a sample) in reverse order on a pool of their own,
 * and compare session hashes with the recorded ones. Each session is re-run from the spec its line
 * records (a suite task or a task file). A mismatch with a kept stream is located: the stream is re-run
 * frame by frame to name the first divergent tick and channel.
 */
import { existsSync } from 'node:fs';
import { XrsimInputError } from '../errors.js';
import { checkTimeLimit, createSessionPool, resolveWorkerCount, type SessionExecutor } from '../session/pool.js';
import type { SessionSpec } from '../session/spec.js';
import { verifyStream, type Divergence } from '../stream/verify.js';
import { runBounded } from './bounded.js';
import { sessionIdentity } from './compare.js';
import { resultLines, type SweepResultLine } from './results.js';

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

/** What a re-run needs of a result line. */
interface Check {
  session: string;
  spec: SessionSpec;
  hash: string;
  stream: string | null;
}

/** Options of {@link verifySweep}. */
export interface VerifySweepOptions {
  /** Sessions to re-run, spread evenly over the sweep (default: all). */
  sample?: number;
  /** Worker processes of its own pool (default: one per core). */
  workers?: number;
  /** Runs the sessions instead of a pool of its own. */
  executor?: SessionExecutor;
  timeLimitSeconds?: number;
}

/** Re-runs `sample` sessions (default all) of the sweep in `dir`, last first, and compares their hashes. */
export async function verifySweep(dir: string, options: VerifySweepOptions = {}): Promise<SweepVerifyReport> {
  if (options.sample !== undefined && !(Number.isInteger(options.sample) && options.sample >= 1)) throw new XrsimInputError(`sample must be a positive integer, got ${options.sample}`);
  const workers = options.executor ? undefined : resolveWorkerCount(options.workers).workers;
  const timeLimitSeconds = checkTimeLimit(options.timeLimitSeconds);
  // Pass 1 counts; pass 2 keeps only the sample (a deterministic spread over the sweep).
  let total = 0;
  let skipped = 0;
  for (const r of resultLines(dir)) {
    if (checkable(r)) total++;
    else skipped++;
  }
  const n = Math.min(total, options.sample ?? total);
  const chosen: Check[] = [];
  let index = 0;
  let nextPick = 0;
  for (const r of resultLines(dir)) {
    if (!checkable(r)) continue;
    if (chosen.length < n && index === Math.floor((nextPick * total) / n)) {
      chosen.push({ session: sessionIdentity(r), spec: specOf(r), hash: r.hash, stream: r.stream });
      nextPick++;
    }
    index++;
  }
  chosen.reverse();
  // A pool of its own unless the caller brings an executor (then the caller closes it).
  const ownPool = options.executor ? null : createSessionPool({ workers, timeLimitSeconds });
  const executor = options.executor ?? ownPool!;
  const mismatches: HashMismatch[] = [];
  try {
    const execute = async (check: Check) => ({ check, rerun: (await executor.run(check.spec, { timeLimitSeconds })).result.hash });
    for await (const { check, rerun } of runBounded(chosen.values(), () => executor.concurrency * 2 * (executor.jobsPerWorker ?? 1), execute)) {
      if (rerun === check.hash) continue;
      const divergence = check.stream && existsSync(check.stream) ? (await verifyStream(check.stream)).firstDivergence : null;
      mismatches.push({ session: check.session, recorded: check.hash, rerun, divergence });
    }
  } finally {
    await ownPool?.close();
  }
  mismatches.sort((a, b) => (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
  return { dir, checked: chosen.length, identical: chosen.length - mismatches.length, mismatches, skipped };
}

function checkable(r: SweepResultLine): boolean {
  return r.status !== 'errored' && r.hash !== '';
}

/** The spec a result line came from: the one it records, or (older lines) its task, app, scene, seed and hand. */
function specOf(r: SweepResultLine): SessionSpec {
  if (r.spec) return r.spec;
  return { task: r.task, ...(r.app ? { app: r.app } : {}), scene: r.scene, seed: r.seed, dominantHand: r.hand };
}
