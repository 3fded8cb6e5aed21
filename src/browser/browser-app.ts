/**
 * A browser app for one session: its directory served on loopback, a fresh context in the warm Chromium
 * with the shim installed before any page script, and the tick bridge.
 *
 * The bridge calls the page handle's `tick(batch)`: data in, data out. Ticks travel over the page's own
 * loopback WebSocket (`tick-socket.ts`) once the shim has connected it, else over DevTools
 * (`Runtime.evaluate`); the page runs the same handle either way. The page gets no binding into Node (no
 * exposeFunction/exposeBinding), every request off the app server is answered from an installed package or
 * refused (and reported as an app error naming the URL), and Chromium resolves no host name but the
 * loopback address.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { WarmChromium } from './chromium.js';
import { DEFAULT_PACKAGES, PackageResolver, proxyModule } from './packages.js';
import { DEFAULT_LAYER_SIZE, PAGE_HANDLE, PROTOCOL_VERSION, type PageError, type PageStatus, type ShimConfig, type TickInput, type TickOutput } from './protocol.js';
import { contentType, startStaticServer, type StaticServer } from './static-server.js';
import { BadPageOutputError, checkOutputs } from './check-output.js';
import { TickSocket } from './tick-socket.js';
import { enterXr, type PageStart } from './enter-xr.js';
import { PageLeftWatch } from './page-left.js';

/**
 * Whether a file of the app directory is part of its site: not a dotfile nor inside a dot-folder (`.git`,
 * `.env`, an editor's settings), which no static host publishes, but `.well-known/`, which sites do.
 */
export function isSiteFile(relativePath: string): boolean {
  return relativePath.split('/').every((segment, i) => !segment.startsWith('.') || (i === 0 && segment === '.well-known'));
}

/** Raised when the page does not answer a tick in time (an infinite loop): the browser must be replaced. */
export class PageUnresponsiveError extends Error {
  constructor(readonly ms: number) {
    super(`the page did not answer within ${ms} ms (an infinite loop or a blocked main thread)`);
    this.name = 'PageUnresponsiveError';
  }
}

/** Where a page's browser comes from: a `WarmChromium`, or any Playwright browser (`{ browser: async () => b }`). */
export type BrowserSource = Pick<WarmChromium, 'browser'> | { browser(): Promise<Browser> };

export interface BrowserAppOptions {
  chromium: BrowserSource;
  /** The app directory (served at `/`, its `index.html` opened). */
  dir: string;
  /**
   * Instead of serving `dir`: a page the user serves on this machine's loopback (`http://127.0.0.1:PORT/...`).
   * Requests to its origin pass; CDN requests are answered from the packages installed beside `dir`.
   */
  url?: string;
  /** The page to open, relative to the directory (default `index.html`). */
  page?: string;
  /** Seeds the page's Math.random (use the session's `app` stream). */
  seed: number;
  /** Layer size, field of view and modes of the simulated headset. */
  shim?: Pick<ShimConfig, 'layerWidth' | 'layerHeight' | 'fov' | 'modes'>;
  /** Packages the import map names (default `three`). */
  packages?: string[];
  /** How long a tick round trip may take (default 10 s). */
  tickTimeoutMs?: number;
  /**
   * A CSS selector of the element the simulated user clicks to enter XR (a task's `apps` entry `start`,
   * `--start`). Default: a page that does not request its session by itself is entered by the element a
   * person would press (`enter-xr.ts`).
   */
  start?: string;
  /**
   * How ticks reach the page: `socket` (default: the page's loopback WebSocket, DevTools until it is
   * connected) or `devtools` (always `Runtime.evaluate`). The environment's `XRSIM_TICK_CHANNEL` sets the
   * default. Results are the same either way; only the cost of a round trip differs.
   */
  tickChannel?: TickChannel;
}

export type TickChannel = 'socket' | 'devtools';

/** The tick channel when the options name none: `XRSIM_TICK_CHANNEL`, else `socket`. */
export function defaultTickChannel(): TickChannel {
  const value = process.env.XRSIM_TICK_CHANNEL;
  if (value === undefined || value === '') return 'socket';
  if (value === 'socket' || value === 'devtools') return value;
  throw new Error(`XRSIM_TICK_CHANNEL must be socket or devtools, not ${JSON.stringify(value)}`);
}

