// Design flaw (interaction feedback): a press counts, but the button neither dips nor clicks.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ feedback: 'none' });
