/**
 * Non-finite values never pass: the scoring layer fails a non-finite metric under every comparison, and a
 * NaN or infinity anywhere a formula reads (bodies, head, hands, contacts, tag poses) fails every
 * milestone of the session, for every formula, instead of being folded away by comparisons.
 */
import { describe, expect, it } from 'vitest';
import { TagRegistry } from '../src/app/tags.js';
import { EventType } from '../src/frame/events.js';
import { Frame } from '../src/frame/frame.js';
import { writeJsonRecord } from '../src/frame/json-record.js';
import { frameLayoutFor, HAND_CHANNEL_FLOATS } from '../src/frame/layout.js';
import { buildModel, createTaskValidators, createValidator, loadScene, loadTask, type Milestone, type ValidatorSpec } from '../src/index.js';
import { FrameState } from '../src/validate/frame-state.js';
import { scoreMilestones } from '../src/validate/score.js';
import { benchTask } from './helpers/user.js';

const m = (id: string, threshold = 0.5) => [{ id, threshold }];
/** One validator of every formula, each reading something the poisoning below can reach. */
const EVERY_FORMULA: ValidatorSpec[] = [
  { type: 'checkpoints', body: 'task:none', sensors: ['task:gate'], milestones: m('checkpoints', 0) },
  { type: 'settle', bodies: ['task:none'], linearSpeedBelow: 0.01, milestones: m('settle', 1) },
  { type: 'drift', bodies: ['task:none'], from: 0, milestones: m('drift', 0.001) },
  { type: 'final-distance', body: 'task:none', target: [0.2, 0.011, 0.12], milestones: m('final-distance', 0.01) },
  { type: 'contact', a: 'task:none', b: 'task:other', milestones: m('contact', 100) },
  { type: 'region', body: 'task:none', min: [-1, -1, -1], max: [1, 1, 1], milestones: m('region', 0) },
  { type: 'displacement', subject: 'head', from: 0, to: 0.1, milestones: m('displacement', 0.01) },
  { type: 'rms', subject: 'head', reference: 'head', milestones: m('rms', 0.01) },
  { type: 'follow', subject: 'tag:x', leader: 'head', milestones: m('follow', 10) },
  { type: 'distance-at', a: 'head', b: 'tag:x', at: 0.1, milestones: m('distance-at', 10) },
  { type: 'speed', subject: 'task:none', at: 0, afterSeconds: 0.05, pass: 'atMost', milestones: m('speed', 0.01) },
  { type: 'presence', subject: 'tag:x', milestones: m('presence', 0.5) },
  { type: 'comfort', subject: 'tag:x', at: 0.1, measure: 'shoulder-distance', milestones: m('comfort', 10) },
  { type: 'visible', subject: 'tag:x', milestones: m('visible', 0) },
  { type: 'overlap', event: 'app:go', corners: ['hand:left:index-tip', 'hand:right:index-tip'], milestones: m('overlap', 0) },
  { type: 'presses', finger: 'hand:dominant:index-tip', target: 'tag:x', enterDepth: 0.008, exitDepth: 0.003, radius: 0.03, milestones: m('presses', 0) },
  { type: 'event-count', event: 'app:go', milestones: m('event-count', 1) },
  { type: 'event-order', steps: [{ event: 'app:go' }], milestones: m('event-order', 1) },
  { type: 'coverage', subject: 'head', points: [[0, 0.3, 0]], radius: 10, milestones: m('coverage', 0) },
  { type: 'reachability', nodes: [[0, 0.3, 0], [0, 0.31, 0]], from: 0, to: 1, maxStep: 1, milestones: m('reachability', 5) },
  { type: 'penetration', subject: 'tag:x', radius: 0.01, milestones: m('penetration', 10) },
] as ValidatorSpec[];

