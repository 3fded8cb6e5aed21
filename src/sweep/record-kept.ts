/**
 * Record only what is kept. Sessions are deterministic, so a sweep keeping the streams of failed sessions
 * need not record every session and delete most recordings: it runs each session unrecorded and runs a
 * failed (or crashed) one again with recording on, checking that the second run gives the same result.
 * Passing sessions pay nothing for recording.
 */
import { existsSync } from 'node:fs';
import type { SessionExecutor, PooledRun } from '../session/pool.js';
import type { SessionResult } from '../session/result.js';
import type { SessionSpec } from '../session/spec.js';
import type { RunLine } from './entry-runner.js';
import type { SweepEntry } from './matrix.js';
import type { SweepResultLine } from './results.js';

/** Which sessions' streams a sweep keeps. */
export type KeepStreams = 'failed' | 'all' | 'none';

/**
 * Runs one entry of a sweep, recording it as `keep` asks, and returns its result line (recording
 * `entry.spec`) with the line's JSON text when it could be written without re-serialising the result.
 * `runSpec` is what the worker runs: the entry's spec, or it with settings that are not part of the line
 * (a judge's).
 */
export function runKeepingStreams(
  executor: SessionExecutor,
  entry: SweepEntry,
  runSpec: SessionSpec,
  options: { keep: KeepStreams; streamPath: () => string; timeLimitSeconds: number },
): Promise<RunLine> {
  const { keep, streamPath, timeLimitSeconds } = options;
  const recorded = (path: string) => executor.run({ ...runSpec, record: { path } }, { timeLimitSeconds });
  if (keep === 'all') {
    const path = streamPath();
    return recorded(path).then((run) => ({ line: lineOf(entry, run, path), text: null }));
  }
  // A callback, not an async function: a tiny session's line costs no extra promises.
  return executor.run(runSpec, { timeLimitSeconds }).then((first) => {
    const plain = first.resultJson === undefined ? null : plainLine(entry, first.resultJson, first.seconds);
    const status = plain ? plain.line : first.result;
    if (keep === 'none' || !worthRecording(status)) return plain ?? { line: lineOf(entry, first, null), text: null };
    const path = streamPath();
    return recorded(path).then((second) => ({ line: lineOf(entry, { result: reconcile(first.result, second.result), seconds: first.seconds }, path), text: null }));
  });
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

/** A result line: the key, the result's fields (with the line's stream), the spec as the matrix has it, the seconds. */
export function lineOf(entry: SweepEntry, run: PooledRun, streamPath: string | null): SweepResultLine {
  const stream = streamPath !== null && existsSync(streamPath) ? streamPath : null;
  return { key: entry.key, ...run.result, stream, spec: entry.spec, seconds: roundSeconds(run.seconds) };
}

const roundSeconds = (seconds: number) => Math.round(seconds * 1e4) / 1e4;

/**
 * The line of an unrecorded run from the result's JSON text, spliced rather than parsed and re-serialised:
 * `text` is exactly `JSON.stringify(lineOf(entry, run, null))` (the result's keys in their order, its
 * `stream` null in place, then `spec` and `seconds`), and `line` is that text parsed once. Null when the
 * text is not a result this splice can carry (then the caller builds the line from the parsed result).
 */
export function plainLine(entry: SweepEntry, resultJson: string, seconds: number): RunLine | null {
  if (resultJson.charCodeAt(0) !== 0x7b || resultJson.length < 3) return null;
  const text = `{"key":${JSON.stringify(entry.key)},${resultJson.slice(1, -1)},"spec":${JSON.stringify(entry.spec)},"seconds":${JSON.stringify(roundSeconds(seconds))}}`;
  const line = JSON.parse(text) as SweepResultLine;
  // The splice equals the spread only when the result has a null stream of its own and no key (a result has neither spec nor seconds).
  if (line.stream !== null || line.key !== entry.key) return null;
  return { line, text };
}
