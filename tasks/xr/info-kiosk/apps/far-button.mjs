// Design flaw (reach comfort): the button floats 0.66 m ahead, where the arm must stretch full length to press it.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ buttonForward: 0.66 });
