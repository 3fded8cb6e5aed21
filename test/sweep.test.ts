/**
 * The basic sweep: deterministic matrix, warm pool, append-only results, resume, and refusing bad input
 * before touching anything.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandMatrix, parseSeeds } from '../src/sweep/matrix.js';
import { runSweep } from '../src/sweep/run.js';
import { tempDir, xrsim } from './helpers/cli.js';
import { listTaskIds, loadTask } from '../src/index.js';

const lines = (dir: string) => readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const sorted = (rows: { key: string; hash: string }[]) => rows.map((r) => `${r.key} ${r.hash}`).sort();

describe('matrix', () => {
  it('expands the embedded defaults: whole suite × each task’s scenes × seeds 1..3 × both hands', () => {
    const entries = expandMatrix();
    const sceneCounts = listTaskIds().map((id) => (loadTask(id).spec.scenes ?? [loadTask(id).spec.scene]).length);
    expect(entries).toHaveLength(sceneCounts.reduce((a, b) => a + b, 0) * 3 * 2);
    expect(entries[0].spec).toEqual({ task: 'physics/cube-move', app: 'reference', scene: 'empty-lab', seed: 1, dominantHand: 'right' });
    expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
    expect(expandMatrix().map((e) => e.key)).toEqual(entries.map((e) => e.key));
  });

  it('matches task globs and parses seeds', () => {
    expect(expandMatrix({ tasks: ['physics/stack-*'], seeds: [4], hands: ['left'], scenes: ['office'] })).toHaveLength(1);
    expect(parseSeeds('2..4')).toEqual({ from: 2, to: 4 });
    expect(parseSeeds('1..1000000')).toEqual({ from: 1, to: 1000000 }); // a range is never listed
    expect(parseSeeds('9,1,9')).toEqual([9, 1]);
    expect(() => parseSeeds('5..1')).toThrow(/range is empty/);
    expect(() => expandMatrix({ tasks: ['nothing/*'] })).toThrow(/no task matches "nothing\/\*"/);
  });
});

describe('runSweep', () => {
  it('streams one result line per session and gives the same hashes with 1 and 2 workers', async () => {
    const options = { tasks: ['physics/stack-settle', 'physics/rolling-ball-checkpoints'], seeds: [1, 2], scenes: ['kitchen'] as string[] };
    const one = tempDir();
    const two = tempDir();
    const drain = async (out: string, workers: number) => {
      const sweep = runSweep({ ...options, out, workers });
      let seen = 0;
      let step = await sweep.next();
      for (; !step.done; step = await sweep.next()) seen++;
      return { seen, summary: step.value };
    };
    const a = await drain(one, 1);
    const b = await drain(two, 2);
    expect(a.seen).toBe(8);
    expect(a.summary).toMatchObject({ sessions: 8, passed: 8, failed: 0, errored: 0 });
    expect(sorted(lines(one))).toEqual(sorted(lines(two)));
  });

  it('resumes an interrupted sweep without losing or duplicating a result', async () => {
    const out = tempDir();
    const options = { tasks: ['physics/stack-settle'], seeds: [1, 2, 3], scenes: ['office'] as string[], workers: 2 };
    const full = runSweep({ ...options, out });
    while (!(await full.next()).done);
    const complete = lines(out);
    // Keep two whole lines and half of the third, as a sweep killed mid-write would.
    const text = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n');
    writeFileSync(join(out, 'results.jsonl'), `${text[0]}\n${text[1]}\n${text[2].slice(0, 40)}`);
    const resumed = runSweep({ ...options, out });
    let fresh = 0;
    for (let step = await resumed.next(); !step.done; step = await resumed.next()) fresh++;
    expect(fresh).toBe(4);
    expect(sorted(lines(out))).toEqual(sorted(complete));
  });
});

describe('xrsim sweep', () => {
  it('runs, summarises and exits 0 when every session passes', () => {
    const out = tempDir();
    const r = xrsim('sweep', 'physics/material-curling', '--seeds', '1..2', '--hands', 'right', '--scenes', 'empty-lab', '--out', out, '--json');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ sessions: 2, passed: 2, tasks: [{ task: 'physics/material-curling', passRate: 1 }] });
    // Not a terminal: progress lines only as time and work pass, and always the last one.
    expect(r.stderr).toMatch(/\[100%\] 2\/2 sessions · [\d.]+\/s · ETA 0 s · 0 failed, 0 errored\n/);
  });

  it.each([
    [['--seeds', '5..1'], /range is empty/],
    [['--workers', '0'], /--workers must be a positive integer/],
    [['nothing/*'], /no task matches/],
    [['--hands', 'three'], /--hands must be both, right or left/],
    [['--scenes', 'moon'], /unknown scene "moon"/],
  ])('refuses %j with exit 2', (args, message) => {
    const r = xrsim('sweep', ...args, '--out', join(tempDir(), 'out'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('refuses an --out holding another sweep’s results and leaves it untouched', () => {
    const out = tempDir();
    expect(xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--out', out).code).toBe(0);
    const before = readFileSync(join(out, 'results.jsonl'));
    const mtime = statSync(join(out, 'results.jsonl')).mtimeMs;
    const r = xrsim('sweep', 'physics/stack-settle', '--seeds', '2', '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds the results of a different sweep; nothing was touched/);
    expect(readFileSync(join(out, 'results.jsonl'))).toEqual(before);
    expect(statSync(join(out, 'results.jsonl')).mtimeMs).toBe(mtime);
  });
});
