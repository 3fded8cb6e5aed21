/**
 * `xrsim view --screenshot`: opens a running viewer in headless Chromium at a session and tick, waits for
 * the frame and the timeline (plots, markers) to be drawn, and saves the page as a PNG.
 */
import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { markPng } from '../render/png.js';
import type { ViewerPageHandle } from './api-types.js';
import { launchChromium } from './chromium.js';

// Evaluated in the page.
declare const window: { xrsimViewer: ViewerPageHandle };
declare function requestAnimationFrame(callback: () => void): number;

/** What to capture. */
export interface ScreenshotOptions {
  /** The PNG to write. */
  path: string;
  /** The session to open (a sweep's result key); default: the page's own choice (the stream, or the sweep matrix). */
  session?: string;
  tick?: number;
  width?: number;
  height?: number;
  /** Chromium to use (default: `XRSIM_CHROMIUM` or `/usr/bin/chromium`). */
  chromium?: string;
  /** Longest wait for the timeline before capturing without it (ms, default 60 000). */
  timelineTimeoutMs?: number;
}

/** What the page reported. */
export interface ScreenshotReport {
  path: string;
  /** The tick drawn (null for a sweep's matrix). */
  tick: number | null;
  /** Console errors and page errors, in order. */
  consoleErrors: string[];
  /** Whether the timeline (plots and markers) was drawn in time. */
  timeline: boolean;
}

/** Captures the viewer at `url`. */
export async function screenshotViewer(url: string, options: ScreenshotOptions, browser?: Browser): Promise<ScreenshotReport> {
  const own = browser ?? (await launchChromium(options.chromium));
  try {
    const page = await own.newPage({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    const query = new URLSearchParams();
    if (options.session) query.set('session', options.session);
    if (options.tick !== undefined) query.set('tick', String(options.tick));
    await page.goto(`${url}?${query}`);
    await page.evaluate(() => window.xrsimViewer.ready);
    let tick: number | null = null;
    let timeline = false;
    if (await page.evaluate(() => window.xrsimViewer.kind === 'replay')) {
      timeline = await page
        .waitForFunction(() => window.xrsimViewer.replay!.timeline !== null, undefined, { timeout: options.timelineTimeoutMs ?? 60_000 })
        .then(() => true, () => false);
      tick = await page.evaluate(async (t) => {
        const replay = window.xrsimViewer.replay!;
        if (t !== null) await replay.seek(t);
        return replay.tick;
      }, options.tick ?? null);
      // Let the last requested render reach the screen.
      await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
    }
    // Marked as xrsim's, so that the next screenshot to the same path may replace it (src/output-file.ts).
    writeFileSync(options.path, markPng(await page.screenshot()));
    await page.close();
    return { path: options.path, tick, consoleErrors, timeline };
  } finally {
    if (!browser) await own.close();
  }
}
