/**
 * WebAudio under virtual time. The page keeps its real `AudioContext`, nodes and graph (prototypes are
 * patched, nothing is replaced), but nothing of it depends on the real audio clock or hardware:
 *
 * - an `AudioContext`'s `currentTime` is seconds on the frame clock since the context was made (frozen
 *   while suspended), its `state` and `resume`/`suspend`/`close` are virtual, and the real context is
 *   suspended at once (its own `statechange` events never reach the page: only the shim's do);
 * - sources (`AudioScheduledSourceNode`: buffers, oscillators, constants) are never started for real:
 *   `start(when, offset, duration)` and `stop(when)` are checked as the specification says and kept, and
 *   `ended` is dispatched at the first tick at or after a source's end (its stop, or a non-looping buffer's
 *   end);
 * - an `AudioParam`'s value is the last one the page set or scheduled (`value`, `setValueAtTime`, the
 *   target of a ramp or `setTargetAtTime`, a curve's last value): the real one would follow the real
 *   clock. Automation is still handed to the real param;
 * - `connect`/`disconnect` are remembered, so `audio-voices.ts` can follow a source to the destination;
 * - `decodeAudioData` resolves at the start of the first tick after it was asked, whenever the real
 *   decoder finished (the tick waits for it).
 *
 * `OfflineAudioContext`s render for real and keep their own clock.
 */
import type { VirtualClock } from './virtual-time.js';

type Win = Window & typeof globalThis;

/** A context made through `new AudioContext()`: its virtual clock and state. */
interface ContextState {
  /** Frame-clock ms at which it last started running, or null while it is not running. */
  runningSinceMs: number | null;
  /** Context seconds accumulated before that. */
  elapsed: number;
  state: AudioContextState;
}

/** A source the page started (or is about to start). */
export interface SourceState {
  readonly node: AudioScheduledSourceNode;
  readonly context: BaseAudioContext;
  /** Context seconds it starts at, and stops at (Infinity: not stopped). */
  readonly startAt: number;
  stopAt: number;
  /** `start`'s offset and duration (buffer sources). */
  readonly offset: number;
  readonly duration: number | undefined;
  /** Whether its `ended` event was dispatched. */
  ended: boolean;
}

/** Seconds of slack when comparing context times (they are sums of frame-clock milliseconds). */
const EPSILON = 1e-9;

export class WebAudioObserver {
  /** Sources started and not yet done with (ended dispatched and reported), in the order `start` was called. */
  readonly sources: SourceState[] = [];
  private readonly contexts = new WeakMap<BaseAudioContext, ContextState>();
  private readonly started = new WeakMap<AudioScheduledSourceNode, SourceState>();
  private readonly edges = new WeakMap<AudioNode, AudioNode[]>();
  private readonly values = new WeakMap<AudioParam, number>();
  private readonly decodes: { real: Promise<AudioBuffer>; settle: (buffer: AudioBuffer | null, error: unknown) => void }[] = [];
  private realValue: (param: AudioParam) => number = () => 0;

  constructor(
    private readonly clock: VirtualClock,
    /** Reports an exception thrown by a page callback, as the browser reports uncaught ones. */
    private readonly report: (error: unknown) => void,
  ) {}

  /** Whether the page has made an audio context (until then no tick looks at audio). */
  active = false;

  /** Patches the page's WebAudio (nothing when it has none). */
  install(win: Win): void {
    if (typeof win.AudioContext !== 'function' || typeof win.AudioParam !== 'function') return;
    this.patchContexts(win);
    this.patchSources(win);
    this.patchParams(win);
    this.patchGraph(win);
  }

  /** A context's virtual `currentTime`, seconds. */
  contextTime(context: BaseAudioContext): number {
    const c = this.contexts.get(context);
    if (!c) return NaN;
    return c.elapsed + (c.runningSinceMs === null ? 0 : (this.clock.nowMs - c.runningSinceMs) / 1000);
  }

  /** A param's value as the page last set it (the real value before it set any). */
  paramValue(param: AudioParam): number {
    return this.values.get(param) ?? this.realValue(param);
  }

