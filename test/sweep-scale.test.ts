/**
 * Sweeps at scale as CI uses them: killed and resumed, isolating hung and crashing sessions, reproducible
 * across workers and shards, compared against a baseline, and reported as JUnit and HTML.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask } from '../src/index.js';
import { CLI, ROOT, tempDir, xrsim } from './helpers/cli.js';

const resultLines = (dir: string) =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
/** The results as a sorted list of comparable lines (everything but where streams were written and how long sessions took). */
const normalised = (dir: string) => resultLines(dir).map((r) => JSON.stringify({ ...r, stream: r.stream ? 'kept' : null, seconds: undefined })).sort();

/** A copy of a suite task whose reference app (and actors) are given modules. */
function taskFile(dir: string, name: string, task: string, referenceModule: string): string {
  const { spec } = loadTask(task);
  const base = join(ROOT, 'tasks', task);
  const copy = { ...spec, actors: join(base, spec.actors!), apps: { reference: { module: referenceModule } } };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

describe('kill and resume', () => {
  it('a sweep killed with SIGKILL at a random point and run again gives the uninterrupted results', async () => {
    const args = ['sweep', 'xr/poke*', 'xr/palm*', 'physics/stack*', '--seeds', '1..2', '--keep-streams', 'none', '--workers', '2'];
    const whole = tempDir();
    expect(xrsim(...args, '--out', whole).code).toBe(0);
    const killed = tempDir();
    // Kill after a random share of the sessions has been written (not on a line boundary on purpose), with
    // enough left that the sweep cannot finish before the kill lands.
    const total = resultLines(whole).length;
    const after = Number(process.env.XRSIM_KILL_AT ?? 3 + Math.floor(Math.random() * (total - 15)));
    console.log(`kill-and-resume: killing the sweep after ${after} of ${total} results (replay with XRSIM_KILL_AT=${after})`);
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args, '--out', killed], { cwd: ROOT, stdio: 'ignore' });
      const poll = setInterval(() => {
        const path = join(killed, 'results.jsonl');
        const written = existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0;
        if (written >= after) child.kill('SIGKILL');
      }, 5);
      child.on('exit', () => {
        clearInterval(poll);
        resolve();
      });
    });
    expect(resultLines(killed).length).toBeLessThan(resultLines(whole).length);
    expect(xrsim(...args, '--out', killed).code).toBe(0);
    expect(normalised(killed)).toEqual(normalised(whole));
  });
});

