// Mistake: the menu is locked to the head, re-placed in front of the eyes every frame.
import { ergonomicMenu } from './menu.mjs';
export const { setup, frame } = ergonomicMenu({ follows: 'head-locked' });
