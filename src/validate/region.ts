/**
 * Region: how far a body strays outside a task-frame box at worst (0 when it always stays inside).
 */
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import type { RegionValidatorSpec } from '../task/types.js';
import { bodyPositionInTaskFrame, taskBodyIndex } from './context.js';
import { scoreMilestones } from './score.js';
import type { Validator } from './types.js';

/** Creates a `region` validator: metric = worst distance outside the box, m. */
export function regionValidator(spec: RegionValidatorSpec, model: SimModel): Validator {
  const index = taskBodyIndex(model, spec.body);
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
