/**
 * The viewer in real Chromium (a system test: CI installs Chromium; skipped only with XRSIM_SKIP_SYSTEM=1):
 * a recorded XR session draws with no console errors, seeking with the timeline shows that tick's hand
 * pose as recorded, the timeline marks events and evidence, and a screenshot is saved; a sweep folder
 * shows its pass matrix and opens a failed session's replay in one click.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAND_JOINT_FLOATS } from '../src/frame/layout.js';
import { StreamReader } from '../src/stream/reader.js';
import type { ViewerPageHandle } from '../src/view/api-types.js';
import { CHROMIUM_FLAGS, chromiumPath } from '../src/view/chromium.js';
import { startViewer, type Viewer } from '../src/view/server.js';
import { tempDir, xrsim } from './helpers/cli.js';

declare const window: { xrsimViewer: ViewerPageHandle };
const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';

/** The recorded joint positions of a hand at a tick. */
function recordedJoints(path: string, tick: number, side: 'left' | 'right'): number[][] {
  const reader = StreamReader.open(path);
  try {
    const c = reader.frameAt(tick).channel(`hand-${side}`)!;
    return Array.from({ length: 26 }, (_, j) => Array.from(c.subarray(j * HAND_JOINT_FLOATS, j * HAND_JOINT_FLOATS + 3)));
  } finally {
    reader.close();
  }
}

/** Width and height from a PNG's header. */
const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

function expectSamePose(drawn: number[][] | null, recorded: number[][]): void {
  expect(drawn).not.toBeNull();
  drawn!.forEach((p, j) => p.forEach((v, k) => expect(Math.abs(v - recorded[j][k]), `joint ${j} axis ${k}`).toBeLessThan(1e-6)));
}

