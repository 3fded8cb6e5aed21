/**
 * A sweep's output folder: `sweep.json` (what was asked) and `results.jsonl` (one result per line, appended
 * as sessions finish). A sweep started again with the same options and folder skips what is already there.
 */
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { XrsimInputError } from '../errors.js';
import type { SessionResult } from '../session/result.js';

/** A result line: the session's key and its result. */
export type SweepResultLine = SessionResult & { key: string };

/** What `sweep.json` records. */
export interface SweepManifest {
  format: 'xrsim-sweep';
  version: 1;
  /** Content hash of the expanded matrix. */
  matrixHash: string;
  sessions: number;
  options: unknown;
}

/** An open sweep folder. */
export class SweepFolder {
  readonly resultsPath: string;
  /** Results already in the folder, by key. */
  readonly existing: Map<string, SweepResultLine>;
  private fd: number | undefined;

  /**
   * Opens (or creates) `dir` for the sweep described by `manifest`. Refuses a folder that holds another
   * sweep, before writing anything.
   */
  constructor(
    readonly dir: string,
    manifest: SweepManifest,
  ) {
    const manifestPath = join(dir, 'sweep.json');
    this.resultsPath = join(dir, 'results.jsonl');
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
    } else if (existsSync(this.resultsPath)) {
      throw new XrsimInputError(`--out ${dir} holds results.jsonl but no sweep.json; nothing was touched`, { file: this.resultsPath });
    }
    try {
      mkdirSync(dir, { recursive: true });
      if (!existsSync(manifestPath)) writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    } catch (err) {
      throw new XrsimInputError(`cannot write to --out ${dir}: ${(err as Error).message}`, { expected: 'a writable folder' });
    }
    this.existing = this.readExisting();
  }

  /** Appends one result as one line. */
  append(line: SweepResultLine): void {
    this.fd ??= openSync(this.resultsPath, 'a');
    const text = `${JSON.stringify(line)}\n`;
    writeSync(this.fd, text);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Reads complete lines; a line cut short by a killed sweep is dropped from the file. */
  private readExisting(): Map<string, SweepResultLine> {
    const existing = new Map<string, SweepResultLine>();
    if (!existsSync(this.resultsPath)) return existing;
    const text = readFileSync(this.resultsPath, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    if (complete < text.length) {
      const fd = openSync(this.resultsPath, 'r+');
      ftruncateSync(fd, Buffer.byteLength(text.slice(0, complete)));
      closeSync(fd);
    }
    for (const line of text.slice(0, complete).split('\n')) {
      if (line.trim() === '') continue;
      const result = JSON.parse(line) as SweepResultLine;
      existing.set(result.key, result);
    }
    return existing;
  }
}

/** Every result line of a sweep folder (complete lines only), in file order. */
export function readResults(dir: string): SweepResultLine[] {
  const path = join(dir, 'results.jsonl');
  if (!existsSync(path)) throw new XrsimInputError(`${dir} holds no results.jsonl`, { file: path, expected: 'a folder written by xrsim sweep' });
  const text = readFileSync(path, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as SweepResultLine;
      } catch {
        throw new XrsimInputError(`line ${i + 1} is not a result`, { file: path, expected: 'one JSON result per line' });
      }
    });
}
