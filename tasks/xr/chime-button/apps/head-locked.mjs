// Mistake: the chime is placed 0.45 m in front of the eyes, where the user is assumed to look, rather than
// at the button: right while the user looks at the button, 30 cm off when they press it looking elsewhere.
import { chimeApp } from './chime.mjs';
export const { setup, frame } = chimeApp({ at: 'head' });
