// Forward moves +Z, left moves -X; jumps only from the floor.
import { cubeMove } from './cube.mjs';
export const { setup, frame } = cubeMove();