/** How long a page that is ready may keep its tick socket connecting before the host ticks it over DevTools. */
const BRIDGE_CONNECT_MS = 2_000;

/** The page's `Date.now` at frame time 0 in every page: 2025-01-01T00:00:00Z. */
export const PAGE_EPOCH_MS = Date.UTC(2025, 0, 1);

let shimSource: string | null = null;
/** The shim bundle (built by `npm run build`). */
export function shimBundle(): string {
  if (shimSource === null) {
    // dist/src/browser/ → dist/xrsim-shim.js; from the sources (tests), src/browser/ → dist/xrsim-shim.js.
    const relative = import.meta.url.endsWith('.ts') ? '../../dist/xrsim-shim.js' : '../../xrsim-shim.js';
    const path = fileURLToPath(new URL(relative, import.meta.url));
    try {
      shimSource = readFileSync(path, 'utf8');
    } catch {
      throw new Error(`the shim bundle ${path} is missing: run npm run build`);
    }
  }
  return shimSource;
}

/** Round-trip statistics of one browser app. */
export interface BridgeStats {
  roundTrips: number;
  /** Round trips that went over the page's WebSocket (the rest went over DevTools). */
  socketRoundTrips: number;
  ticks: number;
  totalMs: number;
  maxMs: number;
}

export class BrowserApp {
  readonly stats: BridgeStats = { roundTrips: 0, socketRoundTrips: 0, ticks: 0, totalMs: 0, maxMs: 0 };
  /** Errors the host saw (refused requests, a crashed page), handed out with the next tick. */
  private hostErrors: PageError[] = [];
  /** The page's status when {@link waitForSession} last asked (null before). */
  status: PageStatus | null = null;
  /** How the page's XR session started: by itself or by the simulated user's click (null before it did). */
  start: PageStart | null = null;
  /** The page's requests not answered yet (the simulated user waits for a loading page). */
  private inFlight = 0;
  private crashed = false;
  /** Whether the page left its document, watched from the first tick (a page may redirect while it starts). */
  private navigation: PageLeftWatch | null = null;

  private constructor(
    private readonly options: BrowserAppOptions,
    private readonly server: StaticServer | null,
    private readonly context: BrowserContext,
    readonly page: Page,
    /** Where the page comes from: the app server (`http://127.0.0.1:<port>`) or the user's URL's origin. */
    readonly origin: string,
    /** Ticks go over a raw DevTools session until the socket is connected (a third of the latency of page.evaluate). */
    private readonly cdp: CDPSession,
    /** The page's tick channel (null: DevTools only). */
    private readonly socket: TickSocket | null,
  ) {}

