/**
 * XR formulas on sound, read from the stream's audio events (`audio:start`, `audio:update`, `audio:stop`
 * and the voices playing, decoded by `frame-state.ts`): a sound answering each occurrence of an event in
 * time and in place, the most voices playing at once (a voice budget), and a sound following a subject.
 * Time is the frames' simulated time: a sound started in the frame of the event answers it after 0 s.
 */
import type { AudioStartRecord } from '../frame/audio-events.js';
import type { Vec3 } from '../geometry/types.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { axesDistance, eventName, inWindow, subject, type ValidatorContext } from './xr-context.js';

/** Evidence ticks kept per list. */
const MAX_EVIDENCE = 16;

/**
 * Each occurrence of `trigger` must be answered by a sound starting within `within` seconds after it: of
 * `sound` when given, and within `near.radius` of `near.subject` (as it is in the frame the sound starts)
 * when given. A start answers one occurrence, the oldest waiting. Metric: `answered`, the fraction of
 * occurrences answered (default; pass atLeast), or `worst-delay`, the longest wait in seconds (pass atMost;
 * an occurrence never answered makes it infinite). No occurrence at all: no metric (never a pass).
 */
export const soundResponse = defineFormula({
  type: 'sound-response',
  description:
    'A sound starts within `within` seconds after each occurrence of an event (`app:<name>`, `input:selectstart:dominant`, ...), of `sound` when given, within `near.radius` of `near.subject` when given. Metric: the fraction of occurrences answered (`measure: answered`), or the longest delay in seconds (`worst-delay`; infinite when one was never answered). No occurrence: no metric.',
  options: {
    trigger: { type: 'string', minLength: 1, description: 'The event whose every occurrence a sound must answer.' },
    sound: { type: 'string', minLength: 1, description: 'Only starts of this sound answer.' },
    within: { type: 'number', exclusiveMinimum: 0, description: 'Seconds after the occurrence by which the sound must start.' },
    near: {
      type: 'object',
      additionalProperties: false,
      required: ['subject', 'radius'],
      properties: { subject: schema.subject, radius: { type: 'number', exclusiveMinimum: 0 } },
      description: 'Only sounds starting within `radius` metres of `subject` answer (a sound that is not spatialised never does).',
    },
    window: { ...schema.window, description: 'Only occurrences in this window count.' },
    measure: { enum: ['answered', 'worst-delay'] },
    pass: schema.pass,
  },
  required: ['trigger', 'within'],
  frameState: true,
  create: (spec, ctx): Validator => soundResponseValidator(spec, ctx),
});
/** The options of `sound-response`. */
export type SoundResponseValidatorSpec = SpecOf<typeof soundResponse>;

/**
 * The most voices playing at once: in each frame, those playing at its start and those started in it (of
 * `sound` when given), in a window. Metric: count (pass atMost: a voice budget). An app that never plays
 * a sound keeps any budget: give such a milestone a `requires`.
 */
export const voices = defineFormula({
  type: 'voices',
  description: 'The most voices playing at once (in a frame: those playing at its start and those started in it), of `sound` when given, in a window. Metric: count (a voice budget: pass atMost).',
  options: {
    sound: { type: 'string', minLength: 1 },
    window: schema.window,
    pass: schema.pass,
  },
  required: [],
  frameState: true,
  create: (spec, ctx): Validator => voicesValidator(spec, ctx),
});
/** The options of `voices`. */
export type VoicesValidatorSpec = SpecOf<typeof voices>;

/**
 * How far the voices of `sound` are from a subject while they play, in a window: the worst distance over
 * frames (a voice that is not spatialised, or a subject that is absent, is infinitely far). Metric: metres.
 * No voice of the sound ever played: no metric.
 */
export const soundFollows = defineFormula({
  type: 'sound-follows',
  description: 'Worst distance between the voices of a sound and a subject while they play, in a window (not spatialised, or the subject absent: infinite). Metric: metres; no voice played: no metric.',
  options: {
    sound: { type: 'string', minLength: 1 },
    subject: schema.subject,
    window: schema.window,
  },
  required: ['sound', 'subject'],
  frameState: true,
  create: (spec, ctx): Validator => soundFollowsValidator(spec, ctx),
});
/** The options of `sound-follows`. */
export type SoundFollowsValidatorSpec = SpecOf<typeof soundFollows>;

