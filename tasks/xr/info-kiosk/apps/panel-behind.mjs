// Design flaw (behind or below): the info panel appears behind the user.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ panelYawDeg: 180 });
