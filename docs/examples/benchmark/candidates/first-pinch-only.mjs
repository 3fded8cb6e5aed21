// Mistake: spawns a ball on the first pinch only.
import { spawner } from '../lib/spawner.mjs';
export const { setup, frame } = spawner({ spawnsOnce: true });
