/**
 * The app host and the actors as a harness sees them: closed-loop tags, app errors recorded as events,
 * runaway apps stopped by the time limit without taking the worker down, actor failures as events, and
 * malformed task definitions rejected with the path.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession, decodeEvents, loadTask, runSession, StreamReader, type SessionSpec } from '../src/index.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { runSessionIsolated } from '../src/session/isolated.js';
import { createSessionPool } from '../src/session/pool.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const fixture = (name: string) => join(ROOT, 'test/fixtures/apps', name);

describe('semantic tags are closed-loop', () => {
  it('an app that moves its tagged button every second is still pressed by poke(tag("button"))', async () => {
    // Re-aiming after a jump takes time: give the five pokes longer than the task's 9 s.
    const result = await runSession({ task: 'xr/poke-button', app: fixture('moving-button.mjs'), seed: 1, duration: 16 });
    const counted = result.milestones.find((m) => m.id === 'counts-every-press')!;
    expect(counted.metric).toBe(5);
    expect(result.milestones.find((m) => m.id === 'physical-presses-at-most-five')!.metric).toBe(5);
  });
});

describe('errors are classified', () => {
  it('an app that throws every frame is failed, with an app-error event per frame and the frames going on', async () => {
    const path = join(tempDir(), 'throws.xrs');
    const result = await runSession({ task: 'xr/poke-button', app: fixture('throws.mjs'), seed: 1, record: { path } });
    expect(result.status).toBe('failed');
    expect(result.ticks).toBe(loadTask('xr/poke-button').spec.duration * 90);
    const reader = StreamReader.open(path);
    let errors = 0;
    let first: { message: string; stack: string; phase: string } | null = null;
    for (const frame of reader.framesInOrder()) {
      for (const e of decodeEvents(frame.events, frame.eventWords)) {
        if (e.name !== 'app-error') continue;
        errors++;
        first ??= readJsonPayload(e.payload, 0);
      }
    }
    reader.close();
    expect(errors).toBe(result.ticks + 1);
    expect(first!.phase).toBe('frame');
    expect(first!.message).toMatch(/Cannot read properties of undefined/);
    // The stack names the app's file, never where the checkout lives (streams must not depend on it).
    expect(first!.stack).toMatch(/throws\.mjs/);
    expect(first!.stack).not.toContain(ROOT);
  });

  it('an app stuck in an infinite loop is errored (timeout), and the worker pool goes on', async () => {
    const pool = createSessionPool({ workers: 1 });
    try {
      const stuck = (await pool.run({ task: 'xr/poke-button', app: fixture('infinite-loop.mjs'), seed: 1 }, { timeLimitSeconds: 3 })).result;
      expect(stuck.status).toBe('errored');
      expect(stuck.error?.kind).toBe('timeout');
      // The same pool runs the next session normally.
      const next = (await pool.run({ task: 'xr/poke-button', seed: 1 }, { timeLimitSeconds: 60 })).result;
      expect(next.status).toBe('passed');
      expect(pool.stats.timedOut).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('xrsim run reports a runaway app as errored with exit 1, not as a verdict', () => {
    const r = xrsim('run', '--task', 'xr/poke-button', '--app', fixture('infinite-loop.mjs'), '--time-limit', '3', '--json');
    expect(r.code).toBe(1);
    expect(r.json.status).toBe('errored');
    expect(r.json.error.kind).toBe('timeout');
  });

  it('an unresolvable tag is an actor-failure event, and the session still completes', async () => {
    const session = await createSession({ task: 'xr/poke-button', app: fixture('no-tags.mjs'), seed: 1 });
    const result = await session.run();
    expect(result.status).toBe('failed');
    expect(session.actors!.failures.length).toBeGreaterThan(0);
    expect(session.actors!.failures[0]).toMatchObject({ reason: 'tag(button) cannot be resolved' });
  });

  it('runs an isolated session to the same hash as an in-process one', async () => {
    const spec: SessionSpec = { task: 'xr/gaze-dwell-select', seed: 4 };
    const [inProcess, isolated] = [await runSession(spec), await runSessionIsolated(spec)];
    expect(isolated.hash).toBe(inProcess.hash);
  });
});

describe('malformed task definitions exit 2 with the path', () => {
  const withApps = (apps: object, extra: object = {}) => {
    const task = { ...loadTask('xr/poke-button').spec, id: 'test/bad-apps', apps, ...extra };
    const dir = tempDir();
    const file = join(dir, 'task.json');
    writeFileSync(file, JSON.stringify(task));
    return file;
  };
  const cases: [string, string, RegExp][] = [
    ['no reference app', withApps({ other: { module: 'x.mjs' } }), /at \$\.apps: the task lists apps but no "reference" app/],
    ['an expected failure that is no milestone', withApps({ reference: { module: join(ROOT, 'tasks/xr/poke-button/apps/reference.mjs') }, broken: { module: 'x.mjs', expectFail: ['flies'], category: 'ergonomics' } }), /at \$\.apps\.broken\.expectFail\[0\]: unknown milestone "flies"/],
    ['an adversarial app without a failure category', withApps({ reference: { module: join(ROOT, 'tasks/xr/poke-button/apps/reference.mjs') }, broken: { module: 'x.mjs', expectFail: ['no-double-counts'] } }), /at \$\.apps\.broken: an adversarial app needs a category/],
    ['a category that is not one', withApps({ reference: { module: join(ROOT, 'tasks/xr/poke-button/apps/reference.mjs') }, broken: { module: 'x.mjs', expectFail: ['no-double-counts'], category: 'clumsiness' } }), /at \$\.apps\.broken\.category/],
    ['a failure category on the reference', withApps({ reference: { module: join(ROOT, 'tasks/xr/poke-button/apps/reference.mjs'), category: 'ergonomics' } }), /at \$\.apps\.reference\.category: only an app that is expected to fail/],
    ['a missing actor script', withApps({ reference: { module: join(ROOT, 'tasks/xr/poke-button/apps/reference.mjs') } }, { actors: 'nowhere.mjs' }), /at \$\.actors: module not found/],
    ['a subject that is not one', withApps({ reference: { module: join(ROOT, 'tasks/xr/poke-button/apps/reference.mjs') } }, { actors: join(ROOT, 'tasks/xr/poke-button/actors.mjs'), validators: [{ type: 'presence', subject: 'hand:middle:index-tip', milestones: [{ id: 'x', threshold: 1 }] }] }), /at \$\.validators\[0\]\.subject: unknown hand "middle"/],
  ];
  for (const [what, file, message] of cases) {
    it(what, () => {
      const r = xrsim('run', '--task', file, '--json');
      expect(r.code).toBe(2);
      expect(r.json.error.message).toMatch(message);
    });
  }

  it('an unknown app name lists the task\'s apps', () => {
    const r = xrsim('run', '--task', 'xr/poke-button', '--app', 'nope', '--json');
    expect(r.code).toBe(2);
    expect(r.json.error.message).toMatch(/task "xr\/poke-button" has no app "nope"/);
    expect(r.json.error.message).toMatch(/reference, counts-frames, out-of-reach/);
  });
});

describe('the adaptive actor and hit-test sources', () => {
  const task = () => ({
    ...loadTask('xr/poke-button').spec,
    id: 'test/find',
    duration: 8,
    user: { posture: 'seated' as const, start: { position: [0, 0, 0.35] as [number, number, number], yawDeg: 0 } },
    sensing: { planes: true },
    actors: join(ROOT, 'test/fixtures/actors/find-target.mjs'),
    apps: { reference: { module: join(ROOT, 'test/fixtures/apps/behind-target.mjs') } },
    validators: [
      { type: 'distance-at' as const, a: 'hand:dominant:index-tip', b: 'tag:target', at: 7.5, milestones: [{ id: 'touches-target', threshold: 0.03 }] },
      { type: 'visible' as const, subject: 'tag:target', window: [7, 8] as [number, number], milestones: [{ id: 'looks-at-target', threshold: 1 }] },
    ],
  });

  it('find(tag) scans until the tagged object is in view, then reaches it', async () => {
    for (const hand of ['right', 'left'] as const) {
      const session = await createSession({ task: task(), seed: 1, dominantHand: hand });
      const result = await session.run();
      expect(session.actors!.failures).toEqual([]);
      expect(result.milestones.map((m) => [m.id, m.passed])).toEqual([['touches-target', true], ['looks-at-target', true]]);
    }
  });

  it('a viewer hit-test source reports the detected plane ahead, frame by frame', async () => {
    const session = await createSession({ task: task(), seed: 1 });
    const hits: { label: string | null }[] = [];
    await session.run({
      onFrame(frame) {
        for (const e of decodeEvents(frame.events, frame.eventWords)) if (e.name === 'app-event') hits.push(readJsonPayload<{ name: string; data: { label: string | null } }>(e.payload, 0).data);
      },
    });
    // Level gaze at the bench: the wall behind it; the scan looks 20° down: the bench top, then across the
    // room the floor.
    expect(hits.map((h) => h.label)).toEqual(['wall', 'table', 'floor']);
  });
});
