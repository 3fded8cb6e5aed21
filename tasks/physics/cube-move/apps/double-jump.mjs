// Mistake: jumps whenever A is pressed, even in the air.
import { cubeMove } from './cube.mjs';
export const { setup, frame } = cubeMove({ groundedJumpsOnly: false });