  /** The nodes `node` is connected to, in the order connected. */
  outputs(node: AudioNode): readonly AudioNode[] {
    return this.edges.get(node) ?? [];
  }

  /** Context seconds at which a source ends: its stop, a non-looping buffer's end, or its context closing. */
  endTime(source: SourceState): number {
    if (this.contexts.get(source.context)?.state === 'closed') return -Infinity;
    let end = source.stopAt;
    const node = source.node as AudioBufferSourceNode;
    const rate = node.playbackRate ? Math.abs(this.paramValue(node.playbackRate)) : 1;
    if (source.duration !== undefined) end = Math.min(end, source.startAt + source.duration / rate);
    else if (node.buffer && !node.loop) end = Math.min(end, source.startAt + Math.max(0, node.buffer.duration - source.offset) / rate);
    return end;
  }

  /** Whether a source has begun by now (context time). */
  hasStarted(source: SourceState): boolean {
    return source.startAt <= this.contextTime(source.context) + EPSILON;
  }

  /** Whether a source has ended by now (context time). */
  hasEnded(source: SourceState): boolean {
    return this.endTime(source) <= this.contextTime(source.context) + EPSILON;
  }

  /** Delivers the decodes asked for before this tick, in the order asked (the tick waits for the real decoder). */
  async settle(): Promise<void> {
    for (const decode of this.decodes.splice(0)) {
      try {
        decode.settle(await decode.real, null);
      } catch (error) {
        decode.settle(null, error);
      }
    }
  }

  /** Dispatches `ended` on the sources that ended by now (at the start of a tick, after the clock moved). */
  fireEnded(): void {
    for (const source of this.sources) {
      if (source.ended || !this.hasEnded(source)) continue;
      source.ended = true;
      try {
        source.node.dispatchEvent(new Event('ended'));
      } catch (error) {
        this.report(error);
      }
    }
  }

  private patchContexts(win: Win): void {
    const observer = this;
    const Real = win.AudioContext;
    const realSuspend = Real.prototype.suspend;
    const realClose = Real.prototype.close;
    // The constructor is wrapped, not replaced: `new AudioContext()` and subclasses still make real contexts.
    const Wrapped = new Proxy(Real, {
      construct(target, args, newTarget) {
        const context = Reflect.construct(target, args, newTarget) as AudioContext;
        observer.contexts.set(context, { runningSinceMs: observer.clock.nowMs, elapsed: 0, state: 'running' });
        observer.active = true;
        realSuspend.call(context).catch(() => undefined); // no real audio thread: nothing real can happen
        return context;
      },
    });
    define(Real.prototype, 'constructor', Wrapped);
    define(win, 'AudioContext', Wrapped);
    const Base = win.BaseAudioContext.prototype;
    const time = getter(Base, 'currentTime');
    const state = getter(Base, 'state');
    accessor(Base, 'currentTime', function (this: BaseAudioContext) {
      return observer.contexts.has(this) ? observer.contextTime(this) : time.call(this);
    });
    accessor(Base, 'state', function (this: BaseAudioContext) {
      return observer.contexts.get(this)?.state ?? state.call(this);
    });
    const change = (context: AudioContext, next: AudioContextState, real?: () => Promise<void>) => {
      const c = observer.contexts.get(context);
      if (!c) return real ? real() : Promise.resolve();
      if (c.state === 'closed') return Promise.reject(new DOMException('the AudioContext is closed', 'InvalidStateError'));
      return Promise.resolve().then(() => {
        if (c.state === next) return;
        c.elapsed = observer.contextTime(context);
        c.runningSinceMs = next === 'running' ? observer.clock.nowMs : null;
        c.state = next;
        context.dispatchEvent(new Event('statechange'));
      });
    };
    const realResume = Real.prototype.resume;
    define(Real.prototype, 'resume', function (this: AudioContext) {
      return change(this, 'running', () => realResume.call(this));
    });
    define(Real.prototype, 'suspend', function (this: AudioContext) {
      return change(this, 'suspended', () => realSuspend.call(this));
    });
    define(Real.prototype, 'close', function (this: AudioContext) {
      if (observer.contexts.has(this)) realClose.call(this).catch(() => undefined);
      return change(this, 'closed', () => realClose.call(this));
    });
    define(Real.prototype, 'getOutputTimestamp', function (this: AudioContext) {
      return { contextTime: observer.contextTime(this), performanceTime: observer.clock.nowMs };
    });
    filterTrustedEvents(Base, 'statechange');
    const decode = Base.decodeAudioData;
    define(Base, 'decodeAudioData', function (this: BaseAudioContext, data: ArrayBuffer, success?: DecodeSuccessCallback | null, failure?: DecodeErrorCallback | null) {
      const real = decode.call(this, data);
      if (!observer.contexts.has(this)) return real;
      return new Promise<AudioBuffer>((resolve, reject) => {
        observer.decodes.push({
          real,
          settle: (buffer, error) => {
            try {
              if (buffer) success?.(buffer);
              else failure?.(error as DOMException);
            } catch (thrown) {
              observer.report(thrown);
            }
            if (buffer) resolve(buffer);
            else reject(error);
          },
        });
      });
    });
  }

