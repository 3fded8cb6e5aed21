/**
 * The browser host's app: the closed loop between a session and an unmodified WebXR page. Each tick the
 * session's app frame (the in-process host's `XrFrameLike`) is encoded, the page runs that one XR frame,
 * and what it published (tags, app events) becomes the app state of the same tick; its requests (hit-test
 * sources, anchors) are served from the next frame, as a browser resolves them. Page errors (exceptions,
 * rejections, console errors, refused requests) become AppError events; a page that stops answering is
 * the harness's failure (the session errors) and its browser is replaced.
 *
 * The session drives the exchange (`session/session.ts`): each tick's `frame` only encodes the tick's input;
 * {@link BrowserHostApp.exchange} sends the inputs encoded so far in one round trip, and the session applies
 * each tick's output ({@link BrowserHostApp.apply}) in that tick's frame before committing it. One tick per
 * round trip unless the session batches (docs/BROWSER.md, "Batched and pipelined sessions"); {@link batchable} is the
 * page's side of that decision.
 */
import type { AppContext, AppModule, XrFrameLike } from '../app/types.js';
import type { BrowserAppRef } from '../task/browser-programs.js';
import { BrowserApp, PageUnresponsiveError, type BrowserAppOptions, type BrowserSource, type TickChannel } from './browser-app.js';
import type { PageStart } from './enter-xr.js';
import type { LayerImage, PageError, TickInput, TickOutput } from './protocol.js';
import { TickTranslator } from './tick-translator.js';

/** Where a page runs: a `WarmChromium` (replaced when a page in it hangs) or any Playwright browser. */
export type PageBrowser = BrowserSource & { replace?(): Promise<void> };

/**
 * What the closed loop needs of a page: a `BrowserApp`, or a stand-in that answers ticks by script
 * (tests of the loop itself).
 */
export type PageEnd = Pick<BrowserApp, 'tick' | 'waitForSession' | 'status' | 'start' | 'stats' | 'close'> & Partial<Pick<BrowserApp, 'page'>>;

/** How a session's page is opened and watched; every field has a default (`SessionOptions.page`). */
export interface PageOptions {
  /** The browser to open the page in (default: the process's warm Chromium, `sharedChromium()`). */
  chromium?: PageBrowser;
  /** How long one tick may take before the page counts as hung (default 10 s). */
  tickTimeoutMs?: number;
  /** How long the page may take to start its XR session (default 20 s). */
  startTimeoutMs?: number;
  /** The tick channel (default: the page's socket, or `XRSIM_TICK_CHANNEL`); results are the same either way. */
  tickChannel?: TickChannel;
  /** Sees every round trip: the tick inputs sent and the page's outputs, in tick order (`XrPage` keeps the outputs). */
  observe?(inputs: readonly TickInput[], outputs: readonly TickOutput[]): void;
  /** Opens the page in place of `BrowserApp.open` (a scripted stand-in page: tests of the loop itself). */
  open?(options: BrowserAppOptions): Promise<PageEnd>;
}

export interface BrowserHostOptions extends Omit<PageOptions, 'chromium'> {
  /** The page: a served directory and page, or a loopback URL (`task/browser-programs.ts`). */
  ref: BrowserAppRef;
  /** The browser the page opens in (a fresh context per session). */
  chromium: PageBrowser;
  /** Records a page error as an AppError event of the current tick. */
  reportError(error: PageError): void;
  /** Records how the page's session started (`EventType.PageStart`), in frame 0. */
  reportStart?(start: PageStart): void;
  /** Reads the page's XR layer back at the ticks it wants (videos of what the page rendered). */
  capture?: LayerCapture;
}

/**
 * Asks for what the page drew into its XR layer at chosen ticks and takes the images. Reading pixels
 * changes nothing the session sees: the frames and hash stay those of a run without it.
 */
export interface LayerCapture {
  /** Whether to read the layer back after tick `tick`'s frame. */
  wants(tick: number): boolean;
  /** An image read back. The session waits for the promise, so a slow consumer holds it back rather than filling memory. */
  take(tick: number, image: LayerImage): void | Promise<void>;
}

/** Thrown when a page never starts an immersive session: nothing could be tested. */
export class PageNeverStartedError extends Error {
  constructor(page: string) {
    super(`the page ${page} never started an immersive XR session (navigator.xr.requestSession + renderer.xr.setSession)`);
    this.name = 'PageNeverStartedError';
  }
}

