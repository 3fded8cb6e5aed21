/**
 * A page that leaves its document mid-session (a navigation, a reload, `location = …`) is no longer the app
 * under test: what answers ticks afterwards is another document, or nothing. The shim reports the
 * navigation in the output of the tick that started it (`TickOutput.left`: the same tick on every run). The
 * host also watches the main frame through DevTools, from the first tick (a page may redirect while it
 * starts), for what the shim cannot see: `Page.frameNavigated` is sent for a new document only
 * (same-document navigations, `pushState` and hash changes, are `Page.navigatedWithinDocument` and stay).
 * Either way the session ends `errored` with {@link PageLeftError}: at the tick the shim named, or when a
 * tick fails (a closed channel, a tick handle gone) and the event explains it.
 */
import type { CDPSession } from 'playwright-core';

/** How long a failed tick waits for the navigation event that may explain it. */
const NAVIGATION_GRACE_MS = 1000;

/** The page under test navigated away from its document. */
export class PageLeftError extends Error {
  /**
   * `from` and `to` are URLs; those on the app's own `origin` are named by their path (its port changes
   * every run). The message names no tick: a navigation that commits at once (`about:blank`) is seen only
   * by DevTools, after the tick that made it, and the message must be the same whichever way it was seen.
   */
  constructor(origin: string, readonly from: string, readonly to: string) {
    const name = (url: string) => (url.startsWith(`${origin}/`) ? url.slice(origin.length) : url);
    super(`the page left: it navigated from ${name(from)} to ${name(to)}, and a page under test must stay on its document for the whole session`);
    this.name = 'PageLeftError';
  }
}

/** Watches one page's main frame for a new document. */
export class PageLeftWatch {
  private leftTo: string | null = null;
  private readonly waiters: (() => void)[] = [];

  private constructor(
    private readonly origin: string,
    /** The document the page was on at the first tick. */
    readonly from: string,
  ) {}

  /** Starts watching `cdp`'s page, whose current document is `from`, served from `origin`. */
  static async start(cdp: CDPSession, origin: string, from: string): Promise<PageLeftWatch> {
    const watch = new PageLeftWatch(origin, from);
    cdp.on('Page.frameNavigated', ({ frame }) => {
      if (frame.parentId !== undefined || watch.leftTo !== null) return;
      watch.leftTo = frame.url;
      for (const wake of watch.waiters.splice(0)) wake();
    });
    await cdp.send('Page.enable');
    return watch;
  }

  /** Throws {@link PageLeftError} once the page has left (by DevTools' word, or by the shim's `to`). */
  check(to: string | null = this.leftTo): void {
    if (to !== null) throw new PageLeftError(this.origin, this.from, to);
  }

  /**
   * After a tick failed: throws {@link PageLeftError} when the page left (waiting a moment for the event,
   * which may arrive after the closed channel that it explains); returns when it did not.
   */
  async explain(): Promise<void> {
    if (this.leftTo === null) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, NAVIGATION_GRACE_MS);
        this.waiters.push(resolve);
      });
      clearTimeout(timer);
    }
    this.check();
  }
}
