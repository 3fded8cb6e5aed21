// Mistake: looks for the hands once, at startup.
import { cursors } from './cursors.mjs';
export const { setup, frame } = cursors({ find: 'once' });