export class BrowserHostApp {
  private app: PageEnd | null = null;
  private ready: Promise<void> | null = null;
  private translator: TickTranslator | null = null;
  private ctx: AppContext | null = null;
  /** Tick inputs encoded since the last exchange, in tick order. */
  private readonly inputs: TickInput[] = [];
  private opened = false;
  private startReported = false;
  private closed = false;
  /**
   * Whether the page's next ticks cannot depend on its answers to earlier ones: its session asks the host
   * for nothing (no `hit-test`, no `anchors`: requests change the next tick's input) and has kept running
   * since it started. Once false, it stays false.
   */
  batchable = false;

  constructor(private readonly options: BrowserHostOptions) {}

  /** The app module the session runs. */
  module(): AppModule {
    return {
      setup: (ctx) => (this.ready = this.open(ctx)),
      frame: (xr) => this.encode(xr),
    };
  }

  /** Whether the page's layer is read back at some ticks (the images are taken in tick order, one round trip at a time). */
  get capturing(): boolean {
    return this.options.capture !== undefined;
  }

  /** Round-trip statistics of the page's bridge (null before it opened). */
  get stats() {
    return this.app?.stats ?? null;
  }

  /** The page (its status, how its session started, the Playwright page); null before it opened. */
  get page(): PageEnd | null {
    return this.app;
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
    this.ctx = ctx;
    this.translator = new TickTranslator(ctx.dt, (error) => this.options.reportError(error));
    const open = this.options.open ?? ((options: BrowserAppOptions) => BrowserApp.open(options));
    this.app = await open({ chromium, dir: ref.url ? process.cwd() : ref.path, page: ref.page, url: ref.url, seed, tickTimeoutMs: this.options.tickTimeoutMs, start: ref.start, tickChannel: this.options.tickChannel });
    const started = await this.guard(this.app.waitForSession(this.options.startTimeoutMs ?? 20_000));
    if (!started) throw new PageNeverStartedError(ref.url ?? ref.page);
    this.batchable = this.app.status?.session === 'running' && !this.app.status.requests;
    this.opened = true;
  }

  /** Serves the page's requests that are due and encodes the tick's input (sent by {@link exchange}). */
  private encode(xr: XrFrameLike): Promise<void> | void {
    if (!this.opened) return this.ready!.then(() => this.encode(xr)); // frame 0, while the page starts
    this.inputs.push(this.translator!.encode(xr, this.ctx!));
  }

  /** Sends the ticks encoded since the last exchange, in one round trip; the page's outputs, in tick order. */
  async exchange(): Promise<TickOutput[]> {
    const inputs = this.inputs.splice(0);
    const capture = this.options.capture;
    if (capture) for (const input of inputs) if (capture.wants(input.k)) input.c = 1;
    const outputs = await this.guard(this.app!.tick(inputs));
    this.options.observe?.(inputs, outputs);
    if (capture) for (const output of outputs) if (output.layer) await capture.take(output.k, output.layer);
    for (let i = 0; i < outputs.length; i++) {
      const output = outputs[i];
      if (output.session !== 'running' || output.requests.length > 0) {
        this.batchable = false;
        // Cannot happen while batchable held (no hit-test, no anchors), but a request answered late would
        // silently change every later tick: refuse loudly instead.
        if (output.requests.length > 0 && i < outputs.length - 1) {
          throw new Error(`the page made a request at tick ${output.k}, inside a batch of ${outputs.length} ticks: the session cannot have batched these ticks (please report this)`);
        }
      }
    }
    return outputs;
  }

  /** Applies the page's output of the tick whose frame the session is about to commit: state, events, errors. */
  apply(output: TickOutput): void {
    if (!this.startReported && this.app?.start) this.options.reportStart?.(this.app.start);
    this.startReported = true;
    this.translator!.apply(output, this.ctx!);
  }

  /** A page that stops answering takes its browser down with it: the next session gets a new one. */
  private async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof PageUnresponsiveError || (error instanceof Error && /crash|closed|disconnected/i.test(error.message))) {
        await this.options.chromium.replace?.(); // close() still frees the page's server
      }
      throw error;
    }
  }
}
