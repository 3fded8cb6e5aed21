// Mistake: touch as a boolean, reported every frame the finger is inside the button.
import { buttonApp } from './button.mjs';
export const { setup, frame } = buttonApp({ perFrame: true });
