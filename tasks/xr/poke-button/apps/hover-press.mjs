// Mistake: a press is the fingertip entering a 2 cm deep collider in front of the button's face, an overlap
// test: a finger hovering just in front of the button presses it.
import { buttonApp } from './button.mjs';
export const { setup, frame } = buttonApp({ enterDepth: -0.02, exitDepth: -0.025 });
