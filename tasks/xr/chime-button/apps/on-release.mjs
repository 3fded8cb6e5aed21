// Mistake: the chime is started when the finger leaves the button (a click handler on release), a third
// of a second after the press it confirms.
import { chimeApp } from './chime.mjs';
export const { setup, frame } = chimeApp({ when: 'release' });
