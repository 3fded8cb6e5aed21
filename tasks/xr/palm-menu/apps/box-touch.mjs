// Mistake: a press is the fingertip inside the menu's bounding box, a boolean overlap with no depth.
import { palmMenu } from './menu.mjs';
export const { setup, frame } = palmMenu({ touch: 'box' });
