// Mistake: spawns at a reading distance, out of reach.
import { ergonomicMenu } from './menu.mjs';
export const { setup, frame } = ergonomicMenu({ distance: 1.2 });
