/**
 * The browser host's app: the closed loop between a session and an unmodified WebXR page. Each tick the
 * session's app frame (the in-process host's `XrFrameLike`) is encoded, the page runs that one XR frame,
 * and what it published (tags, app events) becomes the app state of the same tick; its requests (hit-test
 * sources, anchors) are served from the next frame, as a browser resolves them. Page errors (exceptions,
 * rejections, console errors, refused requests) become AppError events; a page that stops answering is
 * the harness's failure (the session errors) and its browser is replaced.
 *
 * The session's `AppHost` runs this module in blocking mode (`app/host.ts`): it awaits each tick's round
 * trip before the frame commits.
 */
import type { AppContext, AppModule, XrFrameLike } from '../app/types.js';
import type { BrowserAppRef } from '../task/browser-programs.js';
import { BrowserApp, PageUnresponsiveError } from './browser-app.js';
import type { WarmChromium } from './chromium.js';
import type { PageError } from './protocol.js';
import { BrowserRelay } from './relay.js';

export interface BrowserHostOptions {
  /** The page: a served directory and page, or a loopback URL (`task/browser-programs.ts`). */
  ref: BrowserAppRef;
  /** The process's warm browser (a fresh context per session). */
  chromium: WarmChromium;
  /** Records a page error as an AppError event of the current tick. */
  reportError(error: PageError): void;
  /** How long one tick may take before the page counts as hung (default 10 s). */
  tickTimeoutMs?: number;
  /** How long the page may take to start its XR session (default 20 s). */
  startTimeoutMs?: number;
}

/** Thrown when a page never starts an immersive session: nothing could be tested. */
export class PageNeverStartedError extends Error {
  constructor(page: string) {
    super(`the page ${page} never started an immersive XR session (navigator.xr.requestSession + renderer.xr.setSession)`);
    this.name = 'PageNeverStartedError';
  }
}

export class BrowserHostApp {
  private app: BrowserApp | null = null;
  private ready: Promise<void> | null = null;
  private relay: BrowserRelay | null = null;
  private reported = 0;
  private closed = false;

  constructor(private readonly options: BrowserHostOptions) {}

  /** The app module the session runs. */
  module(): AppModule {
    return {
      setup: (ctx) => (this.ready = this.open(ctx)),
      frame: (xr, ctx) => this.frame(xr, ctx),
    };
  }

  /** Round-trip statistics of the page's bridge (null before it opened). */
  get stats() {
    return this.app?.stats ?? null;
  }

  /** Closes the page's context and server (the warm browser stays). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ready?.catch(() => undefined);
    await this.app?.close();
  }

  private async open(ctx: AppContext): Promise<void> {
    const { ref, chromium } = this.options;
    // The page's Math.random and crypto are seeded from the session's `app` stream.
    const seed = Math.floor(ctx.random() * 2 ** 32);
    this.relay = new BrowserRelay(ctx.dt);
    this.app = await BrowserApp.open({ chromium, dir: ref.url ? process.cwd() : ref.path, page: ref.page, url: ref.url, seed, tickTimeoutMs: this.options.tickTimeoutMs });
    const started = await this.guard(this.app.waitForSession(this.options.startTimeoutMs ?? 20_000));
    if (!started) throw new PageNeverStartedError(ref.url ?? ref.page);
  }

  private async frame(xr: XrFrameLike, ctx: AppContext): Promise<void> {
    await this.ready;
    const relay = this.relay!;
    relay.module().frame(xr, ctx); // serves requests due, encodes the tick
    const outputs = await this.guard(this.app!.tick(relay.take()));
    relay.apply(outputs, xr.tick, ctx);
    while (this.reported < relay.errors.length) this.options.reportError(relay.errors[this.reported++]);
  }

  /** A page that stops answering takes its browser down with it: the next session gets a new one. */
  private async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof PageUnresponsiveError || (error instanceof Error && /crash|closed|disconnected/i.test(error.message))) {
        await this.options.chromium.replace(); // close() still frees the page's server
      }
      throw error;
    }
  }
}