/** `sound-response`: occurrences of the trigger answered by a sound in time (and in place). */
export function soundResponseValidator(spec: SoundResponseValidatorSpec, ctx: ValidatorContext): Validator {
  const trigger = eventName(ctx, spec.trigger);
  const near = spec.near ? { at: subject(ctx, spec.near.subject), radius: spec.near.radius } : null;
  const measure = spec.measure ?? 'answered';
  /** Occurrences waiting for a sound: their times and ticks, oldest first. */
  const waiting: { time: number; tick: number }[] = [];
  let occurrences = 0;
  let answered = 0;
  let worst = 0;
  let worstTicks: number[] = [];
  const unansweredTicks: number[] = [];
  const answerTicks: number[] = [];
  const miss = (tick: number) => {
    if (unansweredTicks.length < MAX_EVIDENCE) unansweredTicks.push(tick);
  };
  return {
    trace: () => (occurrences > 0 ? answered / occurrences : null),
    observe(frame) {
      while (waiting.length > 0 && frame.time - waiting[0].time > spec.within + 1e-9) miss(waiting.shift()!.tick);
      const events = ctx.state.events;
      if (events.length === 0) return;
      for (const e of events) {
        if (e.name !== trigger || !inWindow(frame.time, spec.window)) continue;
        occurrences++;
        waiting.push({ time: frame.time, tick: frame.tick });
      }
      let place: Vec3 | null | undefined; // the subject, read once a frame when a start needs it
      for (const e of events) {
        if (waiting.length === 0) break;
        if (e.name !== 'audio:start') continue;
        const start = e.data as AudioStartRecord;
        if (spec.sound !== undefined && start.sound !== spec.sound) continue;
        if (near) {
          if (place === undefined) place = near.at(frame)?.position ?? null;
          if (!place || !start.position || axesDistance(ctx, start.position, place, undefined) > near.radius) continue;
        }
        const occurrence = waiting.shift()!;
        answered++;
        const delay = frame.time - occurrence.time;
        if (delay >= worst) {
          worst = delay;
          worstTicks = [occurrence.tick, frame.tick];
        }
        if (answerTicks.length < MAX_EVIDENCE) answerTicks.push(frame.tick);
      }
    },
    finish() {
      for (const occurrence of waiting.splice(0)) miss(occurrence.tick);
      const ticks = unansweredTicks.length > 0 ? unansweredTicks : measure === 'worst-delay' ? worstTicks : answerTicks;
      if (occurrences === 0) return scoreMilestones('sound-response', spec.milestones, NaN, spec.pass ?? 'atLeast', []);
      if (measure === 'worst-delay') {
        return scoreMilestones('sound-response', spec.milestones, answered < occurrences ? Infinity : worst, spec.pass ?? 'atMost', ticks);
      }
      return scoreMilestones('sound-response', spec.milestones, answered / occurrences, spec.pass ?? 'atLeast', ticks);
    },
  };
}

/** `voices`: the most voices playing during any frame of the window. */
export function voicesValidator(spec: VoicesValidatorSpec, ctx: ValidatorContext): Validator {
  const matches = (sound: string | null | undefined) => spec.sound === undefined || sound === spec.sound;
  /** Matching voices playing at the end of the previous frame. */
  let before = 0;
  let most = 0;
  let mostTick = -1;
  let current = 0;
  return {
    trace: () => current,
    observe(frame) {
      const events = ctx.state.events;
      let started = 0;
      let audio = false;
      for (const e of events) {
        if (!e.name.startsWith('audio:')) continue;
        audio = true;
        if (e.name === 'audio:start' && matches((e.data as AudioStartRecord).sound)) started++;
      }
      current = before + started;
      if (inWindow(frame.time, spec.window) && current > most) {
        most = current;
        mostTick = frame.tick;
      }
      if (!audio) return; // nothing started, changed or stopped: the same voices play
      before = 0;
      for (const voice of ctx.state.voices.values()) if (matches(voice.sound)) before++;
    },
    finish() {
      return scoreMilestones('voices', spec.milestones, most, spec.pass ?? 'atMost', mostTick >= 0 ? [mostTick] : []);
    },
  };
}

/** `sound-follows`: the worst distance between a sound's playing voices and a subject. */
export function soundFollowsValidator(spec: SoundFollowsValidatorSpec, ctx: ValidatorContext): Validator {
  const at = subject(ctx, spec.subject);
  let worst = -1;
  let worstTick = -1;
  let current: number | null = null;
  return {
    trace: () => current,
    observe(frame) {
      current = null;
      if (ctx.state.voices.size === 0 || !inWindow(frame.time, spec.window)) return;
      let place: Vec3 | null | undefined;
      for (const voice of ctx.state.voices.values()) {
        if (voice.sound !== spec.sound) continue;
        if (place === undefined) place = at(frame)?.position ?? null;
        const d = place && voice.position ? axesDistance(ctx, voice.position, place, undefined) : Infinity;
        current = Math.max(current ?? 0, d);
      }
      if (current !== null && current > worst) {
        worst = current;
        worstTick = frame.tick;
      }
    },
    finish() {
      return scoreMilestones('sound-follows', spec.milestones, worst < 0 ? NaN : worst, 'atMost', worstTick >= 0 ? [worstTick] : []);
    },
  };
}
