// Design flaw (hand-locked stability): the palm menu eases toward the palm instead of being fixed to it.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ menuFollowRate: 6 });
