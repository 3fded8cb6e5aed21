// Mistake: any hand's pinch release lets go of the ball, not only the holding hand's.
import { ballApp } from './ball.mjs';
export const { setup, frame } = ballApp({ releasedBy: 'any' });
