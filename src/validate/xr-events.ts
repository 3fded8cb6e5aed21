/**
 * XR formulas on discrete happenings: presses by continuous penetration with hysteresis, event counts,
 * and events in order within timing windows.
 */
import { rotateVec } from '../geometry/math.js';
import type { EventCountValidatorSpec, EventOrderValidatorSpec, PressesValidatorSpec } from '../task/types.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';
import { eventName, hasEvent, inWindow, subject, type ValidatorContext } from './xr-context.js';

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
