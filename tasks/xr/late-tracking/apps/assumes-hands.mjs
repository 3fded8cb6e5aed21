// Mistake: assumes both hands are always tracked.
import { cursors } from './cursors.mjs';
export const { setup, frame } = cursors({ find: 'assume' });
