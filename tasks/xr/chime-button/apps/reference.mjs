// A 0.3 s chime at the button on every press (8 mm in / 3 mm out hysteresis), one voice at a time.
import { chimeApp } from './chime.mjs';
export const { setup, frame } = chimeApp();
