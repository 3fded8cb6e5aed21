/**
 * Sweeps run by careless hands (issue 36, item 7; found holding by the probe, kept here):
 * - resuming over a garbled `results.jsonl` line exits 2 naming the line, and rewrites nothing;
 * - two sweeps on one `--out` at once: the second is refused while the first is alive, and a killed
 *   sweep's lock is taken over by the next run, which finishes the matrix.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/sweep/lock.js';
import { CLI, ROOT, readResultLines, tempDir, xrsim } from '../helpers/cli.js';

describe('resuming and locking', () => {
  const args = ['sweep', 'physics/stack-settle', '--seeds', '1..2', '--hands', 'right', '--scenes', 'office', '--keep-streams', 'none'];

  it('resuming over a garbled line of results.jsonl exits 2 naming the line, and changes nothing', () => {
    const out = join(tempDir(), 'out');
    expect(xrsim(...args, '--out', out).code).toBe(0);
    const path = join(out, 'results.jsonl');
    const [first, second] = readFileSync(path, 'utf8').trim().split('\n');
    const garbled = `${first}\n{"key": "0123456789abcdef", "task": oops\n${second}\n`;
    writeFileSync(path, garbled);
    const r = xrsim(...args, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 2 of results\.jsonl is not a result/);
    expect(r.stderr).not.toMatch(/SyntaxError|    at /);
    expect(readFileSync(path, 'utf8')).toBe(garbled);
  });

  it('a second sweep on the same --out while the first runs is refused; a lock left by a killed sweep is taken over', async () => {
    const out = join(tempDir(), 'out');
    const long = ['sweep', 'physics/stack-settle', '--seeds', '1..40', '--hands', 'right', '--scenes', 'office', '--keep-streams', 'none', '--workers', '1', '--out', out];
    const first = spawn(process.execPath, [CLI, ...long], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => first.on('exit', () => resolve()));
    // Wait until the first sweep holds the folder (its lock; results.jsonl is written in batches, and on a
    // fast machine only when all 40 sessions are done and the lock is gone).
    while (!existsSync(join(out, LOCK_FILE))) await new Promise((r) => setTimeout(r, 20));
    // Hold it there, alive and locking, however fast the machine would finish its sessions.
    first.kill('SIGSTOP');
    const second = xrsim(...long);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/is in use by another sweep \(pid \d+/);
    first.kill('SIGKILL');
    await exited;
    // The killed sweep's lock is stale: the next run takes the folder over and finishes the matrix.
    const third = xrsim(...long, '--json');
    expect(third.code, third.stderr).toBe(0);
    expect(new Set(readResultLines(out).map((l) => l.key)).size).toBe(40);
    expect(readResultLines(out)).toHaveLength(40);
  });
});

