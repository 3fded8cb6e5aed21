/**
 * Ordered checkpoints: how many of the listed sensors a body entered in the listed order.
 * Only first entries matter; entering a later checkpoint early does not skip the ones before it.
 */
import { EventType } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { sensorIndexOf } from '../model/references.js';
import { colliderMask } from './context.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** Ordered checkpoints entered by one body. Metric: count reached in order. */
export const checkpoints = defineFormula({
  type: 'checkpoints',
  description: 'Counts the listed sensors a body enters in the listed order (first entries). Metric: checkpoints reached in order; a milestone passes when metric ≥ threshold.',
  options: {
    body: schema.body,
    sensors: { type: 'array', minItems: 1, items: schema.sensor },
    within: { type: 'number', exclusiveMinimum: 0, description: 'Only entries before this time (s) count.' },
  },
  required: ['body', 'sensors'],
  frameState: false,
  create: (spec, ctx): Validator => checkpointsValidator(spec, ctx.model),
});
/** The options of `checkpoints`. */
export type CheckpointsValidatorSpec = SpecOf<typeof checkpoints>;

/** Creates a `checkpoints` validator: metric = checkpoints reached in order. */
export function checkpointsValidator(spec: CheckpointsValidatorSpec, model: SimModel): Validator {
  const body = colliderMask(model, [spec.body]);
  // Collider index → position of its sensor in the ordered list, or -1.
  const order = new Int32Array(model.colliders.length).fill(-1);
  spec.sensors.forEach((ref, position) => {
    for (const c of model.sensors[sensorIndexOf(model, ref, { bare: 'task' })].colliders) order[c] = position;
  });
  const limit = spec.within ?? Infinity;
  const entryTicks: number[] = [];
  let next = 0;
  return {
    observe(frame: FrameView) {
      if (next >= spec.sensors.length || frame.time > limit) return;
      const e = frame.events;
      for (let i = 0; i < frame.eventWords; i += 1 + (e[i] & 0xffff)) {
        if (e[i] >>> 16 !== EventType.SensorEnter) continue;
        const a = e[i + 1];
        const b = e[i + 2];
        const position = body[a] ? order[b] : body[b] ? order[a] : -1;
        if (position === next) {
          entryTicks.push(frame.tick);
          next++;
        }
      }
    },
    finish() {
      return scoreMilestones('checkpoints', spec.milestones, next, 'atLeast', entryTicks);
    },
  };
}
