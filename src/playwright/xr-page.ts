/**
 * One WebXR page under test with the shim installed, stepped by a simulated user: the page runs in a fresh
 * browser context (its directory served on loopback, the shim installed before any page script), an
 * in-process session steps the user, room and sensors, and a `BrowserRelay` carries each tick to the page
 * and the page's tags, events and requests back (closed loop by default: one tick per round trip, the
 * page's output of tick N applied at tick N + 1, as `driveBrowserApp` does; docs/BROWSER.md).
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { BrowserApp } from '../browser/browser-app.js';
import { WarmChromium } from '../browser/chromium.js';
import { createRelayedSession } from '../browser/drive.js';
import type { PageStart } from '../browser/enter-xr.js';
import type { PageError, TickOutput } from '../browser/protocol.js';
import { BrowserRelay } from '../browser/relay.js';
import type { FrameView } from '../frame/frame.js';
import { quatAxis } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SessionResult } from '../session/result.js';
import type { Session } from '../session/session.js';
import type { SessionSpec } from '../session/spec.js';
import { loadTask } from '../task/load.js';
import type { UserControls } from '../user/user.js';

export interface XrPageOptions extends Omit<SessionSpec, 'app' | 'seed'> {
  /** The app's directory (served at `/`), a path or a `file:` URL. */
  dir: string | URL;
  /** The page to open, relative to `dir` (default `index.html`). */
  page?: string;
  /** The session seed; it also seeds the page's `Math.random` (default 1). */
  seed?: number;
  /**
   * Whether the task's actor script drives the user (default true). With false the user stands still
   * until the test moves it through {@link XrPage.user}.
   */
  actors?: boolean;
  /** The browser to open the page in, e.g. Playwright Test's `browser` fixture (default: Debian's Chromium, launched for this page). */
  browser?: Browser;
  /** Ticks per round trip (default 1: closed loop). More is faster, and the page's output reaches the session later. */
  batch?: number;
  /** How long the page may take to answer one round trip (default 30 s). */
  tickTimeoutMs?: number;
  /**
   * How long to wait for the page to start its XR session (default 15 s). A page that waits for a user
   * gesture is clicked into XR by the simulated user (docs/BROWSER.md, "Entering XR").
   */
  startTimeoutMs?: number;
  /** The CSS selector of the element the simulated user clicks to enter XR (default: the element a person would press). */
  start?: string;
}

/** A tag's pose as the page published it: position and quaternion in world coordinates. */
export interface TagPose {
  position: Vec3;
  rotation: [number, number, number, number];
}

/** An `xrsim.emit(name, data)` of the page, with the tick of the frame it ran in. */
export interface PageEvent {
  tick: number;
  name: string;
  data: unknown;
}

/** A WebXR page with the simulated user: step it, move the user, read what the page published. */
export class XrPage {
  /** Every tick's output of the page, in order. */
  readonly outputs: TickOutput[] = [];
  private closed = false;
  private result: SessionResult | null = null;

  private constructor(
    private readonly app: BrowserApp,
    /** The in-process session that steps the user, the room and the sensors (its model, frames, hash). */
    readonly session: Session,
    private readonly relay: BrowserRelay,
    private readonly batch: number,
    /** Whether the page started its XR session. */
    readonly started: boolean,
    private readonly ownBrowser: WarmChromium | null,
  ) {}

  /** Opens the page, starts its XR session and delivers frame 0. */
  static async open(options: XrPageOptions): Promise<XrPage> {
    const { dir, page, seed = 1, actors = true, browser, batch = 1, tickTimeoutMs = 30_000, startTimeoutMs = 15_000, start, ...spec } = options;
    const own = browser ? null : new WarmChromium();
    const source = browser ? { browser: async () => browser } : own!;
    try {
      const app = await BrowserApp.open({ chromium: source, dir: typeof dir === 'string' ? dir : fileURLToPath(dir), page, seed, tickTimeoutMs, start });
      try {
        const started = await app.waitForSession(startTimeoutMs);
        const task = actors ? spec.task : { ...loadTask(spec.task).spec, actors: undefined };
        const { session, relay } = await createRelayedSession({ ...spec, task, seed }, (dt) => new BrowserRelay(dt));
        const xr = new XrPage(app, session, relay, Math.max(1, batch), started, own);
        await xr.flush();
        return xr;
      } catch (err) {
        await app.close();
        throw err;
      }
    } catch (err) {
      await own?.close();
      throw err;
    }
  }

