// Finds the hands every frame; shows nothing while they are missing.
import { cursors } from './cursors.mjs';
export const { setup, frame } = cursors();
