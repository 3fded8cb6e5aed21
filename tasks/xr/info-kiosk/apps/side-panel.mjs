// Design flaw (neck rotation): the info panel sits 75° to the side of where the user looks.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ panelYawDeg: 75 });
