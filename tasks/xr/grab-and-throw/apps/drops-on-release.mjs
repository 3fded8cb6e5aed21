// Mistake: releases the cube with no velocity.
import { thrower } from './thrower.mjs';
export const { setup, frame } = thrower({ keepsVelocity: false });