  /** Serves the directory, opens a fresh context and loads the page. Its session has not started yet. */
  static async open(options: BrowserAppOptions): Promise<BrowserApp> {
    const packages = new PackageResolver(options.dir);
    const names = options.packages ?? DEFAULT_PACKAGES;
    const refused: PageError[] = [];
    const server = options.url ? null : await startStaticServer({
      root: options.dir,
      rootAllow: isSiteFile,
      mount: (pathname) => packages.mount(pathname),
      transformHtml: (html) => injectImportMap(html, packages.importMapFor(html, names)),
      onRefused: (pathname, status) => refused.push({ kind: 'network', message: `request for ${pathname} refused by the app server (${status})`, stack: '' }),
    });
    let context: BrowserContext | undefined;
    let socket: TickSocket | null = null;
    try {
      const origin = options.url ? new URL(options.url).origin : server!.origin;
      if ((options.tickChannel ?? defaultTickChannel()) === 'socket') socket = await TickSocket.listen(origin);
      const browser = await options.chromium.browser();
      context = await browser.newContext({
        viewport: { width: options.shim?.layerWidth ?? DEFAULT_LAYER_SIZE.width, height: options.shim?.layerHeight ?? DEFAULT_LAYER_SIZE.height },
        deviceScaleFactor: 1,
        timezoneId: 'UTC',
        locale: 'en-US',
        serviceWorkers: 'block',
        acceptDownloads: false,
      });
      const config: ShimConfig = { protocol: PROTOCOL_VERSION, seed: options.seed, epochMs: PAGE_EPOCH_MS, ...options.shim, ...(socket ? { bridge: socket.url } : {}) };
      await context.addInitScript({ content: `window.__xrsimConfig = ${JSON.stringify(config)};\n${shimBundle()}` });
      const page = await context.newPage();
      const app = new BrowserApp(options, server, context, page, origin, await context.newCDPSession(page), socket);
      app.hostErrors = refused;
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${origin}/`)) return route.continue();
        const answer = packages.cdnAnswer(url);
        const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
        if (answer && 'file' in answer) {
          // A module script (fetched in CORS mode, so with an Origin) named by another URL than its file's.
          const request = route.request();
          if (answer.url && request.resourceType() === 'script' && 'origin' in request.headers()) {
            return route.fulfill({ body: proxyModule(answer.url), contentType: 'text/javascript', headers });
          }
          return route.fulfill({ path: answer.file, contentType: contentType(answer.file), headers });
        }
        const why = answer?.refused ?? `request to ${url} cannot be served locally (only the app directory and installed packages are)`;
        app.hostErrors.push({ kind: 'network', message: why, stack: '' });
        // A file an installed package does not publish is what the CDN itself answers 404 for.
        if (answer && 'status' in answer) return route.fulfill({ status: answer.status, body: 'not found', contentType: 'text/plain', headers });
        return route.abort('blockedbyclient');
      });
      page.on('crash', () => (app.crashed = true));
      page.on('request', () => app.inFlight++);
      page.on('requestfinished', () => app.inFlight--);
      page.on('requestfailed', () => app.inFlight--);
      const response = await page.goto(options.url ?? `${origin}/${options.page ?? 'index.html'}`, { waitUntil: 'load', timeout: 30_000 });
      if (response && !response.ok()) app.hostErrors.push({ kind: 'network', message: `the page ${page.url()} answered ${response.status()}`, stack: '' });
      return app;
    } catch (error) {
      await context?.close().catch(() => undefined);
      await server?.close();
      await socket?.close();
      throw error;
    }
  }

  /**
   * Waits until the page's XR session will run a frame at the next tick (virtual time stays at 0). A page
   * that waits for a user gesture gets one: the simulated user clicks its way in (`enter-xr.ts`), and
   * {@link start} says how the session started. Resolves false when it never starts; throws
   * `PageStartError` when the `start` selector cannot be followed.
   */
  async waitForSession(timeoutMs = 15_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs; // xrsim-allow-clock: the host's wait for a page to start, outside the simulation
    const status = async () => (this.status = await this.withTimeout(this.page.evaluate<PageStatus>(`window.${PAGE_HANDLE}.status()`)));
    this.start = await enterXr(this.cdp, { start: this.options.start, status, inFlight: () => this.inFlight, remainingMs: () => deadline - Date.now() }); // xrsim-allow-clock
    if (!this.start) return false;
    let readySince: number | null = null;
    for (let attempt = 0; Date.now() < deadline; attempt++) { // xrsim-allow-clock
      const now = await status();
      // Ticks go over the page's socket from the first one on, unless it cannot connect (then DevTools):
      // a socket still connecting a while after the page is ready is given up on.
      if (now.frameReady) readySince ??= Date.now(); // xrsim-allow-clock
      if (now.frameReady && (now.bridge !== 'connecting' || Date.now() - readySince! > BRIDGE_CONNECT_MS)) return true; // xrsim-allow-clock
      await new Promise((done) => setTimeout(done, Math.min(20, 1 + attempt)));
    }
    return false;
  }

  /** Runs a batch of ticks in the page; one output per tick. Host-side errors join the first output. */
  async tick(batch: TickInput[]): Promise<TickOutput[]> {
    if (this.crashed) throw new Error('the page crashed');
    this.navigation ??= await PageLeftWatch.start(this.cdp, this.origin, this.page.url());
    this.navigation.check();
    const started = performance.now(); // xrsim-allow-clock: round-trip statistics for the host, never in a frame
    const overSocket = this.socket?.connected ?? false;
    let outputs: unknown;
    try {
      outputs = overSocket ? await this.tickOverSocket(batch) : await this.tickOverDevTools(batch);
    } catch (error) {
      await this.navigation.explain();
      throw error;
    }
    // Outputs that crossed while the page was leaving may be the next document's: none of them count.
    this.navigation.check();
    const ms = performance.now() - started; // xrsim-allow-clock
    this.stats.roundTrips++;
    if (overSocket) this.stats.socketRoundTrips++;
    this.stats.ticks += batch.length;
    this.stats.totalMs += ms;
    this.stats.maxMs = Math.max(this.stats.maxMs, ms);
    const checked = checkOutputs(outputs, batch.map((t) => t.k));
    const leaving = checked.find((output) => output.left !== undefined);
    if (leaving) this.navigation.check(leaving.left!);
    if (this.hostErrors.length > 0 && checked.length > 0) checked[0].errors.unshift(...this.hostErrors.splice(0));
    return checked;
  }

  private async tickOverDevTools(batch: TickInput[]): Promise<unknown> {
    const reply = await this.withTimeout(
      this.cdp.send('Runtime.evaluate', { expression: `window.${PAGE_HANDLE}.tick(${JSON.stringify(batch)})`, awaitPromise: true, returnByValue: true }),
    );
    if (reply.exceptionDetails) throw new Error(`the page's tick handle failed: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`);
    return reply.result.value;
  }

  /** One message each way; the answer is `{ o: outputs }` or `{ e: error }` (shim/bridge-socket.ts). */
  private async tickOverSocket(batch: TickInput[]): Promise<unknown> {
    const text = await this.withTimeout(this.socket!.request(JSON.stringify(batch)));
    let answer: { o?: unknown; e?: unknown };
    try {
      answer = JSON.parse(text) as { o?: unknown; e?: unknown };
    } catch {
      throw new BadPageOutputError('the tick channel carried something other than JSON');
    }
    if (answer && typeof answer === 'object' && 'e' in answer) throw new Error(`the page's tick handle failed: ${String(answer.e)}`);
    if (!answer || typeof answer !== 'object' || !('o' in answer)) throw new BadPageOutputError('the tick channel carried no outputs');
    return answer.o;
  }

  /** Closes the context and the server (the warm browser stays). */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.context.close().catch(() => undefined), new Promise((done) => (timer = setTimeout(done, 5_000)))]);
    clearTimeout(timer);
    await this.server?.close();
    await this.socket?.close();
  }

  private async withTimeout<T>(promise: Promise<T>): Promise<T> {
    const ms = this.options.tickTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([promise, new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new PageUnresponsiveError(ms)), ms)))]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Puts xrsim's import map first in the document's head, so it applies to every module script, with only
 * what the page's own import maps leave unmapped: a specifier the page maps keeps the page's mapping
 * (browsers merge several import maps, and the first rule for a specifier wins).
 */
