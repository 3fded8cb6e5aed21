/**
 * Running the compiled CLI in a child process, as a user would.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist/src/cli/main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The last line of stdout parsed as JSON, when it is JSON. */
  json: any;
}

/** Runs `xrsim ...args` and waits for it. */
export function xrsim(...args: string[]): CliResult {
  const child = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  const lines = child.stdout.trim().split('\n');
  let json: unknown;
  try {
    json = JSON.parse(lines[lines.length - 1]);
  } catch {
    json = undefined;
  }
  return { code: child.status ?? -1, stdout: child.stdout, stderr: child.stderr, json };
}

/** Directories {@link tempDir} made for the current test file. */
const madeDirs: string[] = [];

/** A fresh temporary directory, removed when the test file ends (`test/setup/temp-dirs.ts`). */
export function tempDir(prefix = 'xrsim-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

/**
 * Removes every directory {@link tempDir} made so far. A full test run made about 170 of them (one a
 * 20,000-session sweep folder of 83 MB) and left them all in the system's temporary folder.
 */
export function removeTempDirs(): void {
  for (const dir of madeDirs.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // A process a test started may still be writing there; the system's temporary folder is cleaned anyway.
    }
  }
}

/** The lines of a sweep folder's `results.jsonl`, parsed. */
export function readResultLines(out: string): any[] {
  return readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}
