/**
 * An actor API that refuses mistakes (issue 27, item 4): every verb checks its arguments, and a wrong one is
 * an actor-failure naming the verb and what it expected, never another action; the verbs the user controls
 * share take the same arguments in both APIs (`a.hand(ref).pinch(amount, { duration })` as
 * `session.user.hand(ref).pinch(amount, { duration })`).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { actorApi } from '../src/actors/api.js';
import { CONTROLLER_VERBS, ENVIRONMENT_VERBS, HAND_VERBS, HEAD_VERBS, OBJECT_VERBS, TOP_VERBS } from '../src/actors/signatures.js';
import { createSession, decodeEvents, loadTask } from '../src/index.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { VerbArgumentError } from '../src/user/arguments.js';

const a = actorApi('right');
const hand = a.hand('dominant');
const head = a.head;
const pad = a.controller('right');
const ball = a.object('task:ball');
const env = a.environment;
const ok = a.at(0, 1, -0.5);

/** One wrong call per verb, and the words its message must hold. */
const WRONG: Record<string, [() => unknown, RegExp][]> = {
  'hand.reach': [[() => hand.reach('here' as never), /target/], [() => hand.reach(ok, { with: 'thumb' as never }), /hand point/], [() => hand.reach(ok, { speed: 1 } as never), /"speed" is not one of them/]],
  'hand.pose': [[() => hand.pose('jazz-hands'), /a pose name/], [() => hand.pose('fist', { duration: -1 }), /duration is seconds/]],
  'hand.pinch': [[() => hand.pinch({ duration: 0.25 } as never), /argument 1 \(amount\) must be a number from 0 to 1/], [() => hand.pinch(2), /from 0 to 1/], [() => hand.pinch(1, { amount: 1 } as never), /"amount" is not one of them/]],
  'hand.release': [[() => hand.release(0 as never), /options object \{ duration \}/]],
  'hand.grab': [[() => hand.grab(undefined as never), /argument 1 \(target\) is missing/]],
  'hand.drop': [[() => (hand.drop as (x: unknown) => unknown)(1), /takes no arguments/]],
  'hand.poke': [[() => hand.poke(ok, { depth: 5 }), /depth is a number from -0\.2 to 0\.2/]],
  'hand.trace': [[() => hand.trace([]), /non-empty list/]],
  'hand.throw': [[() => hand.throw([0, 1] as never), /\[x, y, z\]/]],
  'hand.rest': [[() => hand.rest({ duration: NaN }), /duration is seconds/]],
  'hand.track': [[() => hand.track('on' as never), /true or false/]],
  'head.moveTo': [[() => head.moveTo([0, 'up', 0] as never), /target/]],
  'head.lookAt': [[() => head.lookAt(ok, { timeout: 0 }), /timeout is a number above 0/]],
  'head.walk': [[() => head.walk([ok] as never), /task-frame points/]],
  'head.follow': [[() => head.follow([[0, 0, 0]], { lookAt: 'ball' as never }), /lookAt is a target/]],
  'head.turn': [[() => head.turn('left' as never), /argument 1 \(yawDeg\) must be a finite number/]],
  'controller.press': [[() => pad.press('trigger', { duration: 0.2 } as never), /argument 2 \(value\) must be a number from 0 to 1/], [() => pad.press('z' as never), /a button/]],
  'controller.hold': [[() => pad.hold('a', undefined as never), /argument 2 \(seconds\) is missing/]],
  'controller.release': [[() => pad.release('a', 0.1 as never), /options object/]],
  'controller.aim': [[() => pad.aim(null as never), /target/]],
  'controller.thumbstick': [[() => pad.thumbstick(0, -1, 1 as never), /argument 3 \(options\) must be an options object \{ duration \}/], [() => pad.thumbstick(0, -2), /from -1 to 1/]],
  'controller.connect': [[() => (pad.connect as (x: unknown) => unknown)(true), /takes no arguments/]],
  'controller.disconnect': [[() => (pad.disconnect as (x: unknown) => unknown)(true), /takes no arguments/]],
  'object.move': [[() => ball.move({ x: 0 } as never), /\[x, y, z\]/]],
  'object.push': [[() => ball.push([0, 0, Infinity]), /finite/]],
  'object.throw': [[() => ball.throw(3 as never), /\[x, y, z\]/]],
  'environment.addSurface': [[() => env.addSurface('table' as never), /an object/]],
  'environment.moveSurface': [[() => env.moveSurface('scene:tray', 0.1 as never), /\[x, y, z\]/]],
  'environment.removeSurface': [[() => env.removeSurface('' as never), /non-empty string/]],
  'a.hand': [[() => a.hand('both' as never), /a side/]],
  'a.controller': [[() => a.controller(0 as never), /a side/]],
  'a.object': [[() => a.object(undefined as never), /is missing/]],
  'a.side': [[() => a.side('up' as never), /a side/]],
  'a.wait': [[() => a.wait(-1), /seconds/], [() => a.wait('1' as never), /seconds/]],
  'a.until': [[() => a.until(true as never), /a function/]],
  'a.find': [[() => a.find('ball', { hand: 'dominant', timeout: -2 }), /timeout is a number above 0/]],
  'a.at': [[() => a.at(0, 1 as number, undefined as never), /argument 3 \(z\) is missing/]],
  'a.world': [[() => a.world(NaN, 0, 0), /finite/]],
  'a.surface': [[() => a.surface(3 as never), /non-empty string/]],
  'a.tag': [[() => a.tag(null as never), /non-empty string/]],
  'a.offset': [[() => a.offset(ok, [0, 0] as never), /\[x, y, z\]/]],
  'a.parallel': [[() => a.parallel(ok as never), /a list of actions/]],
  'a.sequence': [[() => a.sequence(a.wait(1), 'then' as never), /a list of actions/]],
  'a.agent': [[() => a.agent('', { maxSteps: 3 }), /a non-empty instruction/], [() => a.agent('press the settings button', { maxSteps: 0 }), /maxSteps is an integer from 1 to 1000/], [() => a.agent('open it', { steps: 3 } as never), /steps/]],
};

