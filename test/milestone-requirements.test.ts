/**
 * Milestone requirements (`requires`): a milestone passes only when the milestones it requires passed, and
 * earns no more than they did; the loader refuses unknown ids, self-references and cycles with the file
 * and JSON path; every shipped guard carries its requirement.
 */
import { describe, expect, it } from 'vitest';
import { listTaskIds, loadTask, runSession, validateTask, XrsimInputError, type Milestone, type TaskSpec } from '../src/index.js';
import { applyRequirements } from '../src/validate/requirements.js';

const milestone = (id: string, passed: boolean, score: number): Milestone => ({
  id, passed, score, metric: 0, threshold: 1, comparison: 'atMost', ticks: [3], validator: 'event-count',
});

describe('scoring with requirements', () => {
  it('fails a guard whose requirement failed, capping its score at the requirement\'s, with a note', () => {
    const [guard, presses] = applyRequirements(
      [milestone('no-double-counts', true, 1), milestone('counts-every-press', false, 0.6)],
      [{ id: 'no-double-counts', threshold: 5, requires: ['counts-every-press'] }, { id: 'counts-every-press', threshold: 5 }],
    );
    expect(guard).toMatchObject({ id: 'no-double-counts', passed: false, score: 0.6, ticks: [3], note: 'requires "counts-every-press", which did not pass' });
    expect(presses).toMatchObject({ passed: false, score: 0.6 });
  });

  it('leaves a milestone whose requirements passed as it was, and follows chains in any order', () => {
    const specs = [
      { id: 'c', threshold: 1, requires: ['b'] },
      { id: 'b', threshold: 1, requires: ['a'] },
      { id: 'a', threshold: 1 },
      { id: 'd', threshold: 1, requires: ['a'] },
    ];
    const passing = applyRequirements([milestone('c', true, 1), milestone('b', true, 1), milestone('a', true, 1), milestone('d', false, 0.4)], specs);
    expect(passing.map((m) => [m.id, m.passed, m.score])).toEqual([['c', true, 1], ['b', true, 1], ['a', true, 1], ['d', false, 0.4]]);
    const broken = applyRequirements([milestone('c', true, 1), milestone('b', true, 1), milestone('a', false, 0.25), milestone('d', true, 1)], specs);
    expect(broken.map((m) => [m.id, m.passed, m.score])).toEqual([['c', false, 0.25], ['b', false, 0.25], ['a', false, 0.25], ['d', false, 0.25]]);
  });

  it('keeps partial credit for real partial progress: a guard earns what the behaviour it guards earned', () => {
    const [guard] = applyRequirements([milestone('guard', false, 0.9), milestone('behaviour', false, 0.5)], [{ id: 'guard', threshold: 0, requires: ['behaviour'] }, { id: 'behaviour', threshold: 1 }]);
    expect(guard.score).toBe(0.5);
    const [own] = applyRequirements([milestone('guard', false, 0.2), milestone('behaviour', false, 0.5)], [{ id: 'guard', threshold: 0, requires: ['behaviour'] }, { id: 'behaviour', threshold: 1 }]);
    expect(own.score).toBe(0.2);
    expect(own.note).toMatch(/requires "behaviour"/);
  });

  it('scores a shipped task: the app that puts the button out of reach loses the press guards it passed vacuously', async () => {
    const result = await runSession({ task: 'xr/poke-button', app: 'out-of-reach', seed: 1 });
    const byId = Object.fromEntries(result.milestones.map((m) => [m.id, m]));
    expect(byId['pressed-at-least-once']).toMatchObject({ passed: false, metric: 0, score: 0 });
    expect(byId['no-double-counts']).toMatchObject({ passed: false, metric: 0, score: 0, note: 'requires "pressed-at-least-once", which did not pass' });
    // Partial credit survives where there was progress: the button exists, just too far away.
    expect(byId['button-within-reach'].score).toBeGreaterThan(0.5);
  });
});

