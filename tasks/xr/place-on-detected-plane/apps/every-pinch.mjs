// Mistake: every pinch places the cube anew, whichever hand makes it.
import { placer } from './placer.mjs';
export const { setup, frame } = placer({ once: false });
