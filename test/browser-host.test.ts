/**
 * The browser host in real Chromium (skipped only with XRSIM_SKIP_SYSTEM=1), fixture pages run as sessions'
 * apps on the closed loop: virtual time and seeded randomness make a deterministic page publish identical
 * state on every run; startup races are recorded as app errors without stopping the host; a page that never
 * yields is detected and its browser replaced; and a page reaches nothing outside its directory and the
 * installed packages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageUnresponsiveError } from '../src/browser/browser-app.js';
import { WarmChromium } from '../src/browser/chromium.js';
import { appEvents, pageErrors, runPage, SKIP_SYSTEM } from './helpers/browser.js';

describe.skipIf(SKIP_SYSTEM)('the browser host in Chromium (system test)', () => {
  const chromium = new WarmChromium();
  beforeAll(async () => {
    await chromium.browser();
  });
  afterAll(async () => {
    await chromium.close();
  });

  it('a deterministic page publishes the same state sequence on every run, batched or not', async () => {
    const spec = { task: 'xr/pinch-spawn-ball', seed: 4, duration: 1.5 };
    const first = await runPage(chromium, 'deterministic', spec);
    const second = await runPage(chromium, 'deterministic', spec);
    const batched = await runPage(chromium, 'deterministic', spec, { batch: 8 });
    expect(first.started).toBe(true);
    expect(pageErrors(first.outputs)).toEqual([]);
    expect(second.outputs).toEqual(first.outputs);
    expect(batched.outputs).toEqual(first.outputs);
    expect(batched.stats.roundTrips).toBeLessThan(first.stats.roundTrips);
    expect(second.session.hash).toBe(first.session.hash);
    expect(batched.session.hash).toBe(first.session.hash);
    // Time is the frame clock, Date starts at the fixed epoch, timers fired on it, tags move.
    const timeout = appEvents<{ now: number; date: number }>(first.outputs, 'timeout')[0];
    expect(timeout.data.now).toBe(120);
    expect(timeout.data.date).toBe(Date.UTC(2025, 0, 1) + 120);
    const ticks = appEvents<{ timers: number; time: number }>(first.outputs, 'tick');
    expect(ticks.length).toBeGreaterThan(3);
    for (const t of ticks) expect(t.data.timers).toBe(Math.floor(t.data.time / 50));
    const balls = first.outputs.map((o) => o.tags.find(([role]) => role === 'ball')![1]![0]);
    expect(new Set(balls).size).toBeGreaterThan(10);
    // Another seed changes the page's randomness (seeded from the session's `app` stream).
    const other = await runPage(chromium, 'deterministic', { ...spec, seed: 5 });
    expect(other.outputs).not.toEqual(first.outputs);
    const random = (run: typeof first) => appEvents<{ random: number }>(run.outputs, 'timeout')[0].data.random;
    expect(random(other)).not.toBe(random(first));
  });

  it("ticks over the page's loopback socket and over DevTools give the same outputs", async () => {
    const spec = { task: 'xr/pinch-spawn-ball', seed: 4, duration: 1 };
    const runs = [];
    for (const tickChannel of ['socket', 'devtools'] as const) {
      const run = await runPage(chromium, 'three-hands', spec, { tickChannel });
      expect(run.started).toBe(true);
      expect(run.status?.bridge).toBe(tickChannel === 'socket' ? 'open' : 'none');
      runs.push(run);
    }
    const [socket, devtools] = runs;
    expect(socket.stats.roundTrips).toBeGreaterThan(50);
    expect(socket.stats.socketRoundTrips).toBe(socket.stats.roundTrips);
    expect(devtools.stats.socketRoundTrips).toBe(0);
    expect(appEvents(socket.outputs, 'tip').length).toBeGreaterThan(0);
    expect(socket.outputs).toEqual(devtools.outputs);
    expect(socket.session.hash).toBe(devtools.session.hash);
  });

  it('records startup races (joints before tracking, planes only at startup) as app errors and keeps running', async () => {
    const run = await runPage(chromium, 'startup-race', { task: 'xr/late-tracking', seed: 1, duration: 2.6, sensing: { planes: true } });
    expect(run.started).toBe(true);
    expect(run.outputs).toHaveLength(run.session.model.timing.durationTicks + 1);
    const errors = pageErrors(run.outputs);
    // Hands appear at 2 s: every frame before throws a TypeError, reported as an uncaught exception.
    const firstTracked = run.inputs.find((i) => i.s.some((id) => id <= 1))!.k;
    expect(errors.length).toBe(firstTracked);
    expect(errors.every((e) => e.kind === 'exception' && e.message.startsWith('TypeError') && e.stack.includes('/main.js'))).toBe(true);
    // No origin (random port) in stacks: they are the same on every run.
    expect(errors.some((e) => e.stack.includes('127.0.0.1'))).toBe(false);
    expect(appEvents(run.outputs, 'tip-read').map((e) => e.tick)[0]).toBe(firstTracked);
    // Planes read once at startup: none yet.
    expect(appEvents(run.outputs, 'planes-at-startup')).toEqual([{ tick: 0, data: { count: 0 } }]);
  });

  it('detects a page that never yields, and replaces the browser', async () => {
    const before = chromium.launches;
    const replacements = chromium.replacements;
    const started = Date.now();
    await expect(runPage(chromium, 'infinite-loop', { task: 'xr/pinch-spawn-ball', seed: 1, duration: 2 }, { tickTimeoutMs: 3_000 })).rejects.toBeInstanceOf(PageUnresponsiveError);
    expect(Date.now() - started).toBeLessThan(60_000);
    // The closed loop replaced the browser itself: a fresh one runs the next session.
    const next = await runPage(chromium, 'deterministic', { task: 'xr/pinch-spawn-ball', seed: 4, duration: 0.2 });
    expect(next.started).toBe(true);
    expect(chromium.replacements).toBe(replacements + 1);
    expect(chromium.launches).toBe(before + 1);
  });

  it('gives the page nothing of the host: no files, no other hosts, no bindings; CDN imports come from the local copy', async () => {
    const run = await runPage(chromium, 'security', { task: 'xr/pinch-spawn-ball', seed: 1, duration: 0.1 });
    expect(run.started).toBe(true);
    const report = appEvents<Record<string, unknown>>(run.outputs, 'report')[0].data;
    const version = (await import('three')).REVISION;
    expect(report).toEqual({
      file: 'blocked: TypeError',
      remote: 'blocked: TypeError',
      otherLoopbackPort: 'blocked: TypeError',
      parent: expect.toBeOneOf([403, 404]),
      packageParent: expect.toBeOneOf([403, 404]),
      cdnThree: version,
      unknownCdn: 'blocked: TypeError',
      handleKeys: ['stats', 'status', 'tick'],
      xrsimKeys: ['emit', 'tag', 'untag'],
      bindings: [],
      process: 'undefined',
      require: 'undefined',
    });
    // Each request that could not be served locally is an app error naming its URL.
    const network = pageErrors(run.outputs).filter((e) => e.kind === 'network').map((e) => e.message);
    expect(network.some((m) => m.includes('http://example.com/'))).toBe(true);
    expect(network.some((m) => m.includes('https://unpkg.com/not-installed-xrsim-package@1.0.0/index.js'))).toBe(true);
    expect(network.some((m) => m.includes('http://127.0.0.1:9/'))).toBe(true);
    expect(network.some((m) => m.includes('/etc/passwd'))).toBe(true);
  });
});
