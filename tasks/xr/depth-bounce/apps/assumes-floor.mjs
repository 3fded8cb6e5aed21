// Mistake: ignores depth and assumes a floor at y = 0.
import { bouncer } from './bouncer.mjs';
export const { setup, frame } = bouncer({ depth: 'none' });
