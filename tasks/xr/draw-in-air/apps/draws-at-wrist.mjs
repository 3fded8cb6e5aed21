// Mistake: the wrist (the hand's root joint) is the pen.
import { drawing } from './drawing.mjs';
export const { setup, frame } = drawing({ pen: 'wrist' });