  /** How the page's XR session started: by itself, or by the simulated user's click on an element (null if it never did). */
  get start(): PageStart | null {
    return this.app.start;
  }

  /** The Playwright page (evaluate, click, screenshot, ...). */
  get page(): Page {
    return this.app.page;
  }

  /** Explicit control of the simulated user: head, hands (pose, pinch, moveTo), controllers. */
  get user(): UserControls {
    return this.session.user;
  }

  /** The current tick (frame 0 is the initial state). */
  get tick(): number {
    return this.session.tick;
  }

  /** Seconds per tick. */
  get dt(): number {
    return this.session.model.timing.dt;
  }

  /** True once the task's duration has been simulated. */
  get done(): boolean {
    return this.session.done;
  }

  /** The current frame of the session (head, hands, bodies, events); valid until the next step. */
  get frame(): FrameView {
    return this.session.frame;
  }

  /** The session hash so far (16 hex digits): the same page, seed and steps give the same hash. */
  get hash(): string {
    return this.result?.hash ?? this.session.hash;
  }

  /** Steps `ticks` ticks (fewer at the end of the task), the page running one XR frame per tick. */
  async step(ticks = 1): Promise<FrameView> {
    this.checkOpen();
    for (let i = 0; i < ticks && !this.session.done; i++) {
      this.session.step();
      if (this.relay.inputs.length >= this.batch) await this.flush();
    }
    await this.flush();
    return this.session.frame;
  }

  /** Steps the simulated seconds `seconds` (rounded to whole ticks). */
  advance(seconds: number): Promise<FrameView> {
    return this.step(Math.round(seconds / this.dt));
  }

  /** Steps to the end of the task and scores its milestones (the page stays open until {@link close}). */
  async finish(): Promise<SessionResult> {
    if (this.result) return this.result;
    while (!this.session.done) await this.step(this.batch * 30);
    this.result = this.session.finish();
    return this.result;
  }

  /** The page's tags in its latest frame, by role (null while a tag has no pose). */
  tags(): Record<string, TagPose | null> {
    const last = this.outputs.at(-1);
    const tags: Record<string, TagPose | null> = {};
    for (const [role, p] of last?.tags ?? []) tags[role] = p ? { position: [p[0], p[1], p[2]], rotation: [p[3], p[4], p[5], p[6]] } : null;
    return tags;
  }

  /** The page's `xrsim.emit` events so far, all or those named `name`. */
  events(name?: string): PageEvent[] {
    return this.outputs.flatMap((o) => o.events.filter(([n]) => name === undefined || n === name).map(([n, data]) => ({ tick: o.k, name: n, data })));
  }

  /** What the page reported: uncaught exceptions, unhandled rejections, console errors, refused requests. */
  errors(): (PageError & { tick: number })[] {
    return this.outputs.flatMap((o) => o.errors.map((e) => ({ ...e, tick: o.k })));
  }

  /**
   * A world point relative to the viewer now: `forward` metres ahead (its −Z axis), `up` and `right`
   * metres along its Y and X axes. For `user.hand(...).moveTo({ point })`.
   */
  inFront(forward: number, { up = 0, right = 0 }: { up?: number; right?: number } = {}): Vec3 {
    const head = this.session.frame.channel('head')!;
    const q = [head[3], head[4], head[5], head[6]];
    const [x, y, z] = [quatAxis(q, 'x'), quatAxis(q, 'y'), quatAxis(q, 'z')];
    return [0, 1, 2].map((i) => head[i] - forward * z[i] + up * y[i] + right * x[i]) as Vec3;
  }

  /** Closes the page's context (and the browser, when this page launched it) and frees the session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.result) this.session.dispose();
    await this.app.close();
    await this.ownBrowser?.close();
  }

  private async flush(): Promise<void> {
    const sent = this.relay.take();
    if (sent.length === 0) return;
    const got = await this.app.tick(sent);
    this.relay.accept(got);
    this.outputs.push(...got);
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('XrPage: the page was closed');
    if (this.result) throw new Error('XrPage: the session has finished');
  }
}
