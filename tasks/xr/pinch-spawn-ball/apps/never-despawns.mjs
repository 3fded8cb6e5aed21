// Mistake: never removes the ball when it hits a wall.
import { ballApp } from './ball.mjs';
export const { setup, frame } = ballApp({ despawnOnWall: false });
