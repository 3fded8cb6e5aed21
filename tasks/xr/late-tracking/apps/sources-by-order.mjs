// Mistake: tells the hands apart by their order in inputSources (left first, right second), not by handedness.
import { cursors } from './cursors.mjs';
export const { setup, frame } = cursors({ find: 'by-order' });
