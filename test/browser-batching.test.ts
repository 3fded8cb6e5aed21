/**
 * Batched and pipelined browser sessions: a session sends several ticks per round trip, and sends the next
 * round trips before the answers come, only while nothing in them can depend on the page's answers, and its
 * results are bit-identical to one tick per round trip in lockstep.
 *
 * The first part checks the actor side's declarations without a browser: whenever the runner says its next
 * tick is quiet, that tick's update keeps running and reads no app state. The second runs the suite's
 * pages in real Chromium (skipped only with XRSIM_SKIP_SYSTEM=1), batched and not.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { actorApi, type ActorScript } from '../src/actors/api.js';
import type { ActorContext } from '../src/actors/action.js';
import { ActorRunner } from '../src/actors/runner.js';
import { Frame } from '../src/frame/frame.js';
import { closeSharedChromium } from '../src/browser/chromium.js';
import { createSession, type SessionResult } from '../src/index.js';
import { normalizeSpec } from '../src/session/spec.js';
import { SKIP_SYSTEM } from './helpers/browser.js';

const DT = 1 / 90;

/** A context that counts reads of the app's state and gives a user that accepts every command. */
function countingContext() {
  const reads: number[] = [];
  const anything: unknown = new Proxy(() => anything, { get: (_t, key) => (key === 'then' ? undefined : anything), apply: () => anything });
  const ctx = {
    t: 0,
    tick: 0,
    model: { timing: { dt: DT }, taskFrame: { position: [0, 0, 0], rotation: [0, 0, 0, 1] } },
    user: anything,
    simUser: { head: { position: [0, 1.6, 0], yaw: 0, pitch: 0 } },
    jitter: (s: number) => s,
    get tags() {
      reads.push(ctx.tick);
      return null;
    },
    appEventCount: () => (reads.push(ctx.tick), 0),
  };
  return { ctx: ctx as unknown as ActorContext, reads };
}

/** Steps `script`; at every tick the runner called quiet, its next tick must end nothing and read no app state. */
function checkQuietDeclarations(script: ActorScript, ticks: number): number {
  const runner = new ActorRunner(script);
  const { ctx, reads } = countingContext();
  const frame = new Frame({ fixedBytes: 16, channels: [] } as never);
  let quietTicks = 0;
  let pendingQuiet = false;
  for (let tick = 1; tick <= ticks; tick++) {
    ctx.tick = tick - 1;
    ctx.t = (tick - 1) * DT;
    pendingQuiet = tick > 1 && runner.quietNextTick(ctx);
    ctx.tick = tick;
    ctx.t = tick * DT;
    const readsBefore = reads.length;
    const current = (runner as unknown as { current: unknown }).current;
    runner.tick(ctx, frame);
    if (pendingQuiet && !runner.done) {
      quietTicks++;
      expect(reads.length, `tick ${tick} read app state after a quiet declaration`).toBe(readsBefore);
      expect((runner as unknown as { current: unknown }).current, `tick ${tick} ended its step after a quiet declaration`).toBe(current);
    }
  }
  return quietTicks;
}

