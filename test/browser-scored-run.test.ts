/**
 * Scored browser runs without a browser: a scripted stand-in for the page answers each tick, so these tests
 * pin down the glue itself. The scoring replay publishes the page's output of tick N in tick N (no relay
 * delay), whatever the batch size; and a page whose published state steers the actors, which an open-loop
 * pass cannot reproduce, is rejected with the first tick and field that differ.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserApp } from '../src/browser/browser-app.js';
import type { TickInput, TickOutput } from '../src/browser/protocol.js';
import { ReplayDivergedError, runBrowserApp } from '../src/browser/scored-run.js';

const PRESS_TICKS = [100, 220, 340, 460, 580];

/** A stand-in page: a button tag where `buttonAt(tick)` says, and a press at each of PRESS_TICKS. */
function scriptedPage(buttonAt: (tick: number) => number[]) {
  const seen: number[] = [];
  const page = {
    batches: [] as number[],
    seen,
    async tick(batch: TickInput[]): Promise<TickOutput[]> {
      page.batches.push(batch.length);
      return batch.map((input) => {
        seen.push(input.k);
        return {
          k: input.k,
          tags: [['button', buttonAt(input.k)]],
          events: PRESS_TICKS.includes(input.k) ? [['button-pressed', { hand: 'right' }]] : [],
          errors: [],
          requests: [],
          session: 'running',
        };
      });
    },
  };
  return page;
}

const spec = { task: 'xr/poke-button', seed: 2, dominantHand: 'right' as const };
const STILL_BUTTON = [0.2, 0.9, -2.3, 0, 0, 0, 1];

describe('scored browser runs', () => {
  it('publish the page output of tick N in tick N, identically for any batch size', async () => {
    const runs = [];
    for (const batch of [1, 8, 45]) {
      const page = scriptedPage(() => STILL_BUTTON);
      const run = await runBrowserApp({ spec, app: page as unknown as BrowserApp, batch });
      // Every tick reached the page once, in order, in batches that grow to the limit.
      expect(page.seen).toEqual(run.inputs.map((i) => i.k));
      expect(page.seen).toEqual(Array.from({ length: run.result.ticks + 1 }, (_, i) => i));
      expect(Math.max(...page.batches)).toBe(batch);
      runs.push(run);
    }
    const counted = runs[0].result.milestones.find((m) => m.id === 'counts-every-press')!;
    expect(counted.metric).toBe(5);
    // The presses are the session's events at the very ticks the page emitted them.
    expect(counted.ticks).toEqual(PRESS_TICKS);
    expect(runs[1].result.hash).toBe(runs[0].result.hash);
    expect(runs[2].result.hash).toBe(runs[0].result.hash);
  });

  it('reject a page whose moving tag steers the actors, naming the first tick and field that differ', async () => {
    // The actors look at and poke the button: fed late in the open-loop pass, their head moves otherwise.
    const page = scriptedPage((k) => [0.2 + 0.002 * k, 0.9, -2.3, 0, 0, 0, 1]);
    const error = await runBrowserApp({ spec, app: page as unknown as BrowserApp, batch: 45 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayDivergedError);
    const { tick, field } = (error as ReplayDivergedError).divergence;
    expect(field).toBe('f');
    // Nothing looks at the button in the first half second.
    expect(tick).toBeGreaterThan(45);
  });
});