describe.skipIf(SKIP_SYSTEM)('the viewer in Chromium (system test)', () => {
  let browser: Browser;
  let stream: string;
  let viewer: Viewer;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
    stream = join(tempDir(), 'session.xrs');
    const run = xrsim('run', '--task', 'xr/place-on-detected-plane', '--planes', '--depth', 'headset', '--out', stream, '--json');
    expect(run.json?.stream, run.stderr).toBe(stream);
    viewer = await startViewer(stream);
  });
  afterAll(async () => {
    await viewer?.close();
    await browser?.close();
  });

  async function open(url: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    await page.evaluate(() => window.xrsimViewer.ready);
    return { page, errors, requests };
  }

  it('draws the recorded session with no console errors and asks nothing of the internet', async () => {
    const { page, errors, requests } = await open(viewer.url);
    await page.waitForFunction(() => window.xrsimViewer.replay!.timeline !== null);
    expect(errors).toEqual([]);
    expect(requests.every((r) => r.startsWith(viewer.url)), requests.join('\n')).toBe(true);
    const info = await page.evaluate(() => window.xrsimViewer.replay!.drawInfo());
    expect(info.calls).toBeGreaterThan(10);
    expect(info.triangles).toBeGreaterThan(1000);
    // The depth camera's points and the detected planes are drawn once the timeline is in.
    expect(info.points).toBeGreaterThan(1000);
    // The canvas shows a scene, not a blank colour: count the colours of a sample of its pixels.
    const colours = await page.evaluate(() => {
      const source = (globalThis as any).document.querySelector('#scene canvas');
      const copy = (globalThis as any).document.createElement('canvas');
      [copy.width, copy.height] = [source.width, source.height];
      const context = copy.getContext('2d');
      context.drawImage(source, 0, 0);
      const data: Uint8ClampedArray = context.getImageData(0, 0, copy.width, copy.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    });
    expect(colours).toBeGreaterThan(50);
    // Milestones, plots and timeline markers.
    expect(await page.locator('#milestones .milestone').count()).toBe(3);
    expect(await page.locator('svg.plot path.series').count()).toBeGreaterThan(0);
    expect(await page.locator('svg.plot line.threshold').count()).toBeGreaterThan(0);
    expect(await page.locator('#markers .event-marker').count()).toBeGreaterThan(3);
    expect(await page.locator('#markers .evidence-marker').count()).toBeGreaterThan(2);
    await page.close();
  });

  it('seeking with the timeline shows that tick\'s hand pose as recorded', async () => {
    const { page, errors } = await open(viewer.url);
    for (const tick of [300, 120, 415]) {
      await page.locator('#tick-slider').fill(String(tick));
      await page.waitForFunction((t) => window.xrsimViewer.replay!.tick === t, tick);
      expectSamePose(await page.evaluate(() => window.xrsimViewer.replay!.user.jointPositions(1)), recordedJoints(stream, tick, 'right'));
      expect(await page.locator('#overlay').innerText()).toMatch(new RegExp(`^tick ${tick} `));
    }
    // The step button moves one tick.
    await page.locator('#controls button[title^="step forward"]').click();
    await page.waitForFunction(() => window.xrsimViewer.replay!.tick === 416);
    expectSamePose(await page.evaluate(() => window.xrsimViewer.replay!.user.jointPositions(1)), recordedJoints(stream, 416, 'right'));
    // Play runs the replay forward.
    await page.locator('#play').click();
    await page.waitForFunction(() => window.xrsimViewer.replay!.tick > 430);
    await page.locator('#play').click();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('xrsim view --screenshot saves the page at a tick', () => {
    const out = join(tempDir(), 'view.png');
    const r = xrsim('view', stream, '--screenshot', out, '--tick', '200', '--width', '1000', '--height', '700', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toEqual({ screenshot: out, tick: 200, consoleErrors: [], timeline: true });
    expect(pngSize(readFileSync(out))).toEqual([1000, 700]);
    expect(xrsim('view', stream, '--screenshot', out, '--tick', '99999').code).toBe(2);
    expect(xrsim('view', join(tempDir(), 'missing.xrs'), '--screenshot', out).code).toBe(2);
  });

  it('shows a sweep folder\'s pass matrix, and a failed session\'s replay is one click away', async () => {
    const out = tempDir();
    expect(xrsim('sweep', 'xr/poke*', '--apps', 'process', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--out', out).code).toBe(0); // its adversarial apps fail as expected
    const sweep = await startViewer(out);
    try {
      const { page, errors } = await open(sweep.url);
      const matrix = await page.locator('#matrix').innerText();
      expect(matrix).toMatch(/xr\/poke-button · reference\s+1\/1/);
      expect(matrix).toMatch(/xr\/poke-button · counts-frames\s+0\/1/);
      const failed = page.locator('#failures a.replay');
      expect(await failed.count()).toBeGreaterThan(0);
      const key = new URL(String(await failed.first().getAttribute('href')), sweep.url).searchParams.get('session')!;
      await failed.first().click();
      await page.waitForURL(/session=/);
      await page.evaluate(() => window.xrsimViewer.ready);
      await page.waitForFunction(() => window.xrsimViewer.replay!.timeline !== null);
      const path = sweep.catalog.streamPath(key)!;
      await page.locator('#tick-slider').fill('150');
      await page.waitForFunction(() => window.xrsimViewer.replay!.tick === 150);
      expectSamePose(await page.evaluate(() => window.xrsimViewer.replay!.user.jointPositions(1)), recordedJoints(path, 150, 'right'));
      // The sweep's own verdicts are shown, with at least one failed milestone.
      expect(await page.locator('#milestones .mark.failed').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await page.close();
      const shot = join(tempDir(), 'sweep.png');
      const r = xrsim('view', out, '--screenshot', shot, '--json');
      expect(r.code, r.stderr).toBe(0);
      expect(r.json.tick).toBeNull();
      const withSession = xrsim('view', out, '--session', key, '--tick', '10', '--screenshot', shot, '--json');
      expect(withSession.json, withSession.stderr).toEqual({ screenshot: shot, tick: 10, consoleErrors: [], timeline: true });
    } finally {
      await sweep.close();
    }
  });
});
