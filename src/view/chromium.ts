/**
 * Headless Chromium for the viewer's screenshots: the system's Chromium (Debian's `/usr/bin/chromium`, or
 * `XRSIM_CHROMIUM`), driven by playwright-core with the browser host's flags (WebGL 2 on SwiftShader, so no
 * GPU is needed; no host name resolves but loopback, so nothing comes from the internet).
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, launchChromium as launchWithHostFlags } from '../browser/chromium.js';
import { XrsimInputError } from '../errors.js';

/** The browser host's flags: headless, SwiftShader WebGL 2, and no host name resolves but loopback. */
export { CHROMIUM_FLAGS };

/** The Chromium to use: `explicit`, else `XRSIM_CHROMIUM`, else Debian's. */
export function chromiumPath(explicit?: string): string {
  return explicit ?? process.env.XRSIM_CHROMIUM ?? '/usr/bin/chromium';
}

/** Launches headless Chromium, or explains how to install it. */
export async function launchChromium(explicit?: string): Promise<Browser> {
  const executablePath = chromiumPath(explicit);
  if (!existsSync(executablePath)) {
    throw new XrsimInputError(`Chromium is not installed at ${executablePath}`, {
      expected: 'Debian\'s Chromium (sudo apt-get install -y chromium), or --chromium PATH / XRSIM_CHROMIUM naming another',
    });
  }
  // One launcher for the viewer and the browser host (browser/chromium.ts): the same flags and options.
  return launchWithHostFlags(executablePath);
}
