// Mistake: reads depth once at startup and trusts it forever.
import { bouncer } from './bouncer.mjs';
export const { setup, frame } = bouncer({ depth: 'startup' });
