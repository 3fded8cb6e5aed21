// Design flaw (angular size): the panel's text is 4 mm tall at a metre, a quarter of a degree.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ textHeight: 0.004 });
