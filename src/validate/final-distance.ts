/**
 * Final distance: how far a body ends from a task-frame target. `pass: atLeast` scores "got away from".
 */
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { axisMask, bodyPositionInTaskFrame, maskedDistance, bodyIndex } from './context.js';
import { defineFormula, schema, type SpecOf } from './formula.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** Final distance to a target. Metric: metres. */
export const finalDistance = defineFormula({
  type: 'final-distance',
  description: 'Distance from a body\'s final position to a target point in the task frame. Metric: metres; `pass` says whether it must be at most (default) or at least the threshold.',
  options: {
    body: schema.body,
    target: schema.vec3,
    axes: schema.axes,
    pass: { enum: ['atMost', 'atLeast'] },
  },
  required: ['body', 'target'],
  frameState: false,
  create: (spec, ctx): Validator => finalDistanceValidator(spec, ctx.model),
});
/** The options of `final-distance`. */
export type FinalDistanceValidatorSpec = SpecOf<typeof finalDistance>;

/** Creates a `final-distance` validator: metric = final distance to the target, m. */
export function finalDistanceValidator(spec: FinalDistanceValidatorSpec, model: SimModel): Validator {
  const index = bodyIndex(model, spec.body);
  const mask = axisMask(spec.axes);
  const last = new Float64Array(3);
  let lastTick = -1;
  return {
    trace: () => (lastTick < 0 ? null : maskedDistance(last, spec.target, mask)),
    observe(frame: FrameView) {
      bodyPositionInTaskFrame(model, frame.bodyPoses, index, last);
      lastTick = frame.tick;
    },
    finish() {
      const distance = lastTick < 0 ? Infinity : maskedDistance(last, spec.target, mask);
      return scoreMilestones('final-distance', spec.milestones, distance, spec.pass ?? 'atMost', [lastTick]);
    },
  };
}
