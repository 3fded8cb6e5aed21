/**
 * One reference syntax for things in a session (`task:ID`, `scene:ID`, `tag:ROLE`, `hand:SIDE:JOINT`,
 * `head`), parsed in one function; old spellings get a message naming the new one; an unknown object is
 * the same XrsimInputError wherever it is named: task loader, model, validators, actors, sessions and the
 * environment.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel, createSession, createValidator, formatReference, loadScene, loadTask, parseReference, runSession, XrsimInputError, type TaskSpec } from '../src/index.js';
import { FrameState } from '../src/validate/frame-state.js';
import { tempDir } from './helpers/cli.js';
import { benchTask } from './helpers/user.js';

/** The XrsimInputError `fn` throws. */
function inputError(fn: () => unknown): XrsimInputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(XrsimInputError);
    return err as XrsimInputError;
  }
  throw new Error('expected an XrsimInputError');
}

const TASK: TaskSpec = {
  id: 'test/references',
  title: 'references',
  scene: 'empty-lab',
  duration: 0.5,
  placement: { anchor: 'open-floor', clear: [1, 1] },
  bodies: [{ id: 'ball', mass: 0.1, friction: 0.5, restitution: 0.5, position: [0, 0.05, 0], shape: { type: 'sphere', radius: 0.05 } }],
  sensors: [{ id: 'gate', position: [0, 0.1, 0.3], shape: { type: 'sphere', radius: 0.05 } }],
  validators: [{ type: 'settle', bodies: ['task:ball'], linearSpeedBelow: 0.01, milestones: [{ id: 'settles', threshold: 1 }] }],
};

/** TASK with its validators replaced, written to a file as a user would. */
function taskFile(validators: unknown[]): string {
  const file = join(tempDir(), 'task.json');
  writeFileSync(file, JSON.stringify({ ...TASK, validators }));
  return file;
}

describe('parseReference', () => {
  it('reads every kind, and writes it back the same', () => {
    const cases = ['task:ball', 'scene:lab-bench', 'tag:start-button', 'hand:dominant:index-tip', 'hand:left:pinch-point', 'head'];
    for (const text of cases) expect(formatReference(parseReference(text))).toBe(text);
    expect(parseReference('hand:other:palm')).toEqual({ kind: 'hand', side: 'other', point: 'palm' });
    expect(parseReference('scene:mug')).toEqual({ kind: 'scene', id: 'mug' });
  });

  it('names the new spelling of an old one', () => {
    expect(inputError(() => parseReference('ball', { bare: 'task' })).message).toMatch(/"ball" is the old spelling: write "task:ball"/);
    expect(inputError(() => parseReference('table', { bare: 'scene' })).message).toMatch(/"table" is the old spelling: write "scene:table"/);
    expect(inputError(() => parseReference('body:ball')).message).toMatch(/"body:ball" is the old spelling: write "task:ball"/);
    expect(inputError(() => parseReference('ball')).message).toMatch(/write "task:ball" for an object of the task, or "scene:ball" for one of the scene/);
  });

  it('refuses malformed references and kinds not accepted, saying what is', () => {
    expect(inputError(() => parseReference('hand:middle:index-tip')).message).toMatch(/unknown hand "middle"/);
    expect(inputError(() => parseReference('hand:left:thumbnail')).message).toMatch(/unknown joint "thumbnail"/);
    expect(inputError(() => parseReference('prop:mug')).message).toMatch(/unknown kind "prop:"/);
    expect(inputError(() => parseReference('tag:')).message).toMatch(/needs a role/);
    const kind = inputError(() => parseReference('tag:menu', { accept: ['task', 'scene'], file: 'f.json', jsonPath: '$.x' }));
    expect(kind.message).toMatch(/f\.json: at \$\.x: "tag:menu" is a tag reference, which is not accepted here \(expected task:<id>, scene:<id>\)/);
  });
});

