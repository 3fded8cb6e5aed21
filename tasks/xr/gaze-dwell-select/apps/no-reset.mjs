// Mistake: dwell time accumulates and never resets.
import { dwellSelect } from './dwell.mjs';
export const { setup, frame } = dwellSelect({ resets: false });
