// Spawns at the pinch point, follows it, throws with its velocity, disappears on a wall.
import { ballApp } from './ball.mjs';
export const { setup, frame } = ballApp();
