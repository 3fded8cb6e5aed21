/**
 * Sweep faults found by probing (issue 10, item 8, the sweep's share), and recording only what is kept
 * (resuming and locking are in test/hostile/sweeps.test.ts):
 * - `xrsim verify SWEEP_DIR` re-runs sessions of task *files* from the file, not from the task id;
 * - an `--out` that cannot be written (under /proc) is refused at once, never a hang;
 * - `--workers 1000` is capped at a multiple of the cores, with a message;
 * - failed sessions are re-run with recording, passing ones never recorded.
 */
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask, resolveWorkerCount } from '../src/index.js';
import { ROOT, readResultLines, tempDir, xrsim } from './helpers/cli.js';

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
    expect(readResultLines(out).every((l) => l.spec.task === file)).toBe(true);
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

describe('recording only what is kept', () => {
  it('with --keep-streams failed, passing sessions are never recorded and failed ones are, with the same hash', () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const r = xrsim('sweep', 'xr/poke*', '--apps', 'process', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--workers', '2', '--out', out, '--json');
    expect(r.code).toBe(0); // the adversarial apps fail, as expected
    const results = readResultLines(out);
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
    appendFileSync(join(out, 'results.jsonl'), `${JSON.stringify(readResultLines(out)[0])}\n`);
    const again = xrsim(...args, '--json');
    expect(again.json).toMatchObject({ sessions: 3, passed: 3 });
  });
});
