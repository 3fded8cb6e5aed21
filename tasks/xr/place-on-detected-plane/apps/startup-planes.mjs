// Mistake: reads the detected planes once, at startup, and never again.
import { placer } from './placer.mjs';
export const { setup, frame } = placer({ planes: 'startup' });
