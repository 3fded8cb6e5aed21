/**
 * One WebXR page under test with the shim installed, stepped by a simulated user: a session of the task
 * whose app is the page, run on the session's closed loop (`browser/host-app.ts`), as `xrsim run --app DIR`
 * runs it: the page's output of tick N is the app state of tick N, and ticks travel in batches only where
 * they cannot depend on the page's answers (docs/BROWSER.md, "Batched and pipelined sessions"), so the frames and hash are
 * those of the same session stepped in one go. The page runs in a fresh browser context, its directory
 * served on loopback, the shim installed before any page script.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { WarmChromium } from '../browser/chromium.js';
import type { PageStart } from '../browser/enter-xr.js';
import type { PageEnd } from '../browser/host-app.js';
import type { PageError, TickOutput } from '../browser/protocol.js';
import type { FrameView } from '../frame/frame.js';
import { quatAxis } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SessionResult } from '../session/result.js';
import { createSession, type Session } from '../session/session.js';
import type { SessionSpec } from '../session/spec.js';
import { loadTask } from '../task/load.js';
import type { UserControls } from '../user/user.js';

export interface XrPageOptions extends Omit<SessionSpec, 'app' | 'seed'> {
  /** The app's directory (served at `/`), a path or a `file:` URL. */
  dir: string | URL;
  /** The page to open in `dir` (default `index.html`); a page in a subdirectory is served from its own directory, as `xrsim run --app DIR/PAGE.html` serves it. */
  page?: string;
  /** The session seed; the page's `Math.random` is seeded from it, as in any session (its `app` stream; default 1). */
  seed?: number;
  /**
   * Whether the task's actor script drives the user (default true). With false the user stands still
   * until the test moves it through {@link XrPage.user}.
   */
  actors?: boolean;
  /** The browser to open the page in, e.g. Playwright Test's `browser` fixture (default: Debian's Chromium, launched for this page). */
  browser?: Browser;
  /**
   * The most ticks per round trip (default 32, as sessions). Speed only: the session batches only ticks that
   * cannot depend on the page's answers, so frames and hash are the same whatever it is (1: one tick each).
   */
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
  /** Whether the page started its XR session (a page that never does rejects {@link XrPage.open}). */
  readonly started = true;
  private closed = false;
  private result: SessionResult | null = null;

  private constructor(
    /** The session that steps the user, the room, the sensors and the page (its model, frames, hash). */
    readonly session: Session,
    /** Every tick's output of the page, in order. */
    readonly outputs: TickOutput[],
    private readonly ownBrowser: WarmChromium | null,
  ) {}

  /** Opens the page, starts its XR session and delivers frame 0. */
  static async open(options: XrPageOptions): Promise<XrPage> {
    const { dir, page, seed = 1, actors = true, browser, batch, tickTimeoutMs = 30_000, startTimeoutMs = 15_000, ...spec } = options;
    const own = browser ? null : new WarmChromium();
    const outputs: TickOutput[] = [];
    try {
      const root = typeof dir === 'string' ? dir : fileURLToPath(dir);
      const task = actors ? spec.task : { ...loadTask(spec.task).spec, actors: undefined };
      const session = await createSession(
        { ...spec, task, seed, app: page ? join(root, page) : root, ...(batch !== undefined ? { browserBatch: Math.max(1, batch) } : {}) },
        { page: { chromium: own ?? { browser: async () => browser! }, tickTimeoutMs, startTimeoutMs, observe: (_, got) => outputs.push(...got) } },
      );
      return new XrPage(session, outputs, own);
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
    return this.app.page!;
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
    return this.session.stepTicks(ticks);
  }

  /** Steps the simulated seconds `seconds` (rounded to whole ticks). */
  advance(seconds: number): Promise<FrameView> {
    return this.step(Math.round(seconds / this.dt));
  }

  /** Steps to the end of the task and scores its milestones (the page stays open until {@link close}). */
  async finish(): Promise<SessionResult> {
    if (this.result) return this.result;
    await this.step(this.session.model.timing.durationTicks);
    this.result = this.session.finish();
    return this.result;
  }

  /** The page's tags in its latest frame, by role (null while a tag has no pose). */
  tags(): Record<string, TagPose | null> {
    const last = this.outputs.at(-1);
    // fromEntries defines own properties: a page's tag named "__proto__" is a tag, not the prototype.
    return Object.fromEntries(
      [...(last?.tags ?? [])].map(([role, p]) => [role, p ? { position: [p[0], p[1], p[2]], rotation: [p[3], p[4], p[5], p[6]] } : null]),
    ) as Record<string, TagPose | null>;
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
    await this.session.close();
    await this.ownBrowser?.close();
  }

  /** The session's page (open from {@link open} until {@link close}). */
  private get app(): PageEnd {
    return this.session.browserPage!;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('XrPage: the page was closed');
    if (this.result) throw new Error('XrPage: the session has finished');
  }
}
