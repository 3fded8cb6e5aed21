/**
 * Pinned session hashes: one session per suite task (seed 1, right hand, the task's own scene, its
 * reference app). Any change to Node, Rapier or our code that alters a result fails here loudly. A change
 * that alters results on purpose bumps KERNEL_VERSION and re-pins these hashes in the same commit, saying
 * why in its message; a refactor must leave every one of them as it is.
 */
import { describe, expect, it } from 'vitest';
import { KERNEL_VERSION, listTaskIds, runSession } from '../src/index.js';

/** The kernel version these hashes were taken with. */
const PINNED_KERNEL_VERSION = '4';

const PINNED: Record<string, string> = {
  'physics/cube-move': 'ec12bb38acd7b270',
  'physics/material-curling': '97fad04aa68b05cb',
  'physics/rolling-ball-checkpoints': '7fb7f003cd73733e',
  'physics/stack-settle': '887f7d0e924300cc',
  'xr/depth-bounce': '711c3aa13e782923',
  'xr/draw-in-air': '089802efb6a63b56',
  'xr/ergonomic-menu': '85bb80c0c0321300',
  'xr/gaze-dwell-select': 'cd2c017718583911',
  'xr/grab-and-throw': '8d3001f934bfea2e',
  'xr/late-tracking': '4d83784e99962709',
  'xr/palm-menu': 'e451e48b205f1d2c',
  'xr/pinch-spawn-ball': '3dd08f74180d0eff',
  'xr/place-on-detected-plane': '86d8e3fa60bab844',
  'xr/poke-button': '1aa8fae711065cca',
  'xr/two-hand-frame-photo': '01eea15535fd4181',
};

describe('pinned session hashes (seed 1, right hand, default scene)', () => {
  it('were taken with the current kernel version (bump both together)', () => {
    expect(KERNEL_VERSION).toBe(PINNED_KERNEL_VERSION);
  });

  it('pin every suite task', () => {
    expect(Object.keys(PINNED).sort()).toEqual([...listTaskIds()].sort());
  });

  it.each(Object.entries(PINNED))('%s', async (task, hash) => {
    const result = await runSession({ task, seed: 1, dominantHand: 'right' });
    expect(result.status, result.error?.message).toBe('passed');
    expect(result.hash).toBe(hash);
  });
});
