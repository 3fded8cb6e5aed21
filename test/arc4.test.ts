/**
 * `kernels/arc4.ts` must give seedrandom's numbers exactly: every session's random streams come from it,
 * and a single differing bit would change every pinned session hash.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { Arc4Stream } from '../kernels/arc4.js';

describe('Arc4Stream', () => {
  it("draws seedrandom's doubles, bit for bit, for the seeds sessions use and for odd ones", () => {
    const seeds = ['', '0/app', '1/initial-conditions', '7/perturbation/tremor-left', 'x'.repeat(300), 'ünïcödé ✓/depth-noise'];
    for (let i = 0; i < 300; i++) seeds.push(`${i * 7919}/${['app', 'tracking-noise', 'actor-timing', 'initial-conditions'][i % 4]}`);
    let compared = 0;
    for (const seed of seeds) {
      const reference = seedrandom(seed);
      const stream = new Arc4Stream(seed);
      for (let k = 0; k < 100; k++) {
        const expected = reference.double();
        const got = stream.double();
        if (!Object.is(got, expected)) expect({ seed, draw: k, got }).toEqual({ seed, draw: k, got: expected });
        compared++;
      }
    }
    expect(compared).toBe(seeds.length * 100);
  });

  it('keeps its bytes to the same order as ARC4 outputs them', () => {
    // Two streams of one seed: one byte at a time and six at once (the first byte most significant).
    const a = new Arc4Stream('bytes');
    const b = new Arc4Stream('bytes');
    let joined = 0;
    for (let k = 0; k < 6; k++) joined = joined * 256 + a.bytes(1);
    expect(b.bytes(6)).toBe(joined);
    expect(joined).toBeLessThan(256 ** 6);
  });
});
