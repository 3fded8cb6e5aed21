/** Helpers of the browser tests: run a fixture page against an in-process session through the bridge. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserApp } from '../../src/browser/browser-app.js';
import type { WarmChromium } from '../../src/browser/chromium.js';
import { driveBrowserApp, type DriveOptions, type DriveResult } from '../../src/browser/drive.js';
import type { TickOutput } from '../../src/browser/protocol.js';

export const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
export const FIXTURES = fileURLToPath(new URL('../fixtures/browser/', import.meta.url));

export interface PageRun extends DriveResult {
  started: boolean;
}

/** Opens fixture page `name`, waits for its XR session and drives it through the session `spec`. */
export async function runPage(chromium: WarmChromium, name: string, spec: DriveOptions['spec'], options: { seed?: number; batch?: number; tickTimeoutMs?: number } = {}): Promise<PageRun> {
  const app = await BrowserApp.open({ chromium, dir: join(FIXTURES, name), seed: options.seed ?? 1, tickTimeoutMs: options.tickTimeoutMs ?? 30_000 });
  try {
    const started = await app.waitForSession();
    const result = await driveBrowserApp({ spec, app, batch: options.batch });
    return { ...result, started };
  } finally {
    await app.close();
  }
}

/** The app events named `name`, with their ticks. */
export function appEvents<T = Record<string, unknown>>(outputs: TickOutput[], name: string): { tick: number; data: T }[] {
  return outputs.flatMap((o) => o.events.filter(([n]) => n === name).map(([, data]) => ({ tick: o.k, data: data as T })));
}

/** Every app error the page reported. */
export function pageErrors(outputs: TickOutput[]) {
  return outputs.flatMap((o) => o.errors.map((e) => ({ tick: o.k, ...e })));
}
