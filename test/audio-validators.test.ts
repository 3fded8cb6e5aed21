/**
 * The audio formulas (`sound-response`, `voices`, `sound-follows`) on hand-made frames: voices played by
 * the in-process audio (`ctx.audio`'s implementation) and recorded as a session records them, app events
 * and tags set tick by tick, so each metric is known exactly.
 */
import { describe, expect, it } from 'vitest';
import { SessionAppAudio } from '../src/app/audio.js';
import { TagRegistry } from '../src/app/tags.js';
import type { AppAudio, AudioVoice } from '../src/app/types.js';
import { EventType } from '../src/frame/events.js';
import { Frame } from '../src/frame/frame.js';
import { writeJsonRecord } from '../src/frame/json-record.js';
import { frameLayoutFor } from '../src/frame/layout.js';
import { buildModel, createValidator, loadScene, loadTask, type ValidatorSpec, type Vec3 } from '../src/index.js';
import { FrameState } from '../src/validate/frame-state.js';

const model = buildModel(loadScene('empty-lab'), loadTask('xr/chime-button'));
const dt = model.timing.dt;

interface Tick {
  /** App events this tick (`pressed` is recorded as `app:pressed`). */
  events?: string[];
  /** What the app does with its audio this tick. */
  audio?: (audio: AppAudio) => void;
  /** Where `tag:thing` is (absent when not given). */
  thing?: Vec3;
}

/** Runs a validator over `ticks` frames described by `at(tick)`; returns its milestone. */
function measure(spec: ValidatorSpec, ticks: number, at: (tick: number) => Tick) {
  const state = new FrameState();
  const validator = createValidator(spec, { model, dominantHand: 'right', state });
  const frame = new Frame(frameLayoutFor(model));
  const clock = { time: 0 };
  const audio = new SessionAppAudio(clock);
  const tags = new TagRegistry();
  let thing: Vec3 | null = null;
  tags.tag('thing', 'thing', () => thing);
  for (let tick = 0; tick < ticks; tick++) {
    const t = at(tick);
    clock.time = tick * dt;
    frame.eventWords = 0;
    frame.setTime(tick, clock.time);
    audio.expire(clock.time);
    for (const name of t.events ?? []) writeJsonRecord(frame, EventType.AppEvent, [], { name });
    t.audio?.(audio);
    thing = t.thing ?? null;
    tags.publish(frame, () => undefined);
    audio.flush(frame);
    state.observe(frame);
    validator.observe(frame);
  }
  return validator.finish()[0];
}

const one = [{ id: 'm', threshold: 1 }];
const response = (extra: Partial<Extract<ValidatorSpec, { type: 'sound-response' }>> = {}): ValidatorSpec => ({ type: 'sound-response', trigger: 'app:pressed', within: 0.1, milestones: one, ...extra });

describe('sound-response', () => {
  // Presses at ticks 10, 40 and 70; chimes at 10 (the same frame), 45 (5 ticks, 0.056 s later), none for 70.
  const script = (tick: number): Tick => ({
    events: [10, 40, 70].includes(tick) ? ['pressed'] : [],
    audio: [10, 45].includes(tick) ? (a) => a.play('chime', { position: [0, 1, 0], duration: 0.2 }) : undefined,
    thing: [0, 1, 0.05],
  });

  it('answered: the fraction of occurrences a sound started within `within` after', () => {
    const m = measure(response(), 100, script);
    expect(m.metric).toBeCloseTo(2 / 3, 12);
    expect(m.passed).toBe(false);
    expect(m.ticks).toEqual([70]); // the occurrence never answered
    // 0.03 s is under three ticks: the chime five ticks after the second press no longer answers it.
    expect(measure(response({ within: 0.03 }), 100, script).metric).toBeCloseTo(1 / 3, 12);
  });

  it('worst-delay: the longest wait, infinite (no metric) while one occurrence is never answered', () => {
    const unanswered = measure(response({ measure: 'worst-delay', milestones: [{ id: 'm', threshold: 0.05 }] }), 100, script);
    expect(unanswered.metric).toBeNull();
    expect(unanswered.passed).toBe(false);
    const twoPresses = (tick: number) => ({ ...script(tick), events: [10, 40].includes(tick) ? ['pressed'] : [] });
    const m = measure(response({ measure: 'worst-delay', milestones: [{ id: 'm', threshold: 0.05 }] }), 100, twoPresses);
    expect(m.metric).toBeCloseTo(5 * dt, 12);
    expect(m.ticks).toEqual([40, 45]);
    expect(m.passed).toBe(false);
    expect(m.score).toBeCloseTo(0.05 / (5 * dt), 5);
    expect(measure(response({ measure: 'worst-delay', milestones: [{ id: 'm', threshold: 0.06 }] }), 100, twoPresses).passed).toBe(true);
  });

  it('sound and near: only starts of that sound, close enough to the subject, answer; a sound with no position never does', () => {
    const chimes = (position: Vec3 | null, sound = 'chime') => (tick: number): Tick => ({
      events: tick === 10 ? ['pressed'] : [],
      audio: tick === 12 ? (a) => a.play(sound, { position }) : undefined,
      thing: [0, 1, 0],
    });
    const near = { subject: 'tag:thing', radius: 0.1 };
    expect(measure(response({ near }), 30, chimes([0.05, 1, 0.05])).metric).toBe(1);
    expect(measure(response({ near }), 30, chimes([0.2, 1, 0])).metric).toBe(0);
    expect(measure(response({ near }), 30, chimes(null)).metric).toBe(0);
    expect(measure(response({ sound: 'chime' }), 30, chimes(null, 'buzz')).metric).toBe(0);
    expect(measure(response({ sound: 'buzz' }), 30, chimes(null, 'buzz')).metric).toBe(1);
  });

  it('a start answers one occurrence: two presses in one frame need two sounds', () => {
    const m = measure(response(), 30, (tick) => ({ events: tick === 5 ? ['pressed', 'pressed'] : [], audio: tick === 6 ? (a) => a.play('chime') : undefined }));
    expect(m.metric).toBe(0.5);
  });

  it('no occurrence at all: no metric, never a pass, whatever plays', () => {
    const m = measure(response({ milestones: [{ id: 'm', threshold: 0 }] }), 30, (tick) => ({ audio: tick === 3 ? (a) => a.play('chime') : undefined }));
    expect(m.metric).toBeNull();
    expect(m.passed).toBe(false);
    expect(m.score).toBe(0);
  });
});

