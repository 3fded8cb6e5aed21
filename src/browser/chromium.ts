/**
 * Chromium for browser apps: Debian's `/usr/bin/chromium` (or `XRSIM_CHROMIUM`) driven by playwright-core
 * through `executablePath`. Never downloads a browser. One browser is kept warm and replaced when it
 * dies or a page in it stops answering; each session gets a fresh browser context.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** The flags the developers' guide prescribes, plus swiftshader WebGL2 and no way off the machine. */
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
  // Every host name fails to resolve except the loopback the app server listens on.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  // Frames come from the host, not from a display: never throttle the page while it waits for a tick.
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
];

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** The Chromium executable: `XRSIM_CHROMIUM`, else Debian's. Throws a clear error when it is missing. */
export function chromiumPath(): string {
  const path = process.env.XRSIM_CHROMIUM ?? DEFAULT_CHROMIUM;
  if (!existsSync(path)) {
    throw new Error(`Chromium not found at ${path}: install Debian's chromium package (npm run test:all does) or set XRSIM_CHROMIUM`);
  }
  return path;
}

/** Launches a headless Chromium. */
export async function launchChromium(executablePath = chromiumPath()): Promise<Browser> {
  // Loaded on first launch: importing xrsim (as every app does) must not load Playwright, which also leaves
  // globals behind that would make a session worker retire.
  const { chromium } = await import('playwright-core');
  // Signals are the owner's business (a session worker ends on SIGTERM; Playwright's handlers would hold it up).
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true, timeout: 60_000, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}

/** One Chromium kept warm across sessions. */
export class WarmChromium {
  private current: Promise<Browser> | null = null;
  /** How many browsers were launched (replacements included). */
  launches = 0;
  /** How many times the browser was replaced (killed because a page stopped answering or it died). */
  replacements = 0;

  constructor(private readonly executablePath?: string) {}

  /** The warm browser, launched on first use or after it died. */
  async browser(): Promise<Browser> {
    if (this.current) {
      const browser = await this.current.catch(() => null);
      if (browser?.isConnected()) return browser;
    }
    this.launches++;
    this.current = launchChromium(this.executablePath);
    return this.current;
  }

  /** Kills the browser (a page in it stopped answering); the next `browser()` launches a new one. */
  async replace(): Promise<void> {
    const old = this.current;
    this.current = null;
    if (old) this.replacements++;
    const browser = await old?.catch(() => null);
    if (browser) await closeWithin(browser, 5_000);
  }

  async close(): Promise<void> {
    await this.replace();
  }
}

/** Closes a browser, giving up waiting after `ms` (Playwright kills the process when the connection drops). */
async function closeWithin(browser: Browser, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([browser.close().catch(() => undefined), new Promise<void>((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}

let shared: WarmChromium | null = null;

/**
 * The process's warm Chromium: one per process (a session worker, the CLI), launched by the first session
 * with a browser app and kept across sessions, each of which gets a fresh context. Close it with
 * {@link closeSharedChromium} before the process ends (its pipes keep Node's event loop alive).
 */
export function sharedChromium(): WarmChromium {
  return (shared ??= new WarmChromium());
}

/** True when the process's warm Chromium has been launched. */
export function sharedChromiumStarted(): boolean {
  return shared !== null && shared.launches > 0;
}

/** Closes the process's warm Chromium, if any. */
export async function closeSharedChromium(): Promise<void> {
  const browser = shared;
  shared = null;
  await browser?.close();
}
