/**
 * Region: how far a body strays outside a task-frame box at worst (0 when it always stays inside).
 */
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { bodyPositionInTaskFrame, bodyIndex } from './context.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** Excursion outside a task-frame box. Metric: metres. */
export const region = defineFormula({
  type: 'region',
  description: 'How far a body strays outside a task-frame box over the session. Metric: metres outside (0 when always inside); passes when metric ≤ threshold.',
  options: {
    body: schema.body,
    min: schema.vec3,
    max: schema.vec3,
  },
  required: ['body', 'min', 'max'],
  frameState: false,
  create: (spec, ctx): Validator => regionValidator(spec, ctx.model),
});
/** The options of `region`. */
export type RegionValidatorSpec = SpecOf<typeof region>;

/** Creates a `region` validator: metric = worst distance outside the box, m. */
export function regionValidator(spec: RegionValidatorSpec, model: SimModel): Validator {
  const index = bodyIndex(model, spec.body);
  const here = new Float64Array(3);
  let worst = 0;
  let worstTick = 0;
  let current: number | null = null;
  return {
    trace: () => current,
    observe(frame: FrameView) {
      bodyPositionInTaskFrame(model, frame.bodyPoses, index, here);
      let squared = 0;
      for (let i = 0; i < 3; i++) {
        const outside = Math.max(spec.min[i] - here[i], 0, here[i] - spec.max[i]);
        squared += outside * outside;
      }
      const distance = Math.sqrt(squared);
      current = distance;
      if (distance > worst) {
        worst = distance;
        worstTick = frame.tick;
      }
    },
    finish() {
      return scoreMilestones('region', spec.milestones, worst, 'atMost', [worstTick]);
    },
  };
}
