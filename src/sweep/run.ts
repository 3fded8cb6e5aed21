/**
 * Running a sweep on a warm worker pool: one Rapier initialisation per worker, one whole session per job.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { XrsimInputError } from '../errors.js';
import { contentHash } from '../model/canonical.js';
import type { SessionResult } from '../session/result.js';
import { expandMatrix, type SweepOptions } from './matrix.js';
import { SweepFolder, type SweepResultLine } from './results.js';
import { runOnPool, SESSION_WORKER } from '../session/isolated.js';

/** Options of {@link runSweep}. */
export interface RunSweepOptions extends SweepOptions {
  /** Output folder for `sweep.json` and `results.jsonl`. */
  out: string;
  /** Worker threads. Default: one per core. */
  workers?: number;
  /** Wall-clock limit per session, seconds (default 300): a session past it is `errored` (timeout). */
  timeLimitSeconds?: number;
  /**
   * A pool of session workers to run on (from {@link createSessionPool}), kept warm across sweeps by a
   * harness that runs several; `workers` is then ignored. Default: a new pool for this sweep.
   */
  pool?: Piscina;
  /** Which sessions' frame streams to keep in `out/streams/<key>.xrs` (default `failed`: failed and errored). */
  keepStreams?: 'failed' | 'all' | 'none';
  /** Called after each session with counts so far. */
  onProgress?(progress: SweepProgress): void;
}

/** Counts so far. */
export interface SweepProgress {
  done: number;
  total: number;
  failed: number;
  errored: number;
  /** Sessions already in the folder from an earlier, interrupted run. */
  resumed: number;
  last: SweepResultLine;
}

/** Per-task summary. */
export interface TaskSummary {
  task: string;
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  passRate: number;
  meanScore: number;
}

/** What a finished sweep reports. */
export interface SweepSummary {
  out: string;
  sessions: number;
  passed: number;
  failed: number;
  errored: number;
  tasks: TaskSummary[];
}

export { SESSION_WORKER } from '../session/isolated.js';

/**
 * Runs every session of the matrix not already in `out`, yielding results as they finish (in completion
 * order), and returns the summary over the whole matrix.
 */
export async function* runSweep(options: RunSweepOptions): AsyncGenerator<SweepResultLine, SweepSummary> {
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 1) throw new XrsimInputError(`--workers must be a positive integer, got ${workers}`);
  const entries = expandMatrix(options);
  const folder = new SweepFolder(options.out, {
    format: 'xrsim-sweep',
    version: 1,
    matrixHash: contentHash(entries.map((e) => e.key)),
    sessions: entries.length,
    options: { tasks: options.tasks ?? null, apps: options.apps ?? null, seeds: options.seeds ?? null, hands: options.hands ?? null, scenes: options.scenes ?? null, shard: options.shard ?? null },
  });
  const results = new Map<string, SweepResultLine>();
  for (const entry of entries) {
    const previous = folder.existing.get(entry.key);
    if (previous) results.set(entry.key, previous);
  }
  const resumed = results.size;
  const pending = entries.filter((e) => !results.has(e.key));
  const pool = options.pool ?? createSessionPool(workers);
  const counts = { failed: 0, errored: 0 };
  for (const r of results.values()) count(r, counts);
  const keep = options.keepStreams ?? 'failed';
  if (keep !== 'none') mkdirSync(join(options.out, 'streams'), { recursive: true });
  try {
    const finished: Promise<SweepResultLine>[] = pending.map((entry) => {
      const path = join(options.out, 'streams', `${entry.key}.xrs`);
      const spec = keep === 'none' ? entry.spec : { ...entry.spec, record: { path } };
      return runOnPool(pool, spec, options.timeLimitSeconds).then((result: SessionResult) => {
        // Keep failures' streams (the evidence) and drop the rest, unless asked to keep all.
        if (keep === 'failed' && result.status === 'passed') {
          rmSync(path, { force: true });
          result.stream = null;
        } else if (keep !== 'none' && existsSync(path)) {
          result.stream = path;
        }
        return { key: entry.key, ...result };
      });
    });
    // Yield in completion order.
    const racing = new Map(finished.map((p, i) => [i, p.then((line) => ({ i, line }))]));
    while (racing.size > 0) {
      const { i, line } = await Promise.race(racing.values());
      racing.delete(i);
      folder.append(line);
      results.set(line.key, line);
      count(line, counts);
      options.onProgress?.({ done: results.size, total: entries.length, ...counts, resumed, last: line });
      yield line;
    }
  } finally {
    folder.close();
    if (!options.pool) await pool.destroy();
  }
  return summarise(options.out, entries.map((e) => results.get(e.key)!));
}

function count(result: SessionResult, counts: { failed: number; errored: number }): void {
  if (result.status === 'failed') counts.failed++;
  if (result.status === 'errored') counts.errored++;
}

/** Per-task and overall counts, in matrix order. */
export function summarise(out: string, results: SessionResult[]): SweepSummary {
  const byTask = new Map<string, SessionResult[]>();
  for (const r of results) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  const tasks = [...byTask].map(([task, rs]) => {
    const passed = rs.filter((r) => r.status === 'passed').length;
    return {
      task,
      sessions: rs.length,
      passed,
      failed: rs.filter((r) => r.status === 'failed').length,
      errored: rs.filter((r) => r.status === 'errored').length,
      passRate: passed / rs.length,
      meanScore: rs.reduce((s, r) => s + r.score, 0) / rs.length,
    };
  });
  return {
    out,
    sessions: results.length,
    passed: tasks.reduce((s, t) => s + t.passed, 0),
    failed: tasks.reduce((s, t) => s + t.failed, 0),
    errored: tasks.reduce((s, t) => s + t.errored, 0),
    tasks,
  };
}

/** A warm pool of `workers` session workers: one Rapier initialisation each, whole sessions per job. */
export function createSessionPool(workers: number): Piscina {
  return new Piscina({ filename: SESSION_WORKER, minThreads: workers, maxThreads: workers, idleTimeout: 60_000 });
}
