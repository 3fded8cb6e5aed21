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
  'physics/cube-move': '648af426c606748e',
  'physics/material-curling': '97fad04aa68b05cb',
  'physics/rolling-ball-checkpoints': '7fb7f003cd73733e',
  'physics/stack-settle': '887f7d0e924300cc',
  'xr/depth-bounce': '711c3aa13e782923',
  'xr/draw-in-air': '168aca20d9f72a1f',
  'xr/ergonomic-menu': '7b366684941043d2',
  'xr/gaze-dwell-select': 'cd2c017718583911',
  'xr/grab-and-throw': '03b2f58f264333a6',
  'xr/late-tracking': '0dc0dab87217b6c2',
  'xr/palm-menu': 'a3c1607af8e1a083',
  'xr/pinch-spawn-ball': '4c584d59fbb5600b',
  'xr/place-on-detected-plane': 'd3e66eba1ff8f595',
  'xr/poke-button': '54a94fce5c44772c',
  'xr/two-hand-frame-photo': '61ca1c0a78b49f50',
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
