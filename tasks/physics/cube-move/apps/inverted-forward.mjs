// Mistake: the stick's y axis maps straight onto Z, inverting forward.
import { cubeMove } from './cube.mjs';
export const { setup, frame } = cubeMove({ invertForward: true });