describe('actor verbs refuse wrong arguments, naming the verb', () => {
  it('every verb has a wrong-argument case here', () => {
    const verbs = [
      ...Object.keys(HAND_VERBS).map((v) => `hand.${v}`),
      ...Object.keys(HEAD_VERBS).map((v) => `head.${v}`),
      ...Object.keys(CONTROLLER_VERBS).map((v) => `controller.${v}`),
      ...Object.keys(OBJECT_VERBS).map((v) => `object.${v}`),
      ...Object.keys(ENVIRONMENT_VERBS).map((v) => `environment.${v}`),
      ...Object.keys(TOP_VERBS).map((v) => `a.${v}`),
      'a.parallel',
      'a.sequence',
    ];
    expect(Object.keys(WRONG).sort()).toEqual(verbs.sort());
  });

  it.each(Object.entries(WRONG))('%s', (verb, cases) => {
    const [group, name] = verb.split('.');
    const prefix = { hand: 'hand(dominant)', controller: 'controller(right)', object: 'object(task:ball)' }[group] ?? group;
    for (const [call, words] of cases) {
      let error: unknown;
      try {
        call();
      } catch (err) {
        error = err;
      }
      expect(error, verb).toBeInstanceOf(VerbArgumentError);
      expect((error as VerbArgumentError).verb).toBe(`${prefix}.${name}`);
      expect((error as Error).message).toMatch(words);
    }
  });

  it('right arguments build actions, the shapes the user API takes included', () => {
    for (const action of [hand.pinch(), hand.pinch(0.4), hand.pinch(0, { duration: 0.25 }), hand.release({ duration: 0.1 }), hand.pose('fist', { easing: 'linear' }), pad.press('trigger', 0.5, { duration: 0.2 }), pad.thumbstick(0, -1, { duration: 1 }), a.sequence(a.wait(0), head.turn(10))]) {
      expect(typeof action.update).toBe('function');
    }
  });
});

describe('in a session', () => {
  const task = (script: string) => ({ ...loadTask('xr/pinch-spawn-ball').spec, id: 'test/actor-arguments', duration: 1.5, actors: join(PACKAGE_ROOT, 'test/fixtures/actors', script), apps: { reference: { module: join(PACKAGE_ROOT, 'tasks/xr/pinch-spawn-ball/apps/reference.mjs') } } });
  const run = async (script: string) => {
    const session = await createSession({ task: task(script), seed: 1 });
    const selects: string[] = [];
    const failures: { step: string; reason: string }[] = [];
    await session.run({
      onFrame: (frame) => {
        for (const e of decodeEvents(frame.events, frame.eventWords)) {
          if (e.name === 'input-event') selects.push(e.payload[0] === 0 ? 'selectstart' : 'selectend');
          if (e.name === 'actor-failure') failures.push(readJsonPayload(e.payload, 0));
        }
      },
    });
    return { selects, failures };
  };

  it("an options object where the pinch's amount goes is an actor-failure of hand(dominant).pinch, and nothing pinches", async () => {
    const { selects, failures } = await run('pinch-as-options.mjs');
    expect(failures).toEqual([{ step: 'hand(dominant).pinch', reason: expect.stringMatching(/^hand\(dominant\)\.pinch: argument 1 \(amount\) must be a number from 0 to 1, got \{"duration":0\.25\}/) }]);
    expect(selects).toEqual([]);
  });

  it('pinch(amount, { duration }), as the user API takes it, pinches and releases', async () => {
    const { selects, failures } = await run('pinch-like-user-api.mjs');
    expect(failures).toEqual([]);
    expect(selects).toEqual(['selectstart', 'selectend']);
  });

  it("the user controls refuse the same mistakes", async () => {
    const session = await createSession({ task: task('pinch-like-user-api.mjs'), seed: 1 });
    const user = session.user;
    expect(() => user.hand('dominant').pinch({ duration: 0.25 } as never)).toThrow(/user\.hand\(right\)\.pinch: argument 1 \(amount\) must be a number from 0 to 1/);
    expect(() => user.hand('left').pose('jazz-hands')).toThrow(VerbArgumentError);
    expect(() => user.controller('right').thumbstick(0, -1, 1 as never)).toThrow(/options object \{ duration \}/);
    expect(() => user.hand('dominant').pinch(0.5, { duration: 0.1 })).not.toThrow();
    session.dispose();
  });
});
