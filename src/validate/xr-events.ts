/**
 * XR formulas on discrete happenings: presses by continuous penetration with hysteresis, event counts,
 * and events in order within timing windows.
 */
import { rotateVec } from '../geometry/math.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { eventName, hasEvent, inWindow, subject, type ValidatorContext } from './xr-context.js';

/**
 * Presses by continuous penetration with hysteresis: a finger's depth behind a target's face (the target's
 * +Z axis is its outward normal), within `radius` of its centre. A press starts at `enterDepth` and ends
 * when the depth falls below `exitDepth`. Metric: count.
 */
export const presses = defineFormula({
  type: 'presses',
  description: 'Presses by continuous penetration with enter/exit hysteresis: a finger\'s depth behind a target\'s face (its +Z axis) within a radius. Metric: count.',
  options: {
    finger: schema.subject,
    target: schema.subject,
    enterDepth: { type: 'number' },
    exitDepth: { type: 'number' },
    radius: { type: 'number', exclusiveMinimum: 0 },
    pass: schema.pass,
  },
  required: ['finger', 'target', 'enterDepth', 'exitDepth', 'radius'],
  frameState: true,
  create: (spec, ctx): Validator => pressesValidator(spec, ctx),
});
/** The options of `presses`. */
export type PressesValidatorSpec = SpecOf<typeof presses>;

/** Number of events of one name in a window. Metric: count. */
export const eventCount = defineFormula({
  type: 'event-count',
  description: 'Number of events of one name in a window. Metric: count.',
  options: {
    event: { type: 'string', minLength: 1 },
    window: schema.window,
    pass: schema.pass,
  },
  required: ['event'],
  frameState: true,
  create: (spec, ctx): Validator => eventCountValidator(spec, ctx),
});
/** The options of `event-count`. */
export type EventCountValidatorSpec = SpecOf<typeof eventCount>;

/**
 * Events in order, each within timing bounds after the previous one (or after time 0 for the first).
 * Metric: how many steps were met in order.
 */
export const eventOrder = defineFormula({
  type: 'event-order',
  description: 'Events in order, each `after`..`within` seconds after the previous. Metric: steps met in order.',
  options: {
    steps: { type: 'array', minItems: 1, items: { type: 'object', additionalProperties: false, required: ['event'], properties: { event: { type: 'string', minLength: 1 }, after: { type: 'number', minimum: 0 }, within: { type: 'number', exclusiveMinimum: 0 } } } },
  },
  required: ['steps'],
  frameState: true,
  create: (spec, ctx): Validator => eventOrderValidator(spec, ctx),
});
/** The options of `event-order`. */
export type EventOrderValidatorSpec = SpecOf<typeof eventOrder>;

/** `presses`: how many times a finger pressed into a target, with enter/exit hysteresis on the depth. */
export function pressesValidator(spec: PressesValidatorSpec, ctx: ValidatorContext): Validator {
  const finger = subject(ctx, spec.finger);
  const target = subject(ctx, spec.target);
  let pressed = false;
  let count = 0;
  const ticks: number[] = [];
  let current: number | null = null;
  return {
    trace: () => current,
    observe(frame) {
      const f = finger(frame);
      const t = target(frame);
      let depth = -Infinity;
      if (f && t) {
        const n = rotateVec(t.rotation ?? [0, 0, 0, 1], [0, 0, 1]);
        const d = [f.position[0] - t.position[0], f.position[1] - t.position[1], f.position[2] - t.position[2]];
        const along = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
        const lateral = Math.hypot(d[0] - along * n[0], d[1] - along * n[1], d[2] - along * n[2]);
        if (lateral <= spec.radius) depth = -along;
      }
      current = Number.isFinite(depth) ? depth : null;
      if (!pressed && depth >= spec.enterDepth) {
        pressed = true;
        count++;
        ticks.push(frame.tick);
      } else if (pressed && depth < spec.exitDepth) {
        pressed = false;
      }
    },
    finish() {
      return scoreMilestones('presses', spec.milestones, count, spec.pass ?? 'exactly', ticks);
    },
  };
}

/** `event-count`: how many events of a name happened in a window. */
export function eventCountValidator(spec: EventCountValidatorSpec, ctx: ValidatorContext): Validator {
  const name = eventName(ctx, spec.event);
  let count = 0;
  const ticks: number[] = [];
  return {
    trace: () => count,
    observe(frame) {
      if (!inWindow(frame.time, spec.window)) return;
      for (const e of ctx.state.events) {
        if (e.name !== name) continue;
        count++;
        if (ticks.length < 16) ticks.push(frame.tick);
      }
    },
    finish() {
      return scoreMilestones('event-count', spec.milestones, count, spec.pass ?? 'atLeast', ticks);
    },
  };
}

/** `event-order`: how many steps happened in order, each within its bounds after the previous one. */
export function eventOrderValidator(spec: EventOrderValidatorSpec, ctx: ValidatorContext): Validator {
  const steps = spec.steps.map((s) => ({ ...s, event: eventName(ctx, s.event) }));
  let next = 0;
  let lastTime = 0;
  let failed = false;
  const ticks: number[] = [];
  return {
    trace: () => next,
    observe(frame) {
      if (failed || next >= steps.length) return;
      const step = steps[next];
      const since = frame.time - lastTime;
      if (step.within !== undefined && since > step.within + 1e-9) {
        failed = true;
        return;
      }
      if (!hasEvent(ctx, step.event) || since < (step.after ?? 0) - 1e-9) return;
      next++;
      lastTime = frame.time;
      ticks.push(frame.tick);
    },
    finish() {
      return scoreMilestones('event-order', spec.milestones, next, 'atLeast', ticks);
    },
  };
}