describe('quiet actor steps (the actor side of batching)', () => {
  it('are exact: a tick declared quiet keeps its step running and reads no tag or app event', () => {
    const script: ActorScript = function* (a) {
      yield a.wait(0.5);
      yield a.hand('dominant').reach(a.at(0, 0.3, 0.1), { duration: 0.4 });
      yield [a.hand('dominant').pinch(), a.wait(0.3)];
      yield a.until((view) => view.appEvents('done') > 0, { timeout: 0.2 });
      yield a.head.lookAt(a.tag('button'), { timeout: 0.2 });
      yield a.hand('dominant').reach(a.tag('button'), { duration: 0.3 });
      yield a.sequence(a.wait(0.2), a.hand('dominant').release());
    };
    const quiet = checkQuietDeclarations(script, 300);
    // The waits, the reach to a point and the pinch are quiet for most of their ticks.
    expect(quiet).toBeGreaterThan(100);
  });

  it('are never declared for steps that follow the app: until, tags, find', () => {
    const script: ActorScript = function* (a) {
      yield a.until((view) => view.tag('ball') !== null, { timeout: 0.3 });
      yield a.hand('dominant').reach(a.tag('ball'), { duration: 0.3 });
      yield a.head.lookAt(a.offset(a.tag('ball'), [0, 0.1, 0]), { timeout: 0.3 });
    };
    expect(checkQuietDeclarations(script, 120)).toBe(0);
  });

  it('the session spec takes browserBatch from 1 to 1024 and names it when wrong', () => {
    expect(normalizeSpec({ task: 'xr/poke-button', seed: 1, browserBatch: 8 }).browserBatch).toBe(8);
    expect(() => normalizeSpec({ task: 'xr/poke-button', seed: 1, browserBatch: 0 })).toThrow(/browserBatch/);
    expect(() => normalizeSpec({ task: 'xr/poke-button', seed: 1, browserBatch: 2.5 })).toThrow(/\$\.browserBatch/);
  });

  it('the session spec takes browserInFlight from 1 to 8 and names it when wrong', () => {
    expect(normalizeSpec({ task: 'xr/poke-button', seed: 1, browserInFlight: 1 }).browserInFlight).toBe(1);
    expect(() => normalizeSpec({ task: 'xr/poke-button', seed: 1, browserInFlight: 0 })).toThrow(/\$\.browserInFlight/);
    expect(() => normalizeSpec({ task: 'xr/poke-button', seed: 1, browserInFlight: 9 })).toThrow(/browserInFlight must be an integer from 1 to 8/);
  });
});

interface Run {
  result: SessionResult;
  roundTrips: number;
  ticks: number;
}

async function run(task: string, app: string, seed: number, browserBatch?: number, browserInFlight?: number): Promise<Run> {
  const session = await createSession({ task, app, seed, ...(browserBatch ? { browserBatch } : {}), ...(browserInFlight ? { browserInFlight } : {}) });
  const result = await session.run();
  const stats = session.browserStats!;
  return { result, roundTrips: stats.roundTrips, ticks: stats.ticks };
}

describe.skipIf(SKIP_SYSTEM)('batched browser sessions in Chromium (system test)', () => {
  afterAll(async () => {
    await closeSharedChromium();
  });

  it.each([
    ['xr/pinch-spawn-ball', 'web-reference', 3],
    ['xr/depth-bounce', 'web-reference', 5],
    ['xr/poke-button', 'web-reference', 2],
    ['xr/pinch-spawn-ball', 'web-any-hand-release', 4],
  ])('%s %s: the same hash and milestones batched, pipelined and in lockstep, in fewer round trips', async (task, app, seed) => {
    const single = await run(task, app, seed, 1, 1);
    const pipelined = await run(task, app, seed, 1);
    const batched = await run(task, app, seed);
    expect(single.roundTrips).toBe(single.ticks);
    expect(pipelined.roundTrips).toBe(pipelined.ticks);
    expect(pipelined.result.hash).toBe(single.result.hash);
    expect(pipelined.result.milestones).toEqual(single.result.milestones);
    expect(batched.result.hash).toBe(single.result.hash);
    expect(batched.result.milestones).toEqual(single.result.milestones);
    expect(batched.result.appErrors).toBe(single.result.appErrors);
    expect(batched.ticks).toBe(single.ticks);
    expect(batched.roundTrips).toBeLessThan(single.roundTrips);
    if (task !== 'xr/poke-button') expect(batched.roundTrips).toBeLessThan(single.ticks / 4); // its actors follow tags most of the time
  }, 300_000);

  it('refuses to batch a page that asks the host for hit tests and anchors: one tick per round trip, the same hash', async () => {
    const single = await run('xr/place-on-detected-plane', 'web-reference', 3, 1, 1);
    const batched = await run('xr/place-on-detected-plane', 'web-reference', 3, 64);
    expect(batched.roundTrips).toBe(batched.ticks);
    expect(batched.result.hash).toBe(single.result.hash);
    expect(batched.result.status).toBe('passed');
  }, 300_000);
});
