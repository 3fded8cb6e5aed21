/**
 * Ranking candidates with confidence (`rankSweeps`, `xrsim rank`): the order, the intervals, the win
 * probabilities and rank frequencies, on real sweeps and on results built to test the statistics.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stratifiedBootstrap } from '../kernels/bootstrap.js';
import { Sfc32 } from '../kernels/prng.js';
import { loadTask, rankSweeps, type SessionResult } from '../src/index.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

/** A result with only what ranking reads. */
function result(task: string, slot: number, score: number, status?: SessionResult['status']): SessionResult {
  return {
    task,
    app: 'app',
    scene: `scene-${slot % 4}`,
    seed: Math.floor(slot / 8) + 1,
    hand: slot % 8 < 4 ? 'right' : 'left',
    ticks: 1,
    status: status ?? (score === 1 ? 'passed' : 'failed'),
    score,
    hash: '',
    milestones: [],
    stream: null,
    modelHash: '',
    appErrors: 0,
    firstAppError: null,
  };
}

/** A candidate whose session scores in each task come from `scoreOf(task index, slot)`. */
function candidate(name: string, tasks: number, slots: number, scoreOf: (t: number, s: number) => number) {
  const results: SessionResult[] = [];
  for (let t = 0; t < tasks; t++) for (let s = 0; s < slots; s++) results.push(result(`task-${t}`, s, scoreOf(t, s)));
  return { name, results };
}

/** A deterministic pseudo-random number in [0, 1) from integers (no Math.random in tests either). */
const noise = (...k: number[]) => {
  let h = 2166136261;
  for (const v of k) h = Math.imul(h ^ (v + 0x9e37), 16777619);
  return ((h >>> 0) % 10007) / 10007;
};

describe('the stratified bootstrap kernel', () => {
  it('redraws rows within each stratum, pairs the columns, and weighs strata equally', () => {
    // Stratum 0: three rows; stratum 1: one row. Column 1 is column 0 plus 10, so paired draws keep the gap.
    const values = Float64Array.from([0, 10, 1, 11, 2, 12, 6, 16]);
    const out = new Float64Array(1000 * 2);
    stratifiedBootstrap(values, 2, Int32Array.from([0, 3]), Int32Array.from([3, 1]), 1000, new Sfc32(1, 2, 3, 4), out, new Float64Array(2));
    let sum = 0;
    for (let r = 0; r < 1000; r++) {
      expect(out[r * 2 + 1] - out[r * 2]).toBeCloseTo(10, 12);
      // A one-row stratum always draws its row: its mean is 6, and the other's lies in [0, 2].
      expect(out[r * 2]).toBeGreaterThanOrEqual(3);
      expect(out[r * 2]).toBeLessThanOrEqual(4);
      sum += out[r * 2];
    }
    // The strata means average (1 + 6) / 2 = 3.5.
    expect(sum / 1000).toBeCloseTo(3.5, 1);
  });
});

