/**
 * Bounded drift: the largest displacement of any listed body from where it was at time `from`.
 */
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { axisMask, bodyPositionInTaskFrame, maskedDistance, bodyIndex } from './context.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** Largest displacement since time `from`. Metric: metres. */
export const drift = defineFormula({
  type: 'drift',
  description: 'Bounded drift: the largest displacement of any listed body from where it was at time `from`. Metric: metres; passes when metric ≤ threshold.',
  options: {
    bodies: { type: 'array', minItems: 1, items: schema.body },
    from: { type: 'number', minimum: 0 },
    axes: schema.axes,
  },
  required: ['bodies', 'from'],
  frameState: false,
  create: (spec, ctx): Validator => driftValidator(spec, ctx.model),
});
/** The options of `drift`. */
export type DriftValidatorSpec = SpecOf<typeof drift>;

/** Creates a `drift` validator: metric = largest displacement since `from`, m. */
export function driftValidator(spec: DriftValidatorSpec, model: SimModel): Validator {
  const indices = spec.bodies.map((id) => bodyIndex(model, id));
  const mask = axisMask(spec.axes);
  const reference = indices.map(() => new Float64Array(3));
  const here = new Float64Array(3);
  const fromTick = Math.round(spec.from / model.timing.dt);
  let referenced = false;
  let maxDrift = 0;
  let maxTick = fromTick;
  return {
    observe(frame: FrameView) {
      if (frame.tick < fromTick) return;
      for (let k = 0; k < indices.length; k++) {
        if (!referenced) {
          bodyPositionInTaskFrame(model, frame.bodyPoses, indices[k], reference[k]);
          continue;
        }
        bodyPositionInTaskFrame(model, frame.bodyPoses, indices[k], here);
        const drift = maskedDistance(here, reference[k], mask);
        if (drift > maxDrift) {
          maxDrift = drift;
          maxTick = frame.tick;
        }
      }
      referenced = true;
    },
    finish() {
      return scoreMilestones('drift', spec.milestones, referenced ? maxDrift : Infinity, 'atMost', [fromTick, maxTick]);
    },
  };
}
