// Everything where it should be: the panel a metre ahead, the button within reach, feedback at once.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk();
