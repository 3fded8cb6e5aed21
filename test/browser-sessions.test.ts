/**
 * Browser apps as sessions (docs/BROWSER.md, "The browser host"): task entries validated with file and
 * JSON path, and in real Chromium (skipped only with XRSIM_SKIP_SYSTEM=1) a user's own page run by
 * directory, startup races recorded as app errors, a page that never yields errored at its time limit
 * with its browser replaced while the sessions go on, and a page that can reach neither the host's files
 * nor the bridge.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createSession, createSessionPool, decodeEvents, loadTask, runSession } from '../src/index.js';
import { closeSharedChromium, sharedChromium } from '../src/browser/chromium.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { FIXTURES, SKIP_SYSTEM } from './helpers/browser.js';
import { PACKAGE_ROOT as ROOT } from '../src/paths.js';

const pokeButton = () => loadTask('xr/poke-button').spec;
const withApps = (apps: object) => ({ ...pokeButton(), id: 'test/browser-apps', apps: { reference: { module: join(ROOT, 'tasks/xr/poke-button/apps/reference.mjs') }, ...apps } });

describe('browser app entries in tasks', () => {
  it.each([
    ['no directory', { web: { host: 'browser', page: 'index.html' } }, /\$\.apps\.web.*dir/],
    ['a page that is no .html file', { web: { host: 'browser', dir: 'web', page: 'main.js' } }, /\$\.apps\.web\.page/],
    ['an unknown field', { web: { host: 'browser', dir: 'web', module: 'x.mjs' } }, /\$\.apps\.web/],
    ['failsWithHand without expectFail', { web: { host: 'browser', dir: 'web', failsWithHand: 'left' } }, /\$\.apps\.web\.failsWithHand/],
  ])('reject %s, naming the JSON path', (_, apps, message) => {
    expect(() => loadTask(withApps(apps) as never)).toThrow(message);
  });

  it('reject a directory or page that does not exist, naming the task file and the field', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'xrsim-browser-task-'));
    const file = join(dir, 'task.json');
    writeFileSync(file, JSON.stringify(withApps({ web: { host: 'browser', dir: 'missing' } })));
    expect(() => loadTask(file)).toThrow(/task\.json.*\$\.apps\.web\.dir: browser app directory not found/s);
    writeFileSync(file, JSON.stringify(withApps({ web: { host: 'browser', dir: '.', page: 'nowhere.html' } })));
    expect(() => loadTask(file)).toThrow(/\$\.apps\.web\.page: browser app page not found/);
  });

  it('refuse a page URL off the loopback, and name the browser forms in an unknown app error', async () => {
    expect((await runSession({ task: 'xr/poke-button', seed: 1, app: 'http://example.com/app/' })).error?.message).toMatch(/loopback/);
    expect((await runSession({ task: 'xr/poke-button', seed: 1, app: 'no-such-app' })).error?.message).toMatch(/web-reference.*browser app/s);
  });
});

describe.skipIf(SKIP_SYSTEM)('browser apps as sessions in Chromium (system test)', () => {
  afterAll(async () => {
    await closeSharedChromium();
  });

  it('records startup races (joints before tracking, planes only at startup) as app errors, and runs on', async () => {
    const errors: { tick: number; record: Record<string, unknown> }[] = [];
    const session = await createSession({ task: 'xr/late-tracking', app: join(FIXTURES, 'startup-race'), seed: 1, duration: 2.6, sensing: { planes: true } });
    const result = await session.run({
      onFrame: (frame) => {
        for (const e of decodeEvents(frame.events, frame.eventWords)) if (e.name === 'app-error') errors.push({ tick: frame.tick, record: readJsonPayload(e.payload, 0) });
      },
    });
    expect(result.status).not.toBe('errored');
    expect(result.ticks).toBe(session.model.timing.durationTicks);
    // Hands appear at 2 s: every frame before throws a TypeError in the page, an app error of its tick.
    expect(errors.length).toBeGreaterThan(100);
    expect(result.appErrors).toBe(errors.length);
    expect(errors.every((e) => e.record.phase === 'page' && e.record.kind === 'exception' && String(e.record.message).startsWith('TypeError'))).toBe(true);
    expect(errors.map((e) => e.tick)).toEqual(errors.map((_, i) => i));
    expect(result.firstAppError).toMatchObject({ tick: 0, phase: 'page' });
  }, 120_000);

  it('errors a page that never yields at its time limit, replaces its Chromium, and the next session runs', async () => {
    const chromium = sharedChromium();
    const hung = await runSession({ task: 'xr/pinch-spawn-ball', app: join(FIXTURES, 'infinite-loop'), seed: 1, duration: 2 });
    expect(hung.status).toBe('errored');
    expect(hung.error?.message).toMatch(/did not answer within/);
    const launches = chromium.launches;
    const next = await runSession({ task: 'xr/pinch-spawn-ball', app: 'web-reference', seed: 1 });
    expect(next.status).toBe('passed');
    expect(chromium.launches).toBe(launches + 1);
    // In a sweep's pool: the worker reports the hang as errored and its next session passes.
    const pool = createSessionPool({ workers: 1, timeLimitSeconds: 120 });
    try {
      const [a, b] = await Promise.all([
        pool.run({ task: 'xr/pinch-spawn-ball', app: join(FIXTURES, 'infinite-loop'), seed: 1, duration: 2 }),
        pool.run({ task: 'xr/pinch-spawn-ball', app: 'web-reference', seed: 1 }),
      ]);
      expect(a.result.status).toBe('errored');
      expect(b.result.status).toBe('passed');
      expect(b.result.hash).toBe(next.hash);
      expect(pool.stats).toMatchObject({ started: 1, crashed: 0, timedOut: 0 });
    } finally {
      await pool.close();
    }
  }, 300_000);

  it('gives the page nothing of the host: files and other hosts are app errors, the bridge cannot be replaced', async () => {
    const security = await runSession({ task: 'xr/pinch-spawn-ball', app: join(FIXTURES, 'security'), seed: 1, duration: 0.2 });
    expect(security.status).not.toBe('errored');
    // file:///etc/passwd, example.com, another loopback port, an uninstalled CDN package, the 403s.
    expect(security.appErrors).toBeGreaterThanOrEqual(4);
    expect(security.firstAppError).toMatchObject({ tick: 0, phase: 'page' });
    expect(security.firstAppError?.message).toMatch(/^network: /);

    const reports: unknown[] = [];
    const odd: unknown[] = [];
    const session = await createSession({ task: 'xr/pinch-spawn-ball', app: join(FIXTURES, 'bridge-tamper'), seed: 1, duration: 0.3 });
    const result = await session.run({
      onFrame: (frame) => {
        for (const e of decodeEvents(frame.events, frame.eventWords)) {
          if (e.name !== 'app-event') continue;
          const json = readJsonPayload<{ name: string; data: unknown }>(e.payload, 0);
          (json.name === 'report' ? reports : odd).push(json.data);
        }
      },
    });
    expect(result.status).not.toBe('errored');
    expect(reports).toEqual([
      { assign: 'blocked: TypeError', redefine: 'blocked: TypeError', patchTick: 'blocked: TypeError', sameHandle: true, frozen: true, xrsimReplace: 'blocked: TypeError', patchSocketSend: 'done', channelConfig: 'undefined' },
    ]);
    // The patch changed nothing: every tick went over the socket and came back well formed.
    expect(session.browserStats!.socketRoundTrips).toBe(session.browserStats!.roundTrips);
    // Only data crosses: the function and the symbol are gone.
    expect(odd[0]).toEqual({ n: 1 });
  }, 120_000);
});