const task = benchTask({
  validators: EVERY_FORMULA,
  bodies: [{ id: 'other', mass: 0.01, friction: 0.5, restitution: 0, position: [-0.2, 0.011, 0.12], shape: { type: 'sphere', radius: 0.01 } }],
  sensors: [{ id: 'gate', position: [0, 0.1, 0], shape: { type: 'sphere', radius: 0.01 } }],
});
const model = buildModel(loadScene('empty-lab'), loadTask(task));
const layout = frameLayoutFor(model);
const TAG = 0;

type Poison = 'bodies' | 'head' | 'hand-right' | 'contacts' | 'tag';
const TICKS = 30;
const POISON_TICK = 12;

/** Writes one ordinary frame: bodies at rest, the head still, both hands tracked, tag x in front. */
function fill(frame: Frame, tick: number, tags: TagRegistry, poison: { at: Poison; value: number } | null): void {
  frame.eventWords = 0;
  frame.setTime(tick, tick * model.timing.dt);
  model.bodies.forEach((b, i) => frame.bodyPoses.set([...b.pose.position, ...b.pose.rotation], i * 7));
  const [x, y, z] = model.taskFrame.position;
  frame.channel('head')!.set([x, y + 0.5, z + 0.4, 0, 0, 0, 1]);
  for (const side of ['left', 'right']) {
    const hand = frame.channel(`hand-${side}`)!;
    for (let j = 0; j < 26; j++) hand.set([x + (side === 'left' ? -0.1 : 0.1), y + 0.2, z + 0.2 - j * 0.002, 0, 0, 0, 1, 0.01], j * 8);
    hand[HAND_CHANNEL_FLOATS - 1] = 1;
  }
  tags.publish(frame, () => undefined);
  if (tick === 2) writeJsonRecord(frame, EventType.AppEvent, [], { name: 'go' });
  if (!poison || tick !== POISON_TICK) return;
  if (poison.at === 'bodies') frame.bodyPoses[1] = poison.value;
  else if (poison.at === 'tag') {
    // TagRegistry refuses non-finite poses; a foreign stream could still carry one.
    frame.beginRecord(EventType.TagPoses);
    for (const word of [1, TAG, 1]) frame.word(word);
    for (const v of [x, y + 0.3, poison.value, 0, 0, 0, 1]) frame.float(v);
    frame.endRecord();
  } else frame.channel(poison.at)![3] = poison.value;
}

/** Runs every formula over the same frames, guarded (as sessions score) and each on its own. */
function score(poison: { at: Poison; value: number } | null): { guarded: Milestone[]; alone: Milestone[] } {
  const guarded = createTaskValidators(model);
  const state = new FrameState();
  const alone = model.validators.map((spec) => createValidator(spec, { model, dominantHand: 'right', state }));
  const tags = new TagRegistry();
  const [x, y, z] = model.taskFrame.position;
  tags.tag('x', 'x', () => [x, y + 0.3, z]);
  const frame = new Frame(layout);
  for (let tick = 0; tick < TICKS; tick++) {
    fill(frame, tick, tags, poison);
    guarded.observe(frame);
    state.observe(frame);
    for (const v of alone) v.observe(frame);
  }
  return { guarded: guarded.finish(), alone: alone.flatMap((v) => v.finish()) };
}

/** The largest finite float32. */
const F32_MAX = 3.4028234663852886e38;

/** The guarded milestones of ordinary frames, `poison` applied to the frame of tick {@link POISON_TICK}. */
function guardedAfter(poison: (frame: Frame) => void): Milestone[] {
  const guarded = createTaskValidators(model);
  const tags = new TagRegistry();
  const [x, y, z] = model.taskFrame.position;
  tags.tag('x', 'x', () => [x, y + 0.3, z]);
  const frame = new Frame(layout);
  for (let tick = 0; tick < TICKS; tick++) {
    fill(frame, tick, tags, null);
    if (tick === POISON_TICK) poison(frame);
    guarded.observe(frame);
  }
  return guarded.finish();
}

