/**
 * `xrsim replay` and `replayStream`: a recorded session played into the same app is identical; into an
 * adversarial variant the first divergent tick and tag or event is named; bad input is a clear error.
 * In process here; browser pages in Chromium below (skipped only with XRSIM_SKIP_SYSTEM=1).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectImportMap } from '../src/browser/browser-app.js';
import { DEFAULT_PACKAGES, PackageResolver } from '../src/browser/packages.js';
import { startStaticServer } from '../src/browser/static-server.js';
import { WarmChromium } from '../src/browser/chromium.js';
import { createSession, replayStream, XrsimInputError } from '../src/index.js';
import { SKIP_SYSTEM } from './helpers/browser.js';
import { tasksWithBrowserApps } from './helpers/browser-apps.js';
import { tempDir, xrsim } from './helpers/cli.js';

const dir = tempDir('xrsim-replay-');
const inProcessStream = join(dir, 'poke-reference.xrs');

beforeAll(async () => {
  const session = await createSession({ task: 'xr/poke-button', seed: 2, app: 'reference', record: { path: inProcessStream } });
  await session.run();
}, 120_000);

describe('replaying a stream into an in-process app', () => {
  it('says identical for the app that was recorded', async () => {
    const report = await replayStream(inProcessStream, { app: 'reference' });
    expect(report.firstDivergence).toBeNull();
    expect(report.identical).toBe(true);
    expect(report.app).toEqual({ name: 'reference', host: 'in-process' });
    expect(report.compared).toBe(report.frames);
  }, 120_000);

  it('names the first tick and tag where an adversarial app differs, with both values', async () => {
    const report = await replayStream(inProcessStream, { app: 'out-of-reach' });
    expect(report.identical).toBe(false);
    const d = report.firstDivergence!;
    // out-of-reach places the button farther away from the first frame on.
    expect(d).toMatchObject({ tick: 0, kind: 'tag', name: 'button' });
    expect(d.recorded).not.toEqual(d.replayed);
    expect(report.compared).toBe(1);
  }, 120_000);

  it('names the first app event where an app that counts differently differs', async () => {
    const report = await replayStream(inProcessStream, { app: 'counts-frames' });
    expect(report.identical).toBe(false);
    expect(report.firstDivergence!.kind).toBe('event');
    expect(report.firstDivergence!.tick).toBeGreaterThan(0);
  }, 120_000);

  it('gives the CLI exit codes 0 identical, 1 divergent, 2 bad input, naming the file', () => {
    const same = xrsim('replay', inProcessStream, '--app', 'reference', '--json');
    expect(same.code, same.stderr).toBe(0);
    expect(same.json).toMatchObject({ identical: true, firstDivergence: null });
    const other = xrsim('replay', inProcessStream, '--app', 'out-of-reach');
    expect(other.code, other.stderr).toBe(1);
    expect(other.stdout).toMatch(/divergent: first at tick 0, tag "button": recorded \{.*\}, replayed \{.*\}/);
    const notAStream = join(dir, 'not-a-stream.xrs');
    writeFileSync(notAStream, '{"hello": 1}');
    const bad = xrsim('replay', notAStream, '--app', 'reference');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(notAStream);
    const unknown = xrsim('replay', inProcessStream, '--app', 'no-such-app');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no app "no-such-app".*reference \(in-process\).*web-touch-boolean \(browser\)/s);
    expect(xrsim('replay', inProcessStream).code).toBe(2);
  }, 120_000);

  it('names --app, not the session spec, when the app is a URL off this machine', () => {
    for (const url of ['https://example.com/app/', 'http://10.0.0.1:8080/index.html']) {
      const off = xrsim('replay', inProcessStream, '--app', url);
      expect(off.code).toBe(2);
      expect(off.stderr).toContain(`--app ${url}: a page at a URL must be served on this machine's loopback`);
      expect(off.stderr).not.toMatch(/<session spec>|\$\.app/);
    }
  }, 120_000);

  it('refuses an unknown app and a file that is not a stream as bad input', async () => {
    await expect(replayStream(inProcessStream, { app: 'no-such-app' })).rejects.toBeInstanceOf(XrsimInputError);
    await expect(replayStream(join(dir, 'missing.xrs'), { app: 'reference' })).rejects.toThrow(/missing\.xrs/);
  });
});

describe.skipIf(SKIP_SYSTEM)('replaying a recorded browser session into a page (system test)', () => {
  const chromium = new WarmChromium();
  const browserStream = join(dir, 'poke-page.xrs');
  beforeAll(async () => {
    // A session running the task's reference page, as `xrsim run --app web-reference --record` records it.
    const session = await createSession({ task: 'xr/poke-button', app: 'web-reference', seed: 4, dominantHand: 'left', record: { path: browserStream } }, { page: { chromium } });
    const result = await session.run();
    expect(result.status, result.error?.message).toBe('passed');
  }, 300_000);
  afterAll(async () => {
    await chromium.close();
  });

  it('says identical when replayed into the same page', async () => {
    const report = await replayStream(browserStream, { app: 'web-reference', chromium });
    expect(report.recordedHost).toBe('browser');
    expect(report.app.host).toBe('browser');
    expect(report.firstDivergence).toBeNull();
    expect(report.compared).toBe(report.frames);
  }, 300_000);

  it('replays into a page the user serves on loopback (--app URL), and refuses a URL off the machine', async () => {
    // The user's own server: here the poke-button pages, with three resolved as a user's build would.
    const task = tasksWithBrowserApps().find((t) => t.id === 'xr/poke-button')!;
    const packages = new PackageResolver(task.dir);
    const importMap = packages.importMap(DEFAULT_PACKAGES);
    const server = await startStaticServer({ root: task.dir, mount: (p) => packages.mount(p), transformHtml: (html) => injectImportMap(html, importMap) });
    try {
      const same = await replayStream(browserStream, { app: `${server.origin}/index.html`, chromium });
      expect(same.app.host).toBe('browser');
      expect(same.firstDivergence).toBeNull();
      expect(same.compared).toBe(same.frames);
      const other = await replayStream(browserStream, { app: `${server.origin}/out-of-reach.html`, chromium });
      expect(other.firstDivergence).toMatchObject({ kind: 'tag', name: 'button' });
    } finally {
      await server.close();
    }
    await expect(replayStream(browserStream, { app: 'https://example.com/app/', chromium })).rejects.toThrow(/loopback/);
  }, 300_000);

  it('names the first divergent tick and tag of an adversarial page', async () => {
    const report = await replayStream(browserStream, { app: 'web-out-of-reach', chromium });
    expect(report.identical).toBe(false);
    expect(report.firstDivergence).toMatchObject({ kind: 'tag', name: 'button' });
    expect(report.firstDivergence!.recorded).not.toEqual(report.firstDivergence!.replayed);
  }, 300_000);
});