  private patchSources(win: Win): void {
    const observer = this;
    const Source = win.AudioScheduledSourceNode.prototype;
    const realStop = Source.stop;
    // AudioBufferSourceNode has a `start` of its own (with offset and duration): both are patched.
    for (const proto of [Source, win.AudioBufferSourceNode.prototype]) {
      const realStart = proto.start as (this: AudioScheduledSourceNode, ...args: number[]) => void;
      define(proto, 'start', function (this: AudioScheduledSourceNode, ...args: number[]) {
        const context = this.context;
        if (!observer.contexts.has(context)) return realStart.apply(this, args);
        const [when = 0, offset, duration] = args;
        if (observer.started.has(this)) throw new DOMException('cannot call start more than once', 'InvalidStateError');
        for (const [name, value] of [['when', when], ['offset', offset ?? 0], ['duration', duration ?? 0]] as const) {
          if (!Number.isFinite(value)) throw new TypeError(`start: ${name} is not a finite number`);
          if (value < 0) throw new RangeError(`start: ${name} must not be negative`);
        }
        const source: SourceState = { node: this, context, startAt: Math.max(when, observer.contextTime(context)), stopAt: Infinity, offset: offset ?? 0, duration, ended: false };
        observer.started.set(this, source);
        observer.sources.push(source);
      });
    }
    define(Source, 'stop', function (this: AudioScheduledSourceNode, ...args: number[]) {
      const source = observer.started.get(this);
      if (!source) {
        if (observer.contexts.has(this.context)) throw new DOMException('cannot call stop without calling start first', 'InvalidStateError');
        return realStop.apply(this, args as []);
      }
      const [when = 0] = args;
      if (!Number.isFinite(when)) throw new TypeError('stop: when is not a finite number');
      if (when < 0) throw new RangeError('stop: when must not be negative');
      if (!source.ended) source.stopAt = Math.max(when, observer.contextTime(source.context));
    });
  }

  private patchParams(win: Win): void {
    const observer = this;
    const Param = win.AudioParam.prototype;
    const value = Object.getOwnPropertyDescriptor(Param, 'value')!;
    this.realValue = (param) => value.get!.call(param) as number;
    const keep = (param: AudioParam, v: number) => observer.values.set(param, Math.fround(v));
    Object.defineProperty(Param, 'value', {
      configurable: true,
      enumerable: true,
      get(this: AudioParam) {
        return observer.paramValue(this);
      },
      set(this: AudioParam, v: number) {
        value.set!.call(this, v);
        keep(this, v);
      },
    });
    // Each schedules its first argument as where the param goes (a curve: its last value).
    for (const name of ['setValueAtTime', 'linearRampToValueAtTime', 'exponentialRampToValueAtTime', 'setTargetAtTime', 'setValueCurveAtTime'] as const) {
      const real = Param[name] as (this: AudioParam, ...args: unknown[]) => AudioParam;
      define(Param, name, function (this: AudioParam, ...args: unknown[]) {
        const result = real.apply(this, args);
        const target = name === 'setValueCurveAtTime' ? (args[0] as ArrayLike<number>)[(args[0] as ArrayLike<number>).length - 1] : (args[0] as number);
        keep(this, target);
        return result;
      });
    }
    // The legacy setters move the params they stand for.
    const setters: [object, string, string[]][] = [
      [win.PannerNode.prototype, 'setPosition', ['positionX', 'positionY', 'positionZ']],
      [win.PannerNode.prototype, 'setOrientation', ['orientationX', 'orientationY', 'orientationZ']],
      [win.AudioListener.prototype, 'setPosition', ['positionX', 'positionY', 'positionZ']],
      [win.AudioListener.prototype, 'setOrientation', ['forwardX', 'forwardY', 'forwardZ', 'upX', 'upY', 'upZ']],
    ];
    for (const [proto, name, params] of setters) {
      const real = (proto as Record<string, (...args: number[]) => void>)[name];
      if (typeof real !== 'function') continue;
      define(proto, name, function (this: Record<string, AudioParam>, ...args: number[]) {
        real.apply(this, args);
        params.forEach((param, i) => this[param] && keep(this[param], args[i]));
      });
    }
  }