describe('voices', () => {
  // a1 from 5 to 7; b from 6 on; a2 started and stopped in 8; a3 from 8 on.
  let a1: AudioVoice;
  const script = (tick: number): Tick => ({
    audio: (a) => {
      if (tick === 5) a1 = a.play('a');
      if (tick === 6) a.play('b');
      if (tick === 7) a1.stop();
      if (tick === 8) {
        a.play('a').stop();
        a.play('a');
      }
    },
  });

  it('counts the voices playing during a frame: those at its start and those started in it', () => {
    const m = measure({ type: 'voices', pass: 'atMost', milestones: [{ id: 'm', threshold: 2 }] }, 20, script);
    expect(m.metric).toBe(3);
    expect(m.ticks).toEqual([8]);
    expect(m.passed).toBe(false);
    expect(measure({ type: 'voices', sound: 'a', milestones: [{ id: 'm', threshold: 2 }] }, 20, script).metric).toBe(2);
    expect(measure({ type: 'voices', window: [0, 7 * dt], milestones: [{ id: 'm', threshold: 2 }] }, 20, script).metric).toBe(2);
  });

  it('a voice that ends by its duration stops counting', () => {
    const m = measure({ type: 'voices', milestones: one }, 60, (tick) => ({ audio: tick % 20 === 1 ? (a) => a.play('tick', { duration: 0.1 }) : undefined }));
    expect(m.metric).toBe(1);
    expect(m.passed).toBe(true);
  });
});

describe('sound-follows', () => {
  const spec: ValidatorSpec = { type: 'sound-follows', sound: 'engine', subject: 'tag:thing', milestones: [{ id: 'm', threshold: 0.1 }] };

  it('the worst distance between the sound and the subject while it plays', () => {
    let voice: AudioVoice;
    const m = measure(spec, 30, (tick) => ({
      thing: [tick * 0.01, 1, 0],
      audio: (a) => {
        if (tick === 2) voice = a.play('engine', { position: [0.02, 1, 0] });
        else if (tick > 2 && tick < 20) voice.setPosition([tick * 0.01 + (tick === 10 ? 0.05 : 0.01), 1, 0]);
        else if (tick === 20) voice.stop();
      },
    }));
    expect(m.metric).toBeCloseTo(0.05, 6);
    expect(m.ticks).toEqual([10]);
    expect(m.passed).toBe(true);
  });

  it('not spatialised is infinitely far; no voice of the sound at all is no metric', () => {
    const flat = measure(spec, 10, (tick) => ({ thing: [0, 1, 0], audio: tick === 2 ? (a) => a.play('engine') : undefined }));
    expect(flat.metric).toBeNull();
    expect(flat.passed).toBe(false);
    const silent = measure(spec, 10, (tick) => ({ thing: [0, 1, 0], audio: tick === 2 ? (a) => a.play('horn', { position: [0, 1, 0] }) : undefined }));
    expect(silent.metric).toBeNull();
  });
});
