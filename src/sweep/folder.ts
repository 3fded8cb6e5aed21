/**
 * A sweep's output folder: `sweep.json` (what was asked), `results.jsonl` (one result per line, appended as
 * sessions finish) and `streams/`. A sweep started again with the same options and folder resumes: the
 * results already there are read in one streaming pass and their sessions skipped. One sweep at a time
 * holds the folder (`lock.ts`).
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { XrsimInputError } from '../errors.js';
import { KeySet } from './key-set.js';
import { lockSweepFolder } from './lock.js';
import { prepareOutDir } from './out-dir.js';
import { garbled, parseResultLine, scanLines, type SweepResultLine } from './results.js';

/** Appended lines are written once this many bytes wait … */
const FLUSH_BYTES = 64 * 1024;
/** … or this long after the first of them. */
const FLUSH_MS = 200;

/** What `sweep.json` records. */
export interface SweepManifest {
  format: 'xrsim-sweep';
  version: 1;
  /** Content hash of the expanded matrix's keys, in order. */
  matrixHash: string;
  sessions: number;
  options: unknown;
}

/** An open sweep folder. Close it to release its lock. */
export class SweepFolder {
  readonly resultsPath: string;
  /** Keys of the results in the folder (read at open, then appended). */
  readonly done = new KeySet();
  private fd: number | undefined;
  private release: (() => void) | undefined;
  private pending: string[] = [];
  private pendingBytes = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private writeError: { error: unknown } | undefined;

  private constructor(readonly dir: string) {
    this.resultsPath = join(dir, 'results.jsonl');
  }

  /**
   * Opens (or creates) `dir` for the sweep described by `manifest`, and passes each result already there
   * (once per key) to `onExisting`. Refuses, before writing anything, a folder that cannot be written,
   * holds another sweep, is in use by a running sweep, or holds a line that is not a result.
   */
  static open(dir: string, manifest: SweepManifest, onExisting: (line: SweepResultLine) => void): SweepFolder {
    prepareOutDir(dir);
    const folder = new SweepFolder(dir);
    const manifestPath = join(dir, 'sweep.json');
    checkManifest(dir, manifestPath, folder.resultsPath, manifest);
    folder.release = lockSweepFolder(dir);
    try {
      if (!existsSync(manifestPath)) writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
      if (existsSync(folder.resultsPath)) folder.resume(onExisting);
      return folder;
    } catch (err) {
      folder.closeFile();
      if (err instanceof XrsimInputError) throw err;
      throw new XrsimInputError(`cannot write to --out ${dir}: ${(err as Error).message}`, { expected: 'a writable folder' });
    }
  }

  /**
   * Appends one result as one line. Lines are written in batches, at most {@link FLUSH_BYTES} or
   * {@link FLUSH_MS} after the first of them (one write per line cost short sessions more than the line
   * itself); a sweep killed before a batch is written runs those sessions again when resumed, to the same
   * results. {@link flush} writes them now. `json`, when given, is the line's JSON text (exactly
   * `JSON.stringify(line)`, no newline), written as it is.
   */
  append(line: SweepResultLine, json: string | null = null): void {
    if (this.writeError) throw this.writeError.error;
    this.done.add(line.key);
    const text = json ?? JSON.stringify(line);
    this.pending.push(text, '\n'); // no copy of the line to append its newline: the batch is joined once
    this.pendingBytes += text.length + 1;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flushLater(), FLUSH_MS).unref();
  }

  /** Writes the lines appended so far to `results.jsonl` (and throws what a timed write could not). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.writeError) throw this.writeError.error;
    if (this.pending.length === 0) return;
    this.fd ??= openSync(this.resultsPath, 'a');
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Writes what is pending, closes the results file and releases the folder. */
  close(): void {
    try {
      this.flush();
    } finally {
      this.closeFile();
    }
  }

  /** A timed write has no caller to throw to: its error waits for the next append, flush or close. */
  private flushLater(): void {
    try {
      this.flush();
    } catch (error) {
      this.writeError = { error };
    }
  }

  private closeFile(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.release?.();
    this.release = undefined;
  }

  /** Reads the complete lines; a last line cut short by a killed sweep is dropped from the file. */
  private resume(onExisting: (line: SweepResultLine) => void): void {
    const { completeBytes } = scanLines(this.resultsPath, (text, line) => {
      const result = parseResultLine(text, line, this.resultsPath);
      if (!/^[0-9a-f]{16}$/.test(result.key)) throw garbled(line, this.resultsPath, `"${result.key.slice(0, 40)}" is not a session key`);
      if (this.done.add(result.key)) onExisting(result);
    });
    if (completeBytes < statSync(this.resultsPath).size) {
      const fd = openSync(this.resultsPath, 'r+');
      ftruncateSync(fd, completeBytes);
      closeSync(fd);
    }
  }
}

function checkManifest(dir: string, manifestPath: string, resultsPath: string, manifest: SweepManifest): void {
  if (existsSync(manifestPath)) {
    let previous: Partial<SweepManifest> = {};
    try {
      previous = JSON.parse(readFileSync(manifestPath, 'utf8')) as SweepManifest;
    } catch {
      throw new XrsimInputError('sweep.json is not readable JSON', { file: manifestPath, expected: 'a folder written by xrsim sweep' });
    }
    if (previous.matrixHash !== manifest.matrixHash) {
      throw new XrsimInputError(`--out ${dir} holds the results of a different sweep; nothing was touched`, {
        file: manifestPath,
        expected: 'the same tasks, seeds, hands and scenes as that sweep, or another --out folder',
      });
    }
  } else if (existsSync(resultsPath)) {
    throw new XrsimInputError(`--out ${dir} holds results.jsonl but no sweep.json; nothing was touched`, { file: resultsPath });
  }
}
