/**
 * Sweep faults found by probing (issue 10, item 8, the sweep's share), and recording only what is kept:
 * - `xrsim verify SWEEP_DIR` re-runs sessions of task *files* from the file, not from the task id;
 * - an `--out` that cannot be written (under /proc) is refused at once, never a hang;
 * - `--workers 1000` is capped at a multiple of the cores, with a message;
 * - resuming over a garbled `results.jsonl` line exits 2 naming the line;
 * - two sweeps on one `--out` at once: the second is refused;
 * - failed sessions are re-run with recording, passing ones never recorded.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask, resolveWorkerCount } from '../src/index.js';
import { CLI, ROOT, tempDir, xrsim } from './helpers/cli.js';
import { LOCK_FILE } from '../src/sweep/lock.js';

const lines = (dir: string) =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** A task file: a suite task, shortened, with its programs at absolute paths. */
function taskFile(dir: string, id: string, duration: number): string {
  const { spec } = loadTask(id);
  const base = join(ROOT, 'tasks', id);
  const copy = {
    ...spec,
    duration,
    ...(spec.actors ? { actors: join(base, spec.actors) } : {}),
    ...(spec.apps ? { apps: Object.fromEntries(Object.entries(spec.apps).map(([k, v]) => [k, 'module' in v ? { ...v, module: join(base, v.module) } : { ...v, dir: join(base, v.dir) }])) } : {}),
  };
  const file = join(dir, `${id.replace('/', '-')}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

describe('verify on a sweep of task files', () => {
  it('re-runs each session from its task file and finds every hash identical', () => {
    const dir = tempDir();
    const file = taskFile(dir, 'physics/stack-settle', 1);
    const out = join(dir, 'out');
    expect(xrsim('sweep', file, '--seeds', '1..2', '--hands', 'right', '--scenes', 'office', '--keep-streams', 'none', '--out', out).code).not.toBe(2);
    expect(lines(out).every((l) => l.spec.task === file)).toBe(true);
    const r = xrsim('verify', out, '--workers', '2', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ checked: 2, identical: 2, mismatches: [] });
  });
});

describe('bad output folders and worker counts', () => {
  it('refuses an --out under /proc at once (exit 2), without hanging', () => {
    const started = Date.now();
    const r = xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--out', '/proc/xrsim-test/out');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write to --out \/proc\/xrsim-test\/out/);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('refuses an unwritable --html before running anything', () => {
    const out = join(tempDir(), 'out');
    const r = xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--out', out, '--html', '/proc/xrsim-test/report.html');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write --html/);
    expect(existsSync(join(out, 'results.jsonl'))).toBe(false);
  });

  it('caps --workers at 4 per core with a message, and still runs', () => {
    const max = 4 * availableParallelism();
    expect(resolveWorkerCount(1000)).toEqual({ workers: max, requested: 1000, max, capped: true });
    expect(() => resolveWorkerCount(0)).toThrow(/workers must be a positive integer, got 0/);
    expect(() => resolveWorkerCount(1.5)).toThrow(/workers must be a positive integer/);
    const r = xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--workers', '1000', '--keep-streams', 'none', '--out', join(tempDir(), 'out'), '--json');
    expect(r.stderr).toMatch(new RegExp(`--workers 1000 is more than this machine's ${max} \\(4 per core\\); using ${max}`));
    expect(r.json).toMatchObject({ sessions: 1 });
  });
});

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
    expect(new Set(lines(out).map((l) => l.key)).size).toBe(40);
    expect(lines(out)).toHaveLength(40);
  });
});

describe('recording only what is kept', () => {
  it('with --keep-streams failed, passing sessions are never recorded and failed ones are, with the same hash', () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const r = xrsim('sweep', 'xr/poke*', '--apps', 'process', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--workers', '2', '--out', out, '--json');
    expect(r.code).toBe(1);
    const results = lines(out);
    const failed = results.filter((l) => l.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(results.some((l) => l.status === 'passed')).toBe(true);
    expect(readdirSync(join(out, 'streams')).sort()).toEqual(failed.map((l) => `${l.key}.xrs`).sort());
    // The recorded re-run reproduced the unrecorded run (else the session would be errored, nondeterministic).
    expect(results.filter((l) => l.error?.kind === 'nondeterministic')).toEqual([]);
    const verified = xrsim('verify', failed[0].stream, '--json');
    expect(verified.json?.identical).toBe(true);
    expect(verified.json?.sessionHash?.rerun).toBe(failed[0].hash);
  });

  it('a duplicate result line is read once on resume', () => {
    const out = join(tempDir(), 'out');
    const args = ['sweep', 'physics/stack-settle', '--seeds', '1..3', '--hands', 'right', '--scenes', 'office', '--keep-streams', 'none', '--out', out];
    expect(xrsim(...args).code).toBe(0);
    // A duplicate line (as two sweeps racing before locks existed would leave) is read once.
    appendFileSync(join(out, 'results.jsonl'), `${JSON.stringify(lines(out)[0])}\n`);
    const again = xrsim(...args, '--json');
    expect(again.json).toMatchObject({ sessions: 3, passed: 3 });
  });
});