describe("a user's task file", () => {
  it('with an old spelling gets a message naming the new one, the file and the JSON path', () => {
    const bare = inputError(() => loadTask(taskFile([{ type: 'settle', bodies: ['ball'], linearSpeedBelow: 0.01, milestones: [{ id: 's', threshold: 1 }] }])));
    expect(bare.jsonPath).toBe('$.validators[0].bodies[0]');
    expect(bare.file).toMatch(/task\.json$/);
    expect(bare.message).toMatch(/"ball" is the old spelling: write "task:ball"/);
    const prefixed = inputError(() => loadTask(taskFile([{ type: 'presence', subject: 'body:ball', milestones: [{ id: 'p', threshold: 1 }] }])));
    expect(prefixed.jsonPath).toBe('$.validators[0].subject');
    expect(prefixed.message).toMatch(/"body:ball" is the old spelling: write "task:ball"/);
  });

  it('naming an object the task does not declare, or of the wrong kind, lists what it has', () => {
    const missing = inputError(() => loadTask(taskFile([{ type: 'follow', subject: 'tag:pen', leader: 'task:bal', milestones: [{ id: 'f', threshold: 1 }] }])));
    expect(missing).toMatchObject({ jsonPath: '$.validators[0].leader', expected: 'one of: task:ball' });
    expect(missing.message).toMatch(/no body of the task "task:bal"/);
    const wrongKind = inputError(() => loadTask(taskFile([{ type: 'checkpoints', body: 'task:ball', sensors: ['task:ball'], milestones: [{ id: 'c', threshold: 1 }] }])));
    expect(wrongKind).toMatchObject({ jsonPath: '$.validators[0].sensors[0]', expected: 'one of: task:gate' });
  });

  it('naming a scene object the scene lacks fails when the model is built, naming the task file and path', () => {
    const file = taskFile([{ type: 'contact', a: 'task:ball', b: 'scene:sofa', milestones: [{ id: 'c', threshold: 1 }] }]);
    const task = loadTask(file);
    const err = inputError(() => buildModel(loadScene('empty-lab'), task));
    expect(err).toMatchObject({ file, jsonPath: '$.validators[0].b' });
    expect(err.message).toMatch(/no body, surface or fixture "scene:sofa"/);
    expect(err.expected).toMatch(/scene:floor/);
    const ok = loadTask(taskFile([{ type: 'contact', a: 'task:ball', b: 'scene:floor', milestones: [{ id: 'c', threshold: 1 }] }]));
    expect(() => buildModel(loadScene('empty-lab'), ok)).not.toThrow();
  });
});

describe('an unknown object is the same XrsimInputError everywhere', () => {
  it('in a validator created from code', () => {
    const model = buildModel(loadScene('empty-lab'), loadTask(TASK));
    const err = inputError(() => createValidator({ type: 'presence', subject: 'task:cube', milestones: [{ id: 'p', threshold: 1 }] }, { model, dominantHand: 'right', state: new FrameState() }));
    expect(err.message).toMatch(/no dynamic body "task:cube"/);
    expect(err.expected).toMatch(/^one of: scene:cube-red, .*task:ball$/);
  });

  it('in a session, an actor script and the environment', async () => {
    const session = await createSession({ task: TASK, seed: 1 });
    expect(inputError(() => session.applyImpulse('task:cube', [0, 0, 1])).message).toMatch(/no dynamic body "task:cube"/);
    expect(inputError(() => session.applyImpulse('ball', [0, 0, 1])).message).toMatch(/"ball" is the old spelling: write "task:ball"/);
    expect(inputError(() => session.environment.moveSurface('scene:sofa', [0, 0, 0])).message).toMatch(/no surface "scene:sofa"/);
    expect(() => session.applyImpulse('task:ball', [0, 0, 1e-4])).not.toThrow();
    session.dispose();

    // An actor script naming an unknown body fails its step with the same message (as an actor-failure event).
    const dir = tempDir();
    const script = join(dir, 'actors.mjs');
    writeFileSync(script, "export default function* (a) { yield a.object('task:cube').push([0, 0, 1]); yield a.object('ball').push([0, 0, 1]); }\n");
    const session2 = await createSession({ task: { ...benchTask(), actors: script }, seed: 1, duration: 0.1 });
    await session2.run();
    const failures = session2.actors!.failures.map((f) => f.reason);
    expect(failures[0]).toMatch(/no dynamic body "task:cube"/);
    expect(failures[1]).toMatch(/"ball" is the old spelling: write "task:ball"/);
  });

  it('and a malformed subject in a spec run errors as bad input, never as a crash', async () => {
    const result = await runSession({ task: { ...TASK, validators: [{ type: 'presence', subject: 'ball', milestones: [{ id: 'p', threshold: 1 }] }] }, seed: 1 });
    expect(result.status).toBe('errored');
    expect(result.error).toMatchObject({ kind: 'bad-input', jsonPath: '$.validators[0].subject' });
  });
});