describe('isolation', () => {
  // 30 s: the limit applies to every session, and on a loaded 2-core machine stack-settle alone has needed over 10 s.
  it('a hung session and a crashed worker are errored with reasons; every other session finishes', () => {
    const dir = tempDir();
    const hangs = taskFile(dir, 'hangs', 'xr/poke-button', join(ROOT, 'test/fixtures/apps/infinite-loop.mjs'));
    const exits = taskFile(dir, 'exits', 'xr/poke-button', join(ROOT, 'test/fixtures/apps/exits.mjs'));
    const out = join(dir, 'out');
    const r = xrsim('sweep', hangs, exits, 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--workers', '2', '--time-limit', '30', '--out', out, '--json');
    expect(r.code).toBe(1);
    const byTask = new Map(resultLines(out).map((l) => [l.task, l]));
    expect(byTask.get('physics/stack-settle').status).toBe('passed');
    const hung = resultLines(out).find((l) => l.error?.kind === 'timeout');
    const crashed = resultLines(out).find((l) => l.error?.kind === 'crash');
    expect(hung?.error.message).toMatch(/did not finish within its 30 s time limit/);
    expect(crashed?.error.message).toMatch(/exit/i);
    expect(r.json).toMatchObject({ sessions: 3, passed: 1, errored: 2 });
  });
});

describe('determinism across workers and shards', () => {
  it('verify reports every hash identical across 1 and 2 workers, and shards cover the matrix exactly once', () => {
    const args = ['sweep', 'xr/gaze*', 'xr/late*', 'physics/cube*', '--seeds', '1', '--keep-streams', 'all'];
    const whole = tempDir();
    expect(xrsim(...args, '--workers', '1', '--out', whole).code).toBe(0);
    const verify = xrsim('verify', whole, '--workers', '2', '--json');
    expect(verify.code).toBe(0);
    expect(verify.json).toMatchObject({ mismatches: [], identical: resultLines(whole).length });
    const shards = [1, 2, 3].map((k) => {
      const out = tempDir();
      expect(xrsim(...args, '--shard', `${k}/3`, '--workers', '2', '--out', out).code).toBe(0);
      return resultLines(out);
    });
    const union = shards.flat().map((l) => `${l.key} ${l.hash}`).sort();
    expect(union).toEqual(resultLines(whole).map((l) => `${l.key} ${l.hash}`).sort());
    expect(new Set(union).size).toBe(union.length);
  });

  it('flaky in repeat mode finds no flips on the default suite', () => {
    const r = xrsim('flaky', '--seeds', '1', '--runs', '2', '--out', tempDir(), '--json');
    expect(r.code).toBe(0);
    expect(r.json.flipRate).toBe(0);
    expect(r.json.pairFlipRate).toBe(0);
    expect(r.json.pairs).toBeGreaterThanOrEqual(15);
    expect(r.json.milestones).toEqual([]);
    expect(r.json.hashMismatches).toEqual([]);
    expect(r.json.candidates).toBeGreaterThanOrEqual(2 * 15 * 2);
  });

  it('flaky in perturbation mode re-draws perturbations and reports per task and milestone', () => {
    const r = xrsim('flaky', 'xr/poke*', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--perturb', '--runs', '3', '--out', tempDir(), '--json');
    expect(r.json.mode).toBe('perturbation');
    expect(r.json.tasks).toEqual([{ task: 'xr/poke-button', candidates: 1, flipped: expect.any(Number), flipRate: expect.any(Number) }]);
    // Other perturbations, other frames: the three runs' hashes differ.
    expect(r.json.hashMismatches).toHaveLength(1);
  });
});

describe('compare', () => {
  it('flags a regression (an adversarial app swapped in for the reference) and exits 1', () => {
    const dir = tempDir();
    const apps = join(ROOT, 'tasks/xr/poke-button/apps');
    const base = join(dir, 'base');
    const cand = join(dir, 'cand');
    mkdirSync(base);
    mkdirSync(cand);
    const args = ['--seeds', '1', '--hands', 'right', '--scenes', 'office,kitchen'];
    expect(xrsim('sweep', taskFile(base, 'task', 'xr/poke-button', join(apps, 'reference.mjs')), ...args, '--out', join(base, 'out')).code).toBe(0);
    expect(xrsim('sweep', taskFile(cand, 'task', 'xr/poke-button', join(apps, 'counts-frames.mjs')), ...args, '--out', join(cand, 'out')).code).toBe(1);
    const r = xrsim('compare', join(base, 'out'), join(cand, 'out'), '--json');
    expect(r.code).toBe(1);
    expect(r.json.regressions).toHaveLength(2);
    expect(r.json.regressions[0].lost).toEqual(['counts-every-press', 'no-double-counts']);
    expect(r.json.scoreChanges.length).toBeGreaterThan(0);
    // The same sweep against itself: nothing changed, exit 0.
    expect(xrsim('compare', join(base, 'out'), join(base, 'out')).code).toBe(0);
  });
});

describe('bad input leaves what is written untouched', () => {
  it.each([
    [['--shard', '3/2'], /--shard must be K\/N/],
    [['--apps', 'no-such-app'], /no task has an app named "no-such-app"/],
    [['--keep-streams', 'some'], /--keep-streams/],
  ])('refuses %j with exit 2', (args, message) => {
    const r = xrsim('sweep', ...args, '--out', join(tempDir(), 'out'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('refuses an unwritable --out', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    const r = xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--out', join(file, 'out'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write to --out/);
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });
});

describe('streams and reports', () => {
  it('keeps only failed sessions’ streams by default, and writes JUnit XML per session and milestone', () => {
    const out = tempDir();
    const junit = join(out, 'junit.xml');
    // The in-process apps (`all` would add the task's browser apps).
    const r = xrsim('sweep', 'xr/poke*', '--apps', 'process', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--out', out, '--junit', junit);
    expect(r.code).toBe(0); // the adversarial apps fail, as expected
    const lines = resultLines(out);
    const failed = lines.filter((l) => l.status === 'failed');
    // The reference passes; counts-frames and hover-press each fail two of the five milestones, and out-of-reach
    // (no press ever lands) all five.
    expect(failed.length).toBe(3);
    expect(readdirSync(join(out, 'streams')).sort()).toEqual(failed.map((l) => `${l.key}.xrs`).sort());
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<!-- JUnit report written by xrsim -->\n<testsuites name="[^"]*" tests="20" failures="9" errors="0" time="\d+\.\d{3}">/);
    expect(xml).toMatch(/<testcase classname="xr\/poke-button" name="counts-frames · office · seed 1 · right hand › counts-every-press" time="\d+\.\d{3}"><failure type="milestone" message="counts-every-press: metric \d+, needed exactly 5">/);
    expect((xml.match(/<testcase /g) ?? []).length).toBe(20);
  });
});
