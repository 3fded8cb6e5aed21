// Mistake: drops the cube at the hand instead of on the hit.
import { placer } from './placer.mjs';
export const { setup, frame } = placer({ at: 'hand' });
