// Mistake: the menu never hides.
import { palmMenu } from './menu.mjs';
export const { setup, frame } = palmMenu({ hides: false });
