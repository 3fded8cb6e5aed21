// Bounces on what the latest depth frame shows.
import { bouncer } from './bouncer.mjs';
export const { setup, frame } = bouncer();
