// Mistake: any hand's pinch release lets go of the cube, not only the holding hand's.
import { thrower } from './thrower.mjs';
export const { setup, frame } = thrower({ releasedBy: 'any' });
