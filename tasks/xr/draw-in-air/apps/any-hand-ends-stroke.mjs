// Mistake: any hand's pinch release ends the stroke, not only the drawing hand's.
import { drawing } from './drawing.mjs';
export const { setup, frame } = drawing({ endedBy: 'any' });
