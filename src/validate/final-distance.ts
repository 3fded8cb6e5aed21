/**
 * Final distance: how far a body ends from a task-frame target. `pass: atLeast` scores "got away from".
 */
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import type { FinalDistanceValidatorSpec } from '../task/types.js';
import { axisMask, bodyPositionInTaskFrame, maskedDistance, taskBodyIndex } from './context.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** Creates a `final-distance` validator: metric = final distance to the target, m. */
export function finalDistanceValidator(spec: FinalDistanceValidatorSpec, model: SimModel): Validator {
  const index = taskBodyIndex(model, spec.body);
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
