/**
 * The closed loop without a browser: a scripted stand-in for the page answers each tick (`PageOptions.open`),
 * so these tests pin down the loop itself. The page's output of tick N is the app state of tick N, whatever
 * the batch size; and a page whose published state steers the actors is fed back: the actors see where its
 * tag moved, with the same frames and hash batched or not, pipelined (several round trips outstanding) or in
 * lockstep.
 */
import { describe, expect, it } from 'vitest';
import type { PageEnd } from '../src/browser/host-app.js';
import type { PageStatus, TickInput, TickOutput } from '../src/browser/protocol.js';
import { createSession } from '../src/session/session.js';

const PRESS_TICKS = [100, 220, 340, 460, 580];

/** A stand-in page: a button tag where `buttonAt(tick)` says, and a press at each of PRESS_TICKS. */
function scriptedPage(buttonAt: (tick: number) => number[]) {
  const status: PageStatus = { session: 'running', frameReady: true, requests: false, bridge: 'none', start: { mode: 'immersive-vr', activation: false } };
  const page = {
    batches: [] as number[],
    /** Round trips asked for and not yet answered, now and at most. */
    outstanding: 0,
    mostOutstanding: 0,
    seen: [] as number[],
    inputs: [] as TickInput[],
    status,
    start: null,
    stats: { roundTrips: 0, socketRoundTrips: 0, ticks: 0, totalMs: 0, maxMs: 0 },
    waitForSession: async () => true,
    close: async () => undefined,
    async tick(batch: TickInput[]): Promise<TickOutput[]> {
      page.batches.push(batch.length);
      page.stats.roundTrips++;
      page.mostOutstanding = Math.max(page.mostOutstanding, ++page.outstanding);
      // Answer a turn later, as a real page does: a pipelined session sends on meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      page.outstanding--;
      return batch.map((input) => {
        page.seen.push(input.k);
        page.inputs.push(input);
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

type ScriptedPage = ReturnType<typeof scriptedPage>;

/** A poke-button session whose page is `page` (the task's page entry, opened as the stand-in). */
async function runScripted(page: ScriptedPage, browserBatch: number, browserInFlight?: number) {
  const session = await createSession(
    { task: 'xr/poke-button', seed: 2, dominantHand: 'right', app: 'web-reference', browserBatch, ...(browserInFlight ? { browserInFlight } : {}) },
    { page: { chromium: { browser: () => Promise.reject(new Error('no browser in this test')) }, open: async () => page as unknown as PageEnd } },
  );
  return session.run();
}

const STILL_BUTTON = [0.2, 0.9, -2.3, 0, 0, 0, 1];

/** The first field of two tick inputs that differs, or null when they are identical. */
function differingField(a: TickInput, b: TickInput): string | null {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.find((key) => JSON.stringify(a[key as keyof TickInput]) !== JSON.stringify(b[key as keyof TickInput])) ?? null;
}

describe('the closed loop with a scripted page', () => {
  it('publishes the page output of tick N in tick N, identically for any batch size', async () => {
    const results = [];
    for (const batch of [1, 8, 32]) {
      const page = scriptedPage(() => STILL_BUTTON);
      const result = await runScripted(page, batch);
      // Every tick reached the page once, in order, in round trips of at most `batch` ticks.
      expect(page.seen).toEqual(Array.from({ length: result.ticks + 1 }, (_, i) => i));
      expect(Math.max(...page.batches)).toBe(batch);
      results.push(result);
    }
    const counted = results[0].milestones.find((m) => m.id === 'counts-every-press')!;
    expect(counted.metric).toBe(5);
    // The presses are the session's events at the very ticks the page emitted them.
    expect(counted.ticks).toEqual(PRESS_TICKS);
    expect(results[1].hash).toBe(results[0].hash);
    expect(results[2].hash).toBe(results[0].hash);
  });

  it('feeds a moving tag back to the actors, the same batched or not', async () => {
    // The actors look at and poke the button: where the page moves it, their head follows.
    const moving = (k: number) => [0.2 + 0.002 * k, 0.9, -2.3, 0, 0, 0, 1];
    const still = scriptedPage(() => STILL_BUTTON);
    await runScripted(still, 1);
    const runs = [];
    for (const batch of [1, 32]) {
      const page = scriptedPage(moving);
      runs.push({ page, result: await runScripted(page, batch) });
    }
    const [one, batched] = runs;
    const first = one.page.inputs.findIndex((input, i) => differingField(input, still.inputs[i]) !== null);
    const { k: tick } = one.page.inputs[first];
    expect(differingField(one.page.inputs[first], still.inputs[first])).toBe('f');
    // Nothing looks at the button in the first half second.
    expect(tick).toBeGreaterThan(45);
    expect(batched.page.inputs).toEqual(one.page.inputs);
    expect(batched.result.hash).toBe(one.result.hash);
    expect(batched.page.batches.length).toBeLessThan(one.page.batches.length);
  });

  it('pipelines round trips only where the ticks cannot depend on the answers, with the frames of a lockstep run', async () => {
    const moving = (k: number) => [0.2 + 0.002 * k, 0.9, -2.3, 0, 0, 0, 1];
    const lockstep = scriptedPage(moving);
    const reference = await runScripted(lockstep, 1, 1);
    expect(lockstep.mostOutstanding).toBe(1);
    for (const [batch, inFlight] of [[1, 2], [1, 4], [8, 2], [32, 3]]) {
      const page = scriptedPage(moving);
      const result = await runScripted(page, batch, inFlight);
      const label = `batch ${batch}, ${inFlight} in flight`;
      // The page saw the same inputs in the same order: nothing it answered reached a tick sent before.
      expect(page.inputs, label).toEqual(lockstep.inputs);
      expect(result.hash, label).toBe(reference.hash);
      expect(result.milestones, label).toEqual(reference.milestones);
      // Round trips did overlap, never more than allowed (a batch of 32 meets the tag-following steps sooner).
      expect(page.mostOutstanding, label).toBeLessThanOrEqual(inFlight);
      expect(page.mostOutstanding, label).toBeGreaterThanOrEqual(batch === 1 ? inFlight : 2);
    }
  });
});