describe('the scoring layer', () => {
  it('fails a NaN or infinite metric under every comparison, with no credit and no metric', () => {
    for (const comparison of ['atMost', 'atLeast', 'exactly'] as const) {
      for (const metric of [NaN, Infinity, -Infinity]) {
        const [milestone] = scoreMilestones('any', [{ id: 'm', threshold: 1 }], metric, comparison, [3]);
        expect(milestone, `${comparison} ${metric}`).toMatchObject({ passed: false, score: 0, metric: null });
      }
    }
  });
});

describe('a non-finite value in a frame fails every formula', () => {
  it('covers every formula the registry knows', () => {
    expect(new Set(EVERY_FORMULA.map((v) => v.type)).size).toBe(EVERY_FORMULA.length);
    expect(EVERY_FORMULA).toHaveLength(21);
  });

  it('without one, the guard changes nothing, and milestones pass', () => {
    const { guarded, alone } = score(null);
    expect(guarded).toEqual(alone);
    expect(guarded.filter((milestone) => milestone.passed).length).toBeGreaterThan(10);
  });

  for (const at of ['bodies', 'head', 'hand-right', 'contacts', 'tag'] as const) {
    for (const value of [NaN, Infinity]) {
      it(`${value} in ${at === 'tag' ? "a tag's pose" : `the ${at} channel`} at tick ${POISON_TICK}: every milestone fails, with that tick as evidence`, () => {
        const { guarded } = score({ at, value });
        expect(guarded).toHaveLength(21);
        for (const milestone of guarded) {
          expect(milestone, milestone.id).toMatchObject({ passed: false, score: 0, metric: null, ticks: [POISON_TICK] });
          expect(milestone.note).toMatch(new RegExp(`non-finite value .* at tick ${POISON_TICK}`));
        }
      });
    }
  }

  it('finds -Infinity in the last float of a channel, and opposite infinities together', () => {
    const last = (frame: Frame) => frame.bodyPoses.length - 1;
    for (const poison of [(f: Frame) => (f.bodyPoses[last(f)] = -Infinity), (f: Frame) => f.bodyPoses.set([Infinity, -Infinity], 7)]) {
      const guarded = guardedAfter(poison);
      for (const milestone of guarded) expect(milestone, milestone.id).toMatchObject({ passed: false, metric: null, ticks: [POISON_TICK] });
    }
  });

  it('takes the largest finite float32, everywhere at once, for finite', () => {
    const guarded = guardedAfter((frame) => {
      frame.bodyPoses.fill(F32_MAX);
      for (const name of ['head', 'hand-left', 'hand-right', 'contacts']) frame.channel(name)?.fill(-F32_MAX);
    });
    for (const milestone of guarded) expect(milestone.note ?? '', milestone.id).not.toMatch(/non-finite/);
  });

  it('formulas alone fold a NaN body into a passing metric of 0: the guard is what stops it', () => {
    const { alone, guarded } = score({ at: 'bodies', value: NaN });
    for (const id of ['region', 'drift']) {
      expect(alone.find((milestone) => milestone.id === id)).toMatchObject({ passed: true, metric: 0 });
      expect(guarded.find((milestone) => milestone.id === id)).toMatchObject({ passed: false, metric: null });
    }
  });
});

describe('tags recorded as float32 stay finite', () => {
  for (const [what, pose] of [
    ['a position past float32 (1e39)', [1e39, 0, 0]],
    ['a rotation of three numbers', { position: [0, 1, 0], rotation: [0, 0, 1] }],
  ] as const) {
    it(`${what} is an app error and the tag is absent that frame`, () => {
      const tags = new TagRegistry();
      tags.tag('x', 'x', () => pose as never);
      const frame = new Frame(layout);
      const errors: unknown[] = [];
      tags.publish(frame, (err) => errors.push(err));
      expect(errors).toHaveLength(1);
      expect(tags.pose('x')).toBeNull();
      const state = new FrameState();
      state.observe(frame);
      expect(state.tags.get('x')?.present).toBe(false);
    });
  }
});
