// Mistake: the gaze ray is the world's -Z from the head, not the head's forward axis.
import { dwellSelect } from './dwell.mjs';
export const { setup, frame } = dwellSelect({ gaze: 'world' });
