// Design flaw (response latency): a press is answered (the dip, the click) half a second late.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ feedback: 'late' });
