/**
 * `results.jsonl`, a sweep's results, one JSON line per session, appended as sessions finish. Read in a
 * streaming pass (a million lines never sit in memory at once); a line that is not a result is bad input
 * naming its line number.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { XrsimInputError } from '../errors.js';
import type { SessionResult } from '../session/result.js';
import type { SweepSpec } from './matrix.js';

/** A result line: the session's key, the spec it ran, its result, and the wall seconds it took. */
export type SweepResultLine = SessionResult & {
  key: string;
  /** What ran (task id or task file, app, scene, seed, hand): `verify` re-runs exactly this. */
  spec?: SweepSpec;
  /** Wall seconds the session ran in its worker (harness time, not part of the result's identity). */
  seconds?: number;
  /** Why `--videos` made no video of this session's stream. */
  videoError?: string;
};

const CHUNK = 1 << 20;
const STATUSES = new Set(['passed', 'failed', 'errored']);

/**
 * Calls `onLine` for each complete line of `path` (1-based line numbers, blank lines skipped), reading a
 * MiB at a time. Returns the byte length of the complete lines: a last line without its newline (cut short
 * by a kill) is not passed on, and starts there.
 */
export function scanLines(path: string, onLine: (text: string, line: number) => void): { completeBytes: number } {
  let completeBytes = 0;
  for (const { text, line, end } of lineIterator(path)) {
    completeBytes = end;
    if (text !== null) onLine(text, line);
  }
  return { completeBytes };
}

/**
 * The lines of a file one at a time: each complete line's text (null for a blank one), its number, and
 * the byte offset just past its newline. A last line without a newline is not yielded.
 */
function* lineIterator(path: string): Generator<{ text: string | null; line: number; end: number }> {
  const fd = openSync(path, 'r');
  let buffer = Buffer.alloc(CHUNK);
  let filled = 0;
  /** File offset of buffer[0]. */
  let offset = 0;
  let line = 0;
  try {
    for (;;) {
      if (filled === buffer.length) {
        const grown = Buffer.alloc(buffer.length * 2);
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const read = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (read === 0) return;
      const end = filled + read;
      let start = 0;
      for (let nl = buffer.indexOf(10, filled); nl >= 0 && nl < end; nl = buffer.indexOf(10, start)) {
        line++;
        const text = buffer.toString('utf8', start, nl);
        start = nl + 1;
        yield { text: text.trim() === '' ? null : text, line, end: offset + start };
      }
      buffer.copy(buffer, 0, start, end);
      filled = end - start;
      offset += start;
    }
  } finally {
    closeSync(fd);
  }
}

/** Parses one line of `results.jsonl`; anything but a result is bad input naming the line. */
export function parseResultLine(text: string, line: number, path: string): SweepResultLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw garbled(line, path, (err as Error).message);
  }
  const r = value as Partial<SweepResultLine> | null;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) throw garbled(line, path, 'not a JSON object');
  if (typeof r.key !== 'string' || r.key === '') throw garbled(line, path, 'no session key');
  if (typeof r.task !== 'string' || !STATUSES.has(r.status as string) || !Array.isArray(r.milestones)) throw garbled(line, path, 'no task, status or milestones');
  return r as SweepResultLine;
}

/** The error for line `line` of a results file that is not a result. */
export function garbled(line: number, path: string, why: string): XrsimInputError {
  return new XrsimInputError(`line ${line} of results.jsonl is not a result (${why}); nothing was run`, {
    file: path,
    expected: 'one JSON result per line, as xrsim sweep writes them: delete or repair that line (its session then runs again)',
  });
}

/** The path of a sweep folder's results, checked to exist. */
export function resultsPath(dir: string): string {
  const path = join(dir, 'results.jsonl');
  if (!existsSync(path)) throw new XrsimInputError(`${dir} holds no results.jsonl`, { file: path, expected: 'a folder written by xrsim sweep' });
  return path;
}

/** Every result of a sweep folder, one at a time, in file order (each call reads the file again). */
export function* resultLines(dir: string): Generator<SweepResultLine> {
  const path = resultsPath(dir);
  for (const { text, line } of lineIterator(path)) if (text !== null) yield parseResultLine(text, line, path);
}

/** Every result of a sweep folder in file order, as a list (for tools that compare whole sweeps). */
export function readResults(dir: string): SweepResultLine[] {
  return [...resultLines(dir)];
}