  private patchGraph(win: Win): void {
    const observer = this;
    const Node = win.AudioNode.prototype;
    const connect = Node.connect as (this: AudioNode, ...args: unknown[]) => unknown;
    const disconnect = Node.disconnect as (this: AudioNode, ...args: unknown[]) => void;
    define(Node, 'connect', function (this: AudioNode, ...args: unknown[]) {
      const result = connect.apply(this, args);
      const target = args[0];
      if (target instanceof win.AudioNode) {
        const list = observer.edges.get(this) ?? [];
        if (!list.includes(target)) list.push(target);
        observer.edges.set(this, list);
      }
      return result;
    });
    define(Node, 'disconnect', function (this: AudioNode, ...args: unknown[]) {
      disconnect.apply(this, args);
      const target = args[0];
      const list = observer.edges.get(this);
      if (!list) return;
      // disconnect() and disconnect(output) drop every connection; disconnect(node, ...) those to that node.
      if (target instanceof win.AudioNode) list.splice(list.indexOf(target), list.includes(target) ? 1 : 0);
      else if (!(target instanceof win.AudioParam)) list.length = 0;
    });
  }
}

/** Page listeners of `type` on `proto`'s objects hear only events the shim dispatches, never the real engine's. */
function filterTrustedEvents(proto: object, type: string): void {
  const wrappers = new WeakMap<object, EventListener>();
  const wrap = (listener: EventListenerOrEventListenerObject): EventListener => {
    let wrapper = wrappers.get(listener);
    if (!wrapper) {
      wrapper = function (this: unknown, event: Event) {
        if (event.isTrusted) return;
        return typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event);
      };
      wrappers.set(listener, wrapper);
    }
    return wrapper;
  };
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  define(proto, 'addEventListener', function (this: EventTarget, t: string, listener: EventListenerOrEventListenerObject | null, options?: unknown) {
    return add.call(this, t, t === type && listener ? wrap(listener) : listener, options as AddEventListenerOptions);
  });
  define(proto, 'removeEventListener', function (this: EventTarget, t: string, listener: EventListenerOrEventListenerObject | null, options?: unknown) {
    return remove.call(this, t, t === type && listener ? (wrappers.get(listener) ?? listener) : listener, options as EventListenerOptions);
  });
  const attribute = Object.getOwnPropertyDescriptor(proto, `on${type}`);
  if (!attribute?.set) return;
  const handlers = new WeakMap<object, unknown>();
  Object.defineProperty(proto, `on${type}`, {
    configurable: true,
    enumerable: true,
    get(this: object) {
      return handlers.get(this) ?? null;
    },
    set(this: object, handler: unknown) {
      handlers.set(this, typeof handler === 'function' ? handler : null);
      attribute.set!.call(this, typeof handler === 'function' ? wrap(handler as EventListener) : null);
    },
  });
}

function define(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}

function getter(proto: object, name: string): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(proto, name)!.get!;
}

function accessor(proto: object, name: string, get: (this: never) => unknown): void {
  Object.defineProperty(proto, name, { get, configurable: true, enumerable: true });
}
