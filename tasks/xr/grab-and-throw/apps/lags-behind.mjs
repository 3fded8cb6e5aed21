// Mistake: smooths the carried cube toward the hand, so it trails the grip.
import { thrower } from './thrower.mjs';
export const { setup, frame } = thrower({ smoothing: 0.2 });
