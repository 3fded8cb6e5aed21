// Design flaw (viewing distance): the panel floats 15 cm from the eyes (scaled down, so it looks as large).
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ panelDistance: 0.15, panelScale: 0.15 });
