/**
 * Virtual time and seeded randomness in the page. Installed before any page script runs, it replaces
 * `performance.now`, `Date`, `setTimeout`/`setInterval` (and their clears), `requestAnimationFrame`,
 * `requestIdleCallback`, `Math.random` and `crypto.getRandomValues`/`randomUUID`: time moves only when the
 * host ticks, and randomness comes from the seed the host gives. A deterministic page then gives the same
 * published state on every run.
 *
 * Timers follow HTML's ordering (due time, then creation order) and clamping (4 ms after 5 nested levels;
 * intervals at least 4 ms). While a timer runs, the clock reads its due time, as a real one would.
 */

type Callback = (...args: unknown[]) => void;

interface Timer {
  id: number;
  due: number;
  seq: number;
  callback: Callback;
  args: unknown[];
  /** Repeat period for intervals, else null. */
  interval: number | null;
  nesting: number;
}

/** Timer callbacks run per tick at most: a page that re-arms a 0 ms timer forever cannot stall the tick. */
const MAX_TIMERS_PER_ADVANCE = 10_000;

export class VirtualClock {
  /** Frame-clock milliseconds (performance.now). */
  nowMs = 0;
  private readonly timers = new Map<number, Timer>();
  private nextTimerId = 1;
  private seq = 0;
  private nesting = 0;
  private frameCallbacks = new Map<number, FrameRequestCallback>();
  private nextFrameId = 1;
  private readonly random: () => number;

  constructor(
    seed: number,
    private readonly epochMs: number,
    /** Reports an exception thrown by a callback, as the browser reports uncaught ones. */
    private readonly report: (error: unknown) => void,
  ) {
    this.random = sfc32(seed);
  }

  /** Replaces the page's clocks, timers and randomness. */
  install(win: Window & typeof globalThis): void {
    const clock = this;
    const define = (target: object, name: string, value: unknown) =>
      Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
    define(win.performance, 'now', () => clock.nowMs);
    const RealDate = win.Date;
    const VirtualDate = function (this: unknown, ...args: unknown[]) {
      const now = clock.epochMs + clock.nowMs;
      if (!new.target) return new RealDate(now).toString();
      return args.length === 0 ? new RealDate(now) : new (RealDate as unknown as new (...a: unknown[]) => Date)(...args);
    } as unknown as DateConstructor;
    Object.defineProperties(VirtualDate, {
      prototype: { value: RealDate.prototype },
      now: { value: () => clock.epochMs + clock.nowMs, writable: true, configurable: true },
      parse: { value: RealDate.parse, writable: true, configurable: true },
      UTC: { value: RealDate.UTC, writable: true, configurable: true },
    });
    define(RealDate.prototype, 'constructor', VirtualDate);
    define(win, 'Date', VirtualDate);
    define(win, 'setTimeout', (handler: Callback | string, delay?: number, ...args: unknown[]) => this.schedule(handler, delay, args, false));
    define(win, 'setInterval', (handler: Callback | string, delay?: number, ...args: unknown[]) => this.schedule(handler, delay, args, true));
    define(win, 'clearTimeout', (id?: number) => this.timers.delete(Number(id)));
    define(win, 'clearInterval', (id?: number) => this.timers.delete(Number(id)));
    define(win, 'requestAnimationFrame', (callback: FrameRequestCallback) => {
      const id = this.nextFrameId++;
      this.frameCallbacks.set(id, callback);
      return id;
    });
    define(win, 'cancelAnimationFrame', (id: number) => this.frameCallbacks.delete(id));
    define(win, 'requestIdleCallback', (callback: IdleRequestCallback) =>
      this.schedule(() => callback({ didTimeout: false, timeRemaining: () => 0 }), 0, [], false),
    );
    define(win, 'cancelIdleCallback', (id: number) => this.timers.delete(id));
    define(win.Math, 'random', this.random);
    const random = this.random;
    define(win.crypto, 'getRandomValues', <T extends ArrayBufferView | null>(array: T): T => {
      if (!array) return array;
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
      return array;
    });
    define(win.crypto, 'randomUUID', () => {
      const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
      hex[12] = '4';
      hex[16] = ((parseInt(hex[16], 16) & 3) | 8).toString(16);
      const s = hex.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    });
  }

  /** Moves the clock to `ms`, running every timer due by then in order. */
  advanceTo(ms: number): void {
    for (let fired = 0; fired < MAX_TIMERS_PER_ADVANCE; fired++) {
      let next: Timer | null = null;
      for (const timer of this.timers.values()) {
        if (timer.due <= ms && (!next || timer.due < next.due || (timer.due === next.due && timer.seq < next.seq))) next = timer;
      }
      if (!next) break;
      this.nowMs = Math.max(this.nowMs, next.due);
      if (next.interval === null) this.timers.delete(next.id);
      else {
        next.due += next.interval;
        next.seq = this.seq++;
      }
      this.nesting = next.nesting;
      try {
        next.callback(...next.args);
      } catch (error) {
        this.report(error);
      } finally {
        this.nesting = 0;
      }
    }
    this.nowMs = Math.max(this.nowMs, ms);
  }

  /** Runs the window's animation-frame callbacks requested so far, with the current time. */
  runAnimationFrames(): void {
    if (this.frameCallbacks.size === 0) return;
    const callbacks = this.frameCallbacks;
    this.frameCallbacks = new Map();
    for (const callback of callbacks.values()) {
      try {
        callback(this.nowMs);
      } catch (error) {
        this.report(error);
      }
    }
  }

  private schedule(handler: Callback | string, delay: number | undefined, args: unknown[], repeat: boolean): number {
    // A string handler is code, as in browsers (indirect eval: global scope).
    const callback: Callback = typeof handler === 'function' ? handler : () => (0, eval)(String(handler));
    const nesting = this.nesting + 1;
    let wait = Math.max(0, Number(delay) || 0);
    if ((nesting > 5 || repeat) && wait < 4) wait = 4;
    const id = this.nextTimerId++;
    this.timers.set(id, { id, due: this.nowMs + wait, seq: this.seq++, callback, args, interval: repeat ? wait : null, nesting });
    return id;
  }
}

/** sfc32 seeded through splitmix32: a small, fast, well-mixed generator of [0, 1) doubles. */
export function sfc32(seed: number): () => number {
  let state = (seed >>> 0) ^ Math.floor(seed / 2 ** 32);
  const split = () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return () => next() / 4294967296;
}