export function injectImportMap(html: string, importMap: { imports: Record<string, string> }): string {
  const mapped = pageImportMapSpecifiers(html);
  const imports = Object.fromEntries(Object.entries(importMap.imports).filter(([specifier]) => !mapped.has(specifier)));
  if (Object.keys(imports).length === 0) return html;
  const tag = `<script type="importmap">${JSON.stringify({ imports }).replace(/</g, '\\u003c')}</script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  const htmlTag = /<html(\s[^>]*)?>/i.exec(html);
  if (htmlTag) return html.slice(0, htmlTag.index + htmlTag[0].length) + `<head>${tag}</head>` + html.slice(htmlTag.index + htmlTag[0].length);
  return tag + html;
}

/** The top-level `imports` specifiers of the page's inline import maps (one the browser cannot parse maps nothing). */
export function pageImportMapSpecifiers(html: string): Set<string> {
  const specifiers = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\btype\s*=\s*(["']?)importmap\1[^>]*>([\s\S]*?)<\/script\s*>/gi)) {
    try {
      const map = JSON.parse(match[2]) as { imports?: unknown };
      if (map.imports && typeof map.imports === 'object') for (const key of Object.keys(map.imports)) specifiers.add(key);
    } catch {
      // The browser reports a malformed import map itself.
    }
  }
  return specifiers;
}