describe('rankSweeps', () => {
  const strong = candidate('strong', 6, 16, (t, s) => (noise(1, t, s) < 0.9 ? 1 : 0.5));
  const weak = candidate('weak', 6, 16, (t, s) => (noise(2, t, s) < 0.4 ? 1 : 0.5));
  const twin = candidate('twin', 6, 16, (t, s) => (noise(3, t, s) < 0.4 ? 1 : 0.5));

  it('orders candidates by mean partial credit, each task weighing the same, with intervals around the means', () => {
    const r = rankSweeps([weak, strong, twin], { seed: 5 });
    expect(r.candidates.map((c) => c.name)[0]).toBe('strong');
    expect(r.resamples).toBe(10_000);
    for (const c of r.candidates) {
      for (const e of [c.partial, c.fullPass]) {
        expect(e.ci95[0]).toBeLessThanOrEqual(e.mean);
        expect(e.ci95[1]).toBeGreaterThanOrEqual(e.mean);
        expect(e.ci95[1] - e.ci95[0]).toBeGreaterThan(0);
      }
      expect(c.sessions).toBe(96);
    }
    // The mean is the mean over tasks of the task means (here every task has 16 sessions, so the plain mean).
    const plain = strong.results.reduce((s, x) => s + x.score, 0) / strong.results.length;
    expect(r.candidates[0].partial.mean).toBeCloseTo(plain, 12);
    expect(r.candidates[0].fullPass.mean).toBeCloseTo(strong.results.filter((x) => x.status === 'passed').length / 96, 12);
    expect(r.tasks.map((t) => t.task)).toEqual(['task-0', 'task-1', 'task-2', 'task-3', 'task-4', 'task-5']);
  });

  it('separates a clearly better candidate and leaves two alike undecided', () => {
    const r = rankSweeps([weak, strong, twin], { seed: 5 });
    const at = (name: string) => r.candidates.findIndex((c) => c.name === name);
    const [s, w, t] = [at('strong'), at('weak'), at('twin')];
    expect(r.wins[s][w]).toBeGreaterThan(0.99);
    expect(r.wins[s][t]).toBeGreaterThan(0.99);
    expect(r.candidates[s].partial.ci95[0]).toBeGreaterThan(Math.max(r.candidates[w].partial.ci95[1], r.candidates[t].partial.ci95[1]));
    expect(r.candidates[s].rankFirst).toBeGreaterThan(0.99);
    // Two candidates drawn from the same distribution: neither wins reliably, their intervals overlap.
    expect(r.wins[w][t]).toBeGreaterThan(0.05);
    expect(r.wins[w][t]).toBeLessThan(0.95);
    expect(r.candidates[w].partial.ci95[1]).toBeGreaterThan(r.candidates[t].partial.ci95[0]);
    // Pairwise probabilities are complementary; every candidate of three is always in the top three.
    for (let i = 0; i < 3; i++) {
      expect(r.wins[i][i]).toBe(0.5);
      for (let j = 0; j < 3; j++) if (i !== j) expect(r.wins[i][j] + r.wins[j][i]).toBeCloseTo(1, 12);
      expect(r.candidates[i].topThree).toBe(1);
    }
    expect(r.candidates.reduce((sum, c) => sum + c.rankFirst, 0)).toBeCloseTo(1, 12);
  });

  it('is reproducible from its seed, and another seed moves the intervals only a little', () => {
    const a = rankSweeps([weak, strong, twin], { seed: 9 });
    expect(rankSweeps([weak, strong, twin], { seed: 9 })).toEqual(a);
    const b = rankSweeps([weak, strong, twin], { seed: 10 });
    expect(b).not.toEqual(a);
    for (let i = 0; i < 3; i++) expect(Math.abs(b.candidates[i].partial.ci95[0] - a.candidates[i].partial.ci95[0])).toBeLessThan(0.02);
  });

  it('ranks by full pass when asked, scores errored sessions 0 and counts them, and leaves out unmatched sessions', () => {
    const crashes = candidate('crashes', 2, 8, () => 1);
    crashes.results[0] = { ...crashes.results[0], status: 'errored', score: 0 };
    const partial = candidate('partial', 2, 8, () => 0.9);
    partial.results.push(result('task-9', 0, 1));
    const r = rankSweeps([partial, crashes], { by: 'full-pass' });
    expect(r.metric).toBe('full-pass');
    expect(r.candidates[0].name).toBe('crashes');
    expect(r.candidates[0].errored).toBe(1);
    expect(r.candidates[0].fullPass.mean).toBeCloseTo(0.9375, 12);
    expect(r.candidates[1].fullPass.mean).toBe(0);
    expect(r.unmatched).toEqual({ partial: 1, crashes: 0 });
    expect(r.tasks.map((t) => t.task)).toEqual(['task-0', 'task-1']);
  });

  it('Pass@1 counts a task only when every session of it passed: a one-handed candidate passes no task', () => {
    // 4 tasks × 8 sessions (4 right-handed, 4 left-handed). `oneHanded` passes every right-handed session and
    // fails every left-handed one: half its sessions pass (full pass 0.5), but no task does (Pass@1 0).
    const oneHanded = candidate('one-handed', 4, 8, (_, s) => (s % 8 < 4 ? 1 : 0.75));
    // `twoOfFour` passes every session of tasks 0 and 1 and none of tasks 2 and 3.
    const twoOfFour = candidate('two-of-four', 4, 8, (t) => (t < 2 ? 1 : 0.5));
    const r = rankSweeps([oneHanded, twoOfFour], { by: 'pass@1' });
    expect(r.metric).toBe('pass@1');
    expect(r.candidates.map((c) => [c.name, c.fullPass.mean, c.passAt1.mean, c.tasksPassed])).toEqual([
      ['two-of-four', 0.5, 0.5, 2],
      ['one-handed', 0.5, 0, 0],
    ]);
    expect(r.tasks.map((t) => t.passed)).toEqual([[true, false], [true, false], [false, false], [false, false]]);
    // The interval comes from redrawing tasks: 0 tasks passed stays 0; 2 of 4 spans most of [0, 1].
    expect(r.candidates[1].passAt1.ci95).toEqual([0, 0]);
    const [lo, hi] = r.candidates[0].passAt1.ci95;
    expect(lo).toBeLessThanOrEqual(0.25);
    expect(hi).toBeGreaterThanOrEqual(0.75);
    expect(r.wins[0][1]).toBeGreaterThan(0.8);
    // An errored session fails its task's Pass@1 too.
    const errored = candidate('errored', 4, 8, () => 1);
    errored.results[9] = { ...errored.results[9], status: 'errored', score: 0 };
    const all = candidate('all', 4, 8, () => 1);
    expect(rankSweeps([errored, all], { by: 'pass@1' }).candidates.map((c) => [c.name, c.passAt1.mean])).toEqual([
      ['all', 1],
      ['errored', 0.75],
    ]);
  });

  it('ranks by design score over the tasks with design reports only, an errored session rating 1', () => {
    const withDesign = (c: ReturnType<typeof candidate>, score: (t: number) => number) => ({
      ...c,
      results: c.results.map((x) => (x.task === 'task-2' ? x : { ...x, design: { score: score(Number(x.task.slice(5))), ratings: [] } })),
    });
    // Equal partial credit; "tidy" is better designed in every task with a design report (task-2 has none: physics).
    const tidy = withDesign(candidate('tidy', 3, 8, () => 1), () => 4.5);
    const sloppy = withDesign(candidate('sloppy', 3, 8, () => 1), (t) => (t === 0 ? 2 : 3));
    sloppy.results[1] = { ...sloppy.results[1], status: 'errored', score: 0 };
    const r = rankSweeps([sloppy, tidy], { by: 'design' });
    expect(r.metric).toBe('design');
    expect(r.candidates.map((c) => c.name)).toEqual(['tidy', 'sloppy']);
    expect(r.candidates[0].design!.mean).toBeCloseTo(4.5, 12);
    // task-0: 7 sessions at 2 and one errored at 1; task-1: 3. The mean over the two tasks with design reports.
    expect(r.candidates[1].design!.mean).toBeCloseTo(((7 * 2 + 1) / 8 + 3) / 2, 12);
    expect(r.wins[0][1]).toBe(1);
    expect(r.tasks.map((t) => t.design)).toEqual([[4.5, (7 * 2 + 1) / 8], [4.5, 3], null]);
    // Without design reports there is no design ranking.
    expect(rankSweeps([weak, strong]).candidates[0].design).toBeNull();
    expect(() => rankSweeps([weak, strong], { by: 'design' })).toThrow(/no session of any candidate has a design score/);
  });

  it('refuses fewer than 10,000 resamples, one candidate, twin names and sweeps with nothing in common', () => {
    expect(() => rankSweeps([weak, strong], { resamples: 500 })).toThrow(/at least 10000/);
    expect(() => rankSweeps([weak])).toThrow(/at least two candidates/);
    expect(() => rankSweeps([weak, { ...strong, name: 'weak' }])).toThrow(/both named "weak"/);
    const elsewhere = { name: 'elsewhere', results: weak.results.map((x) => ({ ...x, task: 'other' })) };
    expect(() => rankSweeps([weak, elsewhere])).toThrow(/no session in common/);
  });
});

