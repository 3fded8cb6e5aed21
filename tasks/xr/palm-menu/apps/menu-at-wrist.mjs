// Mistake: anchored to the wrist, the hand's root joint, rather than the palm.
import { palmMenu } from './menu.mjs';
export const { setup, frame } = palmMenu({ anchorJoint: 'wrist' });
