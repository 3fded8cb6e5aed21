// Continuous dwell of 1 s selects; looking away resets.
import { dwellSelect } from './dwell.mjs';
export const { setup, frame } = dwellSelect();
