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
      folder.close();
      if (err instanceof XrsimInputError) throw err;
      throw new XrsimInputError(`cannot write to --out ${dir}: ${(err as Error).message}`, { expected: 'a writable folder' });
    }
  }

  /** Appends one result as one line. */
  append(line: SweepResultLine): void {
    this.done.add(line.key);
    this.fd ??= openSync(this.resultsPath, 'a');
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  /** Closes the results file and releases the folder. */
  close(): void {
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
