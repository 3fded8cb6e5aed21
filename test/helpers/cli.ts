/**
 * Running the compiled CLI in a child process, as a user would.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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

/** A fresh temporary directory. */
export function tempDir(prefix = 'xrsim-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
