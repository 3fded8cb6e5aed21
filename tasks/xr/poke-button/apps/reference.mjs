// Presses by continuous penetration with hysteresis, within reach.
import { buttonApp } from './button.mjs';
export const { setup, frame } = buttonApp();
