// Mistake: after the first ball, spawns (and holds) balls at the wrist, the hand's root joint.
import { xr } from 'xrsim';
import { spawner } from '../lib/spawner.mjs';
export const { setup, frame } = spawner({ spawnPoint: (source) => xr.joint(source, 'wrist') });
