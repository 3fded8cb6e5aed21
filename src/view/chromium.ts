/**
 * Headless Chromium for the viewer's screenshots: the system's Chromium (Debian's `/usr/bin/chromium`, or
 * `XRSIM_CHROMIUM`), driven by playwright-core, with WebGL 2 on SwiftShader so no GPU is needed.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { XrsimInputError } from '../errors.js';

/** Flags for a headless Chromium that fetches nothing on its own and renders WebGL 2 in software. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

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
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
}