describe('the loader checks requirements', () => {
  const task = (milestones: object[][]): TaskSpec => ({
    ...loadTask('xr/poke-button').spec,
    id: 'test/requires',
    apps: undefined,
    validators: milestones.map((ms) => ({ type: 'event-count', event: 'app:x', milestones: ms })),
  }) as TaskSpec;
  const refused = (spec: TaskSpec): XrsimInputError => {
    try {
      validateTask(spec, 'my-task.json');
    } catch (e) {
      expect(e).toBeInstanceOf(XrsimInputError);
      return e as XrsimInputError;
    }
    throw new Error('the task was accepted');
  };

  it('refuses a requirement that names no milestone of the task, with the file and JSON path', () => {
    const e = refused(task([[{ id: 'a', threshold: 1 }], [{ id: 'b', threshold: 0, requires: ['a', 'z'] }]]));
    expect(e.file).toBe('my-task.json');
    expect(e.jsonPath).toBe('$.validators[1].milestones[0].requires[1]');
    expect(e.message).toMatch(/unknown milestone "z"/);
    expect(e.expected).toMatch(/a, b/);
  });

  it('refuses a milestone that requires itself', () => {
    const e = refused(task([[{ id: 'a', threshold: 1, requires: ['a'] }]]));
    expect(e.jsonPath).toBe('$.validators[0].milestones[0].requires[0]');
    expect(e.message).toMatch(/"a" requires itself/);
  });

  it('refuses a cycle, naming it and the requirement that closes it', () => {
    const e = refused(task([[{ id: 'a', threshold: 1, requires: ['b'] }, { id: 'b', threshold: 1 }], [{ id: 'c', threshold: 1, requires: ['a'] }]].map((ms, i) => i === 0 ? [ms[0], { ...ms[1], requires: ['c'] }] : ms)));
    expect(e.message).toMatch(/cycle: "a" → "b" → "c" → "a"/);
    expect(e.jsonPath).toBe('$.validators[1].milestones[0].requires[0]');
  });

  it('refuses malformed requirements through the schema', () => {
    expect(refused(task([[{ id: 'a', threshold: 1, requires: [] }]])).jsonPath).toMatch(/^\$\.validators\[0\]\.milestones\[0\]\.requires/);
    expect(refused(task([[{ id: 'a', threshold: 1 }, { id: 'b', threshold: 1, requires: ['a', 'a'] }]])).jsonPath).toMatch(/requires/);
  });

  it('accepts a chain, and every shipped task\'s requirements', () => {
    expect(() => validateTask(task([[{ id: 'a', threshold: 1 }, { id: 'b', threshold: 1, requires: ['a'] }], [{ id: 'c', threshold: 1, requires: ['a', 'b'] }]]), 'x.json')).not.toThrow();
    for (const id of listTaskIds()) expect(() => loadTask(id), id).not.toThrow();
  });
});

describe('the shipped guards', () => {
  // A guard passes when nothing happens: a count held at most (or exactly) 0, a subject absent, no errors.
  // Each names the milestone that shows the behaviour it guards happened.
  const guards: Record<string, string[]> = {
    'physics/cube-move': ['idle-stays-still'],
    'physics/rolling-ball-checkpoints': ['stays-on-course'],
    'xr/chime-button': ['at-most-two-voices'],
    'xr/depth-bounce': ['never-sinks-into-surfaces'],
    'xr/ergonomic-menu': ['stays-put-during-glance'],
    'xr/gaze-dwell-select': ['no-select-without-continuous-dwell'],
    'xr/gesture-markers': ['cleared-by-open-hand'],
    'xr/find-control': ['no-wrong-control'],
    'xr/late-tracking': ['no-app-errors'],
    'xr/palm-menu': ['hidden-when-palm-away'],
    'xr/pinch-spawn-ball': ['despawns-on-wall-hit'],
    'xr/poke-button': ['no-double-counts', 'physical-presses-at-most-five'],
    'xr/two-hand-frame-photo': ['no-photo-while-moving'],
  };
  it('every count held at most a bound or to exactly 0, and every presence held at most, requires something', () => {
    for (const id of listTaskIds()) {
      for (const v of loadTask(id).spec.validators) {
        for (const m of v.milestones) {
          const guard =
            (v.type === 'event-count' && (v.pass === 'atMost' || (v.pass === 'exactly' && m.threshold === 0))) ||
            ((v.type === 'presence' || v.type === 'presses') && v.pass === 'atMost') ||
            (v.type === 'voices' && (v.pass ?? 'atMost') === 'atMost');
          if (guard) expect(m.requires, `${id} ${m.id}`).toBeDefined();
          if (m.requires) expect(guards[id], `${id} ${m.id}`).toContain(m.id);
        }
      }
    }
    expect(Object.values(guards).flat().length).toBe(14);
  });
});