/**
 * The Playwright Test fixture, written without importing `@playwright/test` (an optional peer): pass
 * {@link xrsimFixtures} to your own `test.extend`, and the `xr` fixture opens pages in the test's `browser`
 * and closes them after the test.
 *
 * ```ts
 * import { test as base, expect } from '@playwright/test';
 * import { xrsimFixtures, type XrsimFixture } from 'xrsim/playwright';
 * const test = base.extend<{ xr: XrsimFixture }>(xrsimFixtures);
 * ```
 */
import type { Browser, LaunchOptions } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from '../browser/chromium.js';
import { XrPage, type XrPageOptions } from './xr-page.js';

/** What the `xr` fixture gives a test. */
export interface XrsimFixture {
  /** Opens a WebXR page in the test's browser, its XR session started and frame 0 delivered. */
  open(options: Omit<XrPageOptions, 'browser'>): Promise<XrPage>;
}

type XrFixtureFunction = (args: { browser: Browser }, use: (xr: XrsimFixture) => Promise<void>) => Promise<void>;

/** Fixtures for `test.extend<{ xr: XrsimFixture }>(xrsimFixtures)`. */
export const xrsimFixtures: { xr: XrFixtureFunction } = {
  xr: async ({ browser }, use) => {
    const pages: XrPage[] = [];
    try {
      await use({
        open: async (options) => {
          const page = await XrPage.open({ ...options, browser });
          pages.push(page);
          return page;
        },
      });
    } finally {
      for (const page of pages) await page.close();
    }
  },
};

/**
 * Launch options for Playwright (`use: { launchOptions: xrsimLaunchOptions() }` in playwright.config):
 * Debian's Chromium (`/usr/bin/chromium` or `XRSIM_CHROMIUM`), never a downloaded one, with the flags the
 * shim needs (software WebGL2) and no way off the machine.
 */
export function xrsimLaunchOptions(): LaunchOptions {
  return { executablePath: chromiumPath(), args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'), headless: true };
}
