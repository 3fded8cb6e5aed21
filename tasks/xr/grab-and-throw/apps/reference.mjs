// Keeps the grip offset exactly and throws with the hand's velocity.
import { thrower } from './thrower.mjs';
export const { setup, frame } = thrower();
