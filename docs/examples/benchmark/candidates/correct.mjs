// Spawns every ball at the pinch point and lets it fall on release.
import { spawner } from '../lib/spawner.mjs';
export const { setup, frame } = spawner();
