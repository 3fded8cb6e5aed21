// Design flaw (motion comfort): the large info panel drifts 25 cm side to side while the user stands still.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ swayMetres: 0.25 });
