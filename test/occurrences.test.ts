/**
 * Checks at every occurrence (issue 37, item 3): a moment-measured check (`distance-at`, `comfort`) with
 * `occurrence` measures the first occurrence of its event (default), the Nth, the last, or each one, where
 * the worst counts: a second ball spawned at the wrist fails "every ball spawns at the pinch point".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FrameView } from '../src/frame/frame.js';
import { loadTask, runSession } from '../src/index.js';
import { ROOT } from './helpers/cli.js';
import { momentValidator, type Occurrence, type ValidatorContext } from '../src/validate/xr-context.js';

/** Runs a check over 8 frames whose event `app:spawned` comes at `at` ticks, measuring `values[tick]`. */
function run(occurrence: Occurrence | undefined, at: number[], values: (number | null)[], pass: 'atMost' | 'atLeast' = 'atMost') {
  const events: { name: string }[] = [];
  const ctx = { dominantHand: 'right', state: { events } } as unknown as ValidatorContext;
  const validator = momentValidator('distance-at', ctx, 'app:spawned', [{ id: 'at-pinch', threshold: 0.02 }], pass, (frame) => values[frame.tick] ?? null, occurrence);
  for (let tick = 0; tick < 8; tick++) {
    events.length = 0;
    if (at.includes(tick)) events.push({ name: 'app:spawned' });
    validator.observe({ tick, time: tick / 90 } as FrameView);
  }
  const [m] = validator.finish();
  return { passed: m.passed, metric: m.metric, ticks: m.ticks };
}

// Spawns at ticks 1, 3 and 5: the first and last at the pinch point, the second 15 cm away (at the wrist).
const SPAWNS = [1, 3, 5];
const DISTANCES = [null, 0.005, null, 0.15, null, 0.01, null, null];

describe('occurrence', () => {
  it('first (the default) sees only the first spawn, and passes', () => {
    expect(run(undefined, SPAWNS, DISTANCES)).toEqual({ passed: true, metric: 0.005, ticks: [1] });
    expect(run('first', SPAWNS, DISTANCES)).toEqual({ passed: true, metric: 0.005, ticks: [1] });
  });

  it('each holds every spawn to it: the wrist spawn fails it, and its tick is the first evidence', () => {
    expect(run('each', SPAWNS, DISTANCES)).toEqual({ passed: false, metric: 0.15, ticks: [3, 1, 5] });
    expect(run('each', SPAWNS, [null, 0.005, null, 0.01, null, 0.002, null, null])).toMatchObject({ passed: true, metric: 0.01 });
  });

  it('the Nth and the last measure that one only', () => {
    expect(run(2, SPAWNS, DISTANCES)).toEqual({ passed: false, metric: 0.15, ticks: [3] });
    expect(run(3, SPAWNS, DISTANCES)).toEqual({ passed: true, metric: 0.01, ticks: [5] });
    expect(run('last', SPAWNS, DISTANCES)).toEqual({ passed: true, metric: 0.01, ticks: [5] });
    expect(run(4, SPAWNS, DISTANCES).passed).toBe(false); // there is no 4th
  });

  it('no occurrence at all, or one that cannot be measured, fails: no free credit', () => {
    expect(run('each', [], DISTANCES)).toMatchObject({ passed: false, ticks: [] });
    expect(run('each', [1, 2, 3], DISTANCES)).toMatchObject({ passed: false, ticks: [2, 1, 3] });
  });

  it('for atLeast the smallest occurrence is the worst', () => {
    expect(run('each', SPAWNS, DISTANCES, 'atLeast')).toMatchObject({ passed: false, metric: 0.005, ticks: [1, 3, 5] });
  });
});

describe('speed at each occurrence', () => {
  it('measures every release: the slowest throw counts', async () => {
    const { spec } = loadTask('xr/pinch-spawn-ball');
    const base = join(ROOT, 'tasks/xr/pinch-spawn-ball');
    const module = join(base, (spec.apps!.reference as { module: string }).module);
    const task = (occurrence: unknown) => ({
      ...spec,
      actors: join(base, spec.actors!),
      apps: { reference: { module } },
      validators: spec.validators.filter((v) => v.type === 'speed').map((v) => ({ ...v, occurrence })),
    });
    // The reference throws once: first, each and last measure that one throw alike.
    const [first, each, last] = await Promise.all(['first', 'each', 'last'].map((o) => runSession({ task: task(o), seed: 1 })));
    expect(first.status).toBe('passed');
    expect(each.milestones[0]).toEqual(first.milestones[0]);
    expect(last.milestones[0]).toEqual(first.milestones[0]);
    // A second release that never comes fails the Nth.
    const second = await runSession({ task: task(2), seed: 1 });
    expect(second.status).toBe('failed');
    expect(second.milestones[0]).toMatchObject({ passed: false, metric: null });
  });
});

describe('occurrence in a task', () => {
  it('is accepted by the schema where a check has a moment, and refused elsewhere', async () => {
    const { spec } = loadTask('xr/pinch-spawn-ball');
    const base = join(ROOT, 'tasks/xr/pinch-spawn-ball');
    const apps = Object.fromEntries(Object.entries(spec.apps!).filter(([, a]) => 'module' in a).map(([n, a]) => [n, { ...a, module: join(base, (a as { module: string }).module) }]));
    const withOccurrence = (occurrence: unknown) => ({
      ...spec,
      actors: join(base, spec.actors!),
      apps,
      validators: spec.validators.map((v) => (v.type === 'distance-at' ? { ...v, occurrence } : v)),
    });
    const each = await runSession({ task: withOccurrence('each'), seed: 1 });
    expect(each.status).toBe('passed');
    const bad = await runSession({ task: withOccurrence('every'), seed: 1 });
    expect(bad.status).toBe('errored');
    expect(bad.error).toMatchObject({ kind: 'bad-input', jsonPath: expect.stringMatching(/^\$\.validators\[\d+\]/) });
  });
});

