/**
 * The sweep knows what was expected (issue 37, item 6): a reference app passes, an adversarial app fails
 * exactly its `expectFail` milestones (only with its `failsWithHand`, when set), and a sweep whose sessions
 * all do what their apps are expected to exits 0, saying how many failed as expected.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFailures, isAsExpected, type AppEntries } from '../src/sweep/expectations.js';
import { loadTask } from '../src/task/load.js';
import type { Milestone } from '../src/validate/types.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const APPS: AppEntries = {
  reference: { module: 'apps/reference.mjs' },
  'counts-frames': { module: 'apps/counts-frames.mjs', expectFail: ['a', 'b'], category: 'boolean-touch' },
  'right-only': { module: 'apps/right-only.mjs', expectFail: ['c'], category: 'either-hand', failsWithHand: 'left' },
};

/** A result with milestones `ids`, those in `failing` failed. */
function result(ids: string[], failing: string[], status?: 'errored') {
  const milestones = ids.map((id) => ({ id, passed: !failing.includes(id) }) as Milestone);
  return { status: status ?? (failing.length ? ('failed' as const) : ('passed' as const)), milestones };
}

describe('what each app is expected to do', () => {
  it('expects the reference, an unknown app and a task without apps to pass', () => {
    expect(expectedFailures(APPS, 'reference', 'right')).toEqual([]);
    expect(expectedFailures(APPS, './candidate/app.mjs', 'right')).toEqual([]);
    expect(expectedFailures(APPS, 'constructor', 'right')).toEqual([]);
    expect(expectedFailures(undefined, null, 'left')).toEqual([]);
  });

  it("expects an adversarial app's expectFail, with failsWithHand only for that hand", () => {
    expect(expectedFailures(APPS, 'counts-frames', 'left')).toEqual(['a', 'b']);
    expect(expectedFailures(APPS, 'right-only', 'left')).toEqual(['c']);
    expect(expectedFailures(APPS, 'right-only', 'right')).toEqual([]);
  });

  it('holds a session to exactly its expected failures: no more, no fewer, never errored', () => {
    const ids = ['a', 'b', 'c'];
    expect(isAsExpected(result(ids, []), [])).toBe(true);
    expect(isAsExpected(result(ids, ['a']), [])).toBe(false);
    expect(isAsExpected(result(ids, ['b', 'a']), ['a', 'b'])).toBe(true);
    expect(isAsExpected(result(ids, ['a']), ['a', 'b'])).toBe(false);
    expect(isAsExpected(result(ids, ['a', 'b', 'c']), ['a', 'b'])).toBe(false);
    expect(isAsExpected(result(ids, []), ['a', 'b'])).toBe(false);
    expect(isAsExpected(result(ids, [], 'errored'), [])).toBe(false);
    expect(isAsExpected(result(ids, ['a', 'b'], 'errored'), ['a', 'b'])).toBe(false);
  });
});

const MATRIX = ['--seeds', '1', '--hands', 'right', '--scenes', 'office', '--json'];

describe('xrsim sweep with adversarial apps', () => {
  it('exits 0 when every adversarial app fails exactly what it should, and counts them', () => {
    const out = join(tempDir(), 'out');
    const r = xrsim('sweep', 'xr/poke-button', '--apps', 'process', ...MATRIX, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const adversarial = Object.values(loadTask('xr/poke-button').spec.apps!).filter((a) => a.expectFail?.length && !('dir' in a));
    expect(r.json).toMatchObject({ sessions: adversarial.length + 1, passed: 1, failed: adversarial.length, failedAsExpected: adversarial.length, unexpected: 0 });
    expect(r.json.tasks[0]).toMatchObject({ task: 'xr/poke-button', unexpected: 0 });
    // Pass@1 counts (task, app) pairs: only the reference passed every session of its pair.
    expect(r.json.passAt1).toEqual({ passed: 1, of: adversarial.length + 1 });
  });

  it('exits 1 and counts the session when an app fails other milestones than it should', () => {
    const dir = tempDir();
    const { spec } = loadTask('xr/poke-button');
    const base = join(ROOT, 'tasks/xr/poke-button');
    const apps = Object.fromEntries(Object.entries(spec.apps!).filter(([, a]) => 'module' in a).map(([name, a]) => [name, { ...a, module: join(base, (a as { module: string }).module) }]));
    // counts-frames fails counts-every-press and no-double-counts: say it fails only the first.
    apps['counts-frames'] = { ...apps['counts-frames'], expectFail: ['counts-every-press'] };
    const file = join(dir, 'task.json');
    writeFileSync(file, JSON.stringify({ ...spec, actors: join(base, spec.actors!), apps }));
    const r = xrsim('sweep', file, '--apps', 'reference,counts-frames', ...MATRIX, '--out', join(dir, 'out'));
    expect(r.code, r.stderr).toBe(1);
    expect(r.json).toMatchObject({ sessions: 2, passed: 1, failed: 1, failedAsExpected: 0, unexpected: 1 });
    const text = xrsim('sweep', file, '--apps', 'reference,counts-frames', ...MATRIX.slice(0, -1), '--out', join(dir, 'out'));
    expect(text.stdout).toMatch(/1\/2 sessions passed, 1 failed, 0 errored; 1 not as expected/);
    expect(text.stdout).toMatch(/Pass@1: 1\/2 \(task, app\) pairs passed every session/);
  });
});