/** A task file whose reference app is `app` (one of the task's apps): a candidate's solution of that task. */
function candidateTask(dir: string, task: string, app: string): string {
  const { spec } = loadTask(task);
  const base = join(ROOT, 'tasks', task);
  const copy = { ...spec, actors: join(base, spec.actors!), apps: { reference: { module: join(base, spec.apps![app].module) } } };
  const file = join(dir, `${task.replace('/', '-')}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

describe('xrsim rank', () => {
  it('--metric design separates apps that pass every milestone but are not equally comfortable', () => {
    const root = tempDir();
    const dirs = ['reference', 'silent-button', 'far-button'].map((app) => {
      const dir = join(root, app);
      mkdirSync(dir);
      const out = join(dir, 'sweep');
      xrsim('sweep', candidateTask(dir, 'xr/info-kiosk', app), '--seeds', '1', '--scenes', 'empty-lab,office', '--workers', '2', '--out', out);
      return out;
    });
    const r = xrsim('rank', dirs[2], dirs[1], dirs[0], '--names', 'far-button,silent-button,reference', '--metric', 'design', '--json');
    expect(r.code).toBe(0);
    const ranking = r.json;
    expect(ranking.metric).toBe('design');
    // All three pass every milestone: partial credit cannot tell them apart; the design score can.
    expect(ranking.candidates.map((c: { partial: { mean: number } }) => c.partial.mean)).toEqual([1, 1, 1]);
    expect(ranking.candidates.map((c: { name: string }) => c.name)).toEqual(['reference', 'far-button', 'silent-button']);
    expect(ranking.candidates[0].design.mean).toBe(5);
    const text = xrsim('rank', ...dirs, '--by', 'design');
    expect(text.stdout).toMatch(/design 1–5 \[95% CI\]/);
    expect(text.stdout).toMatch(/P\(row beats column\) by design score/);
    const bad = xrsim('rank', ...dirs, '--metric', 'beauty');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--metric must be partial, full-pass, pass@1 or design, got "beauty"/);
    expect(xrsim('rank', ...dirs, '--metric', 'design', '--by', 'partial').stderr).toMatch(/name two metrics/);
  });

  it('ranks the reference apps, one adversarial app swapped in and two swapped in, in that order, with intervals apart', () => {
    const root = tempDir();
    const tasks = ['xr/late-tracking', 'xr/two-hand-frame-photo', 'xr/gaze-dwell-select'];
    const swaps: Record<string, Record<string, string>> = {
      reference: {},
      'one-swapped': { 'xr/late-tracking': 'caches-sources' },
      'two-swapped': { 'xr/late-tracking': 'caches-sources', 'xr/two-hand-frame-photo': 'fixed-rect' },
    };
    const dirs = Object.entries(swaps).map(([name, swapped]) => {
      const dir = join(root, name);
      mkdirSync(dir);
      const files = tasks.map((task) => candidateTask(dir, task, swapped[task] ?? 'reference'));
      const out = join(dir, 'sweep');
      xrsim('sweep', ...files, '--seeds', '1..2', '--scenes', 'empty-lab,office', '--workers', '2', '--out', out);
      return out;
    });
    // Listed worst first: the ranking must find the order itself.
    const html = join(root, 'rank.html');
    const r = xrsim('rank', dirs[2], dirs[0], dirs[1], '--names', 'two-swapped,reference,one-swapped', '--html', html, '--json');
    expect(r.code).toBe(0);
    const ranking = r.json;
    expect(ranking.candidates.map((c: { name: string }) => c.name)).toEqual(['reference', 'one-swapped', 'two-swapped']);
    expect(ranking.candidates.map((c: { rank: number }) => c.rank)).toEqual([1, 2, 3]);
    expect(ranking.candidates[0].sessions).toBe(3 * 2 * 2 * 2);
    // Each app gives the same verdict in every scene, seed and hand: the data leave no doubt, so the intervals
    // do not overlap and the order holds in every resample.
    const [a, b, c] = ranking.candidates;
    expect(a.partial.mean).toBe(1);
    // caches-sources never shows a cursor, so it earns nothing (its no-app-errors guard requires the cursor);
    // fixed-rect passes three of two-hand-frame-photo's four milestones.
    expect(b.partial.mean).toBeCloseTo((0 + 1 + 1) / 3, 12);
    expect(c.partial.mean).toBeCloseTo((0 + 3 / 4 + 1) / 3, 12);
    expect(a.partial.ci95[0]).toBeGreaterThan(b.partial.ci95[1]);
    expect(b.partial.ci95[0]).toBeGreaterThan(c.partial.ci95[1]);
    expect(a.fullPass.mean).toBe(1);
    expect(b.fullPass.mean).toBeCloseTo(2 / 3, 12);
    expect(ranking.wins[0][1]).toBe(1);
    expect(ranking.wins[1][2]).toBe(1);
    expect(a.rankFirst).toBe(1);
    // Pass@1: the reference passes all 3 tasks, one-swapped 2, two-swapped 1.
    expect(ranking.candidates.map((x: { tasksPassed: number }) => x.tasksPassed)).toEqual([3, 2, 1]);
    expect(c.passAt1.mean).toBeCloseTo(1 / 3, 12);
    const byPass = xrsim('rank', ...dirs, '--metric', 'pass@1');
    expect(byPass.code).toBe(0);
    expect(byPass.stdout).toMatch(/P\(row beats column\) by Pass@1/);
    expect(byPass.stdout).toMatch(/1\s+reference\/sweep\s+.*1\.000 \[1\.000, 1\.000\] 3\/3/);
    // The text form and the HTML section.
    const text = xrsim('rank', ...dirs);
    expect(text.stdout).toMatch(/1\s+reference\/sweep\s+1\.000 \[1\.000, 1\.000\]/);
    expect(text.stdout).toMatch(/P\(row beats column\) by partial credit/);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<h2>Ranking</h2>');
    expect(page).toContain('xr/late-tracking');
    expect(page).not.toContain('Pass matrix');
    expect(xrsim('rank', dirs[0]).code).toBe(2);
    expect(xrsim('rank', dirs[0], dirs[1], '--resamples', '100').code).toBe(2);
  }, 600_000); // three real sweeps of 24 sessions each
});
