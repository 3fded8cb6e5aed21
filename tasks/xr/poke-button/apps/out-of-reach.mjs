// Mistake: the button is placed at a comfortable viewing distance, beyond arm's reach.
import { buttonApp } from './button.mjs';
export const { setup, frame } = buttonApp({ distance: 0.85 });
