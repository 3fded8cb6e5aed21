/**
 * First contact: the time two task objects first touch (a contact-start event between their colliders).
 */
import { EventType } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { colliderMask } from './context.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** First contact between two task objects. Metric: seconds. */
export const contact = defineFormula({
  type: 'contact',
  description: 'Time of the first contact between two objects (a body, and a body, fixture or surface). Metric: seconds (Infinity when none); passes when metric ≤ threshold.',
  options: {
    a: schema.body,
    b: schema.object,
  },
  required: ['a', 'b'],
  frameState: false,
  create: (spec, ctx): Validator => contactValidator(spec, ctx.model),
});
/** The options of `contact`. */
export type ContactValidatorSpec = SpecOf<typeof contact>;

/** Creates a `contact` validator: metric = time of the first contact, s. */
export function contactValidator(spec: ContactValidatorSpec, model: SimModel): Validator {
  const a = colliderMask(model, [spec.a]);
  const b = colliderMask(model, [spec.b]);
  let firstTick = -1;
  let firstTime = Infinity;
  return {
    observe(frame: FrameView) {
      if (firstTick >= 0) return;
      const e = frame.events;
      for (let i = 0; i < frame.eventWords; i += 1 + (e[i] & 0xffff)) {
        if (e[i] >>> 16 !== EventType.ContactStart) continue;
        const c1 = e[i + 1];
        const c2 = e[i + 2];
        if ((a[c1] && b[c2]) || (a[c2] && b[c1])) {
          firstTick = frame.tick;
          firstTime = frame.time;
          return;
        }
      }
    },
    finish() {
      return scoreMilestones('contact', spec.milestones, firstTime, 'atMost', firstTick >= 0 ? [firstTick] : []);
    },
  };
}
