/**
 * Candidate apps given by path (issue 37, item 1): a task meant for generated apps lists none of its own
 * (`"apps": {}`, no reference), `--apps` takes paths and globs, each result carries the candidate's path and
 * content digest, and the sweep's summary and JUnit report are per candidate too.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandCandidates, isCandidateChoice, splitAppChoices } from '../src/sweep/candidates.js';
import { loadTask } from '../src/task/load.js';
import { readResultLines, ROOT, tempDir, xrsim } from './helpers/cli.js';

const APPS = join(ROOT, 'tasks/xr/poke-button/apps');

/** poke-button's spec, actors and validators, written as a task for candidates: no apps of its own. */
function candidateTask(): string {
  const { spec } = loadTask('xr/poke-button');
  const file = join(tempDir(), 'task.json');
  writeFileSync(file, JSON.stringify({ ...spec, id: 'bench/poke-button', actors: join(ROOT, 'tasks/xr/poke-button', spec.actors!), apps: {} }));
  return file;
}

describe('--apps by path and glob', () => {
  it('tells paths, globs and URLs from app names', () => {
    for (const name of ['reference', 'all', 'process', 'browser', 'counts-frames', 'web-reference']) expect(isCandidateChoice(name), name).toBe(false);
    for (const path of ['./app.mjs', 'candidates/*/', '/abs/page.html', 'http://127.0.0.1:8080/', 'app.mjs']) expect(isCandidateChoice(path), path).toBe(true);
  });

  it('splits a comma list, keeping the commas of braces in their glob', () => {
    expect(splitAppChoices('reference, ./a/{x,y}.mjs,web-reference')).toEqual(['reference', './a/{x,y}.mjs', 'web-reference']);
  });

  it('expands a glob in sorted order, folders only with a trailing slash, and refuses one that matches nothing', () => {
    expect(expandCandidates('{reference,counts-frames}.mjs', APPS)).toEqual([join(APPS, 'counts-frames.mjs'), join(APPS, 'reference.mjs')]);
    expect(expandCandidates('*.mjs', APPS)).toHaveLength(5);
    const web = join(ROOT, 'tasks/xr/poke-button');
    expect(expandCandidates('*/', web)).toEqual([join(web, 'apps'), join(web, 'web')]);
    expect(() => expandCandidates('*.html', APPS)).toThrow(/--apps \*\.html matches no app/);
    expect(() => expandCandidates('./missing.mjs', APPS)).toThrow(/no candidate app at \.\/missing\.mjs/);
    expect(expandCandidates('http://127.0.0.1:9/x.html')).toEqual(['http://127.0.0.1:9/x.html']);
    // A link to nothing is skipped, not a crash.
    const dir = tempDir();
    symlinkSync(join(dir, 'missing'), join(dir, 'dangling.mjs'));
    writeFileSync(join(dir, 'real.mjs'), 'export function frame() {}\n');
    expect(expandCandidates('*.mjs', dir)).toEqual([join(dir, 'real.mjs')]);
  });
});

describe('a task for candidate apps', () => {
  it('needs no reference app, and run without an app is bad input saying what to give', () => {
    const task = candidateTask();
    expect(loadTask(task).spec.apps).toEqual({});
    const r = xrsim('run', '--task', task);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/task "bench\/poke-button" is for candidate apps \(its "apps" is empty\): name the app to test/);
  });

  it('sweeps every candidate a glob names; results carry its path and digest; the summary is per candidate', () => {
    const task = candidateTask();
    const out = join(tempDir(), 'out');
    const r = xrsim('sweep', task, '--apps', join(APPS, '{reference,counts-frames}.mjs'), '--seeds', '1', '--hands', 'both', '--scenes', 'office', '--out', out, '--json');
    // counts-frames is a candidate like any other here: nothing expects it to fail.
    expect(r.code, r.stderr).toBe(1);
    const reference = join(APPS, 'reference.mjs');
    const countsFrames = join(APPS, 'counts-frames.mjs');
    expect(r.json.apps).toEqual([
      { app: countsFrames, sessions: 2, passed: 0, failed: 2, errored: 0, passAt1: { passed: 0, of: 1 } },
      { app: reference, sessions: 2, passed: 2, failed: 0, errored: 0, passAt1: { passed: 1, of: 1 } },
    ]);
    expect(r.json).toMatchObject({ sessions: 4, unexpected: 2, passAt1: { passed: 1, of: 2 } });
    const lines = readResultLines(out);
    expect(new Set(lines.map((l) => l.app))).toEqual(new Set([reference, countsFrames]));
    for (const line of lines) expect(line.appSha256).toMatch(/^[0-9a-f]{64}$/);
    const digests = new Map(lines.map((l) => [l.app, l.appSha256]));
    expect(digests.get(reference)).not.toBe(digests.get(countsFrames));
    // The text summary puts the candidates side by side.
    const text = xrsim('sweep', task, '--apps', join(APPS, '{reference,counts-frames}.mjs'), '--seeds', '1', '--hands', 'both', '--scenes', 'office', '--out', out);
    expect(text.stdout).toMatch(/reference\.mjs\s+2\s+2\s+0\s+0\s+1\/1/);
    expect(text.stdout).toMatch(/counts-frames\.mjs\s+2\s+0\s+2\s+0\s+0\/1/);
    // JUnit: a test suite per task and candidate.
    const junit = join(tempDir(), 'junit.xml');
    const html = join(tempDir(), 'report.html');
    expect(xrsim('sweep', task, '--apps', join(APPS, '{reference,counts-frames}.mjs'), '--seeds', '1', '--hands', 'both', '--scenes', 'office', '--out', out, '--junit', junit, '--html', html).code).toBe(1);
    // HTML: the candidates side by side, each with its Pass@1.
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<h2>Candidates</h2>');
    expect(page).toContain(`<tr><td class="name">${countsFrames}</td><td>0/2</td><td>0/1</td></tr>`);
    expect(page).toContain(`<tr><td class="name">${reference}</td><td>2/2</td><td>1/1</td></tr>`);
    const suites = [...readFileSync(junit, 'utf8').matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)"/g)].map((m) => [m[1], Number(m[3]) > 0]);
    expect(suites).toEqual([
      [`bench/poke-button · ${countsFrames}`, true],
      [`bench/poke-button · ${reference}`, false],
    ]);
    // One sweep of several candidates ranks them, by Pass@1 here.
    const ranked = xrsim('rank', out, '--metric', 'pass@1', '--json');
    expect(ranked.code, ranked.stderr).toBe(0);
    expect(ranked.json.candidates.map((c: { name: string; tasksPassed: number }) => [c.name, c.tasksPassed])).toEqual([
      ['reference.mjs', 1],
      ['counts-frames.mjs', 0],
    ]);
  });

  it('rank refuses one sweep folder of a single app', () => {
    const out = join(tempDir(), 'one');
    expect(xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--out', out).code).toBe(0);
    const r = xrsim('rank', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds the sweep of one app: ranking needs two or more candidates/);
  });
});
