// Mistake: the chime is played as a flat UI sound with no position: heard inside the user's head, not at
// the button they pressed.
import { chimeApp } from './chime.mjs';
export const { setup, frame } = chimeApp({ at: 'listener' });
