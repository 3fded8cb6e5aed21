// Hit-tests against the planes detected now.
import { placer } from './placer.mjs';
export const { setup, frame } = placer();
