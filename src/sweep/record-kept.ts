/**
 * Record only what is kept. Sessions are deterministic, so a sweep keeping the streams of failed sessions
 * need not record every session and delete most recordings: it runs each session unrecorded and runs a
 * failed (or crashed) one again with recording on, checking that the second run gives the same result.
 * Passing sessions pay nothing for recording.
 */
import { existsSync } from 'node:fs';
import type { SessionExecutor, PooledRun } from '../session/pool.js';
import type { SessionResult } from '../session/result.js';
import type { SweepEntry } from './matrix.js';
import type { SweepResultLine } from './results.js';

/** Which sessions' streams a sweep keeps. */
export type KeepStreams = 'failed' | 'all' | 'none';

/** Runs one entry of a sweep, recording it as `keep` asks, and returns its result line. */
export async function runKeepingStreams(
  executor: SessionExecutor,
  entry: SweepEntry,
  options: { keep: KeepStreams; streamPath: string; timeLimitSeconds: number },
): Promise<SweepResultLine> {
  const { keep, streamPath, timeLimitSeconds } = options;
  const recorded = () => ({ ...entry.spec, record: { path: streamPath } });
  if (keep === 'all') return lineOf(entry, await executor.run(recorded(), { timeLimitSeconds }), streamPath);
  const first = await executor.run(entry.spec, { timeLimitSeconds });
  if (keep === 'none' || !worthRecording(first.result)) return lineOf(entry, first, null);
  const second = await executor.run(recorded(), { timeLimitSeconds });
  return lineOf(entry, { result: reconcile(first.result, second.result), seconds: first.seconds }, streamPath);
}

/**
 * Failed sessions and crashes are recorded for their evidence. Bad input records nothing, and a timeout
 * would cost its whole time limit again.
 */
function worthRecording(result: SessionResult): boolean {
  return result.status === 'failed' || (result.status === 'errored' && result.error?.kind === 'crash');
}

/** The recorded run's result when it agrees with the first; else an `errored` (nondeterministic) one. */
function reconcile(first: SessionResult, recorded: SessionResult): SessionResult {
  const same = first.status === recorded.status && first.hash === recorded.hash && (first.status !== 'errored' || first.error?.message === recorded.error?.message);
  if (same) return recorded;
  const describe = (r: SessionResult) => (r.status === 'errored' ? `errored (${r.error?.message})` : `${r.status} with hash ${r.hash}`);
  return {
    ...recorded,
    status: 'errored',
    score: 0,
    error: {
      kind: 'nondeterministic',
      message: `run twice (the second time to record its stream), the session gave two results: first ${describe(first)}, then ${describe(recorded)}. A session must be deterministic: check the app for clocks, Math.random or state kept between sessions`,
    },
  };
}

function lineOf(entry: SweepEntry, run: PooledRun, streamPath: string | null): SweepResultLine {
  const stream = streamPath !== null && existsSync(streamPath) ? streamPath : null;
  return { key: entry.key, ...run.result, stream, spec: entry.spec, seconds: Math.round(run.seconds * 1e4) / 1e4 };
}
