// Design flaw (inside surfaces): the badge sits with its centre 1.5 cm below the table top: half of it inside the table.
import { kiosk } from './kiosk.mjs';
export const { setup, frame } = kiosk({ badgeLift: -0.015 });
