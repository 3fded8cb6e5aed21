// Mistake: uses the wrist (the hand's root joint) as where the hand is.
import { ballApp } from './ball.mjs';
export const { setup, frame } = ballApp({ anchorJoint: 'wrist' });
