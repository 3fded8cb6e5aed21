// Mistake: world-locked, never follows the user.
import { ergonomicMenu } from './menu.mjs';
export const { setup, frame } = ergonomicMenu({ follows: 'never' });
