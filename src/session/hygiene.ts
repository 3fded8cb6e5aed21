/**
 * Process hygiene for session workers: whatever one session's app or actors do to the process (globals,
 * built-in prototypes, timers, listeners, the working directory, the environment), the next session on the
 * same worker must start as if on a fresh one. Module state is handled by fresh module instances
 * (`app/fresh-modules.ts`); this file handles the rest:
 * - timers an app starts are tracked and cleared when its session ends (they would fire during a later one);
 * - a snapshot of the realm's intrinsics (every global, and the properties, prototypes and extensibility of
 *   the objects they reach) is compared after each session that ran program code. Anything changed, or a
 *   resource that could not be cleared, is reported, and the worker retires: the pool replaces it.
 */

// Captured before any session runs: the check must work whatever a session did to the built-ins.
const { ownKeys, getOwnPropertyDescriptor, getPrototypeOf, isExtensible } = Reflect;
const same = Object.is;

/** What the snapshot remembers of one object. */
interface ObjectRecord {
  object: object;
  name: string;
  prototype: object | null;
  extensible: boolean;
  keys: (string | symbol)[];
  /** Per key: value, getter, setter, flags (writable 1, enumerable 2, configurable 4). */
  slots: unknown[];
}

/** Globals owned by the host process (their state legitimately changes) are checked separately or not at all. */
const SKIPPED_GLOBALS = new Set<string | symbol>(['process', 'global', 'globalThis']);
/** Depth of the walk from `globalThis`: globals (1) and their properties (2); a `prototype` edge is free. */
const DEPTH = 2;
const TIMER_FUNCTIONS = ['setTimeout', 'setInterval', 'setImmediate'] as const;
/** Requests still in flight when a session ends (a file being closed) get this long to finish: 20 × 5 ms. */
const SETTLE_WAITS = 20;
const SETTLE_WAIT_MS = 5;
/** The hygiene's own waits must not be tracked (or cleared) as a session's timers. */
const untrackedSetTimeout = setTimeout;

/** Watches one worker process between sessions. */
export class ProcessHygiene {
  private records: ObjectRecord[];
  private cwd = process.cwd();
  private env = JSON.stringify(process.env);
  private listeners = listenerCounts();
  /** Timers started since {@link beginSession}, and their clear functions (plain arrays: no methods called). */
  private readonly timers: { handles: unknown[]; clears: ((handle: unknown) => void)[] } = { handles: [], clears: [] };
  private resourcesAtStart: Map<string, number> = new Map();

  private constructor() {
    this.installTimerTracking();
    touchLazyGlobals();
    this.records = snapshotRealm();
  }

  /** Captures the process as it is now (call once, before the first session). */
  static capture(): ProcessHygiene {
    return new ProcessHygiene();
  }

  /**
   * Takes the process as it is now as the clean state. Only the worker itself calls this, between sessions
   * and after the last session's check passed: when it starts its warm Chromium for a browser app, which
   * loads playwright-core (globals of its dependencies, process listeners) and keeps the browser's pipes
   * and child process open. Those belong to the worker, not to a session; anything a session adds on top
   * is still caught.
   */
  rebase(): void {
    touchLazyGlobals();
    this.records = snapshotRealm();
    this.cwd = process.cwd();
    this.env = JSON.stringify(process.env);
    this.listeners = listenerCounts();
  }

  /** Call before each session. */
  beginSession(): void {
    this.timers.handles.length = 0;
    this.timers.clears.length = 0;
    this.resourcesAtStart = resourceCounts();
  }

  /**
   * Call after each session: clears the timers it started, lets requests in flight (a file being closed)
   * finish, then checks the process. `ranPrograms` says whether app or actor code ran: only then can the
   * realm, the working directory, the environment or the process's listeners have changed, unless the
   * session drove the worker's browser (`usedBrowser`: playwright-core runs in the worker), when all but the
   * realm are checked too. Skipping what cannot have changed spares a tiny session about 20 µs.
   * Returns why the worker must retire, or null when the process is as it was captured.
   */
  async endSession(ranPrograms: boolean, usedBrowser = false): Promise<string | null> {
    // The realm first, with captured functions only: everything after this relies on intact built-ins.
    if (ranPrograms) {
      const changed = findRealmChange(this.records);
      if (changed) return changed;
    }
    const { handles, clears } = this.timers;
    for (let i = 0; i < handles.length; i++) clears[i](handles[i]);
    handles.length = 0;
    clears.length = 0;
    let extra = this.extraResources();
    for (let wait = 0; extra && wait < SETTLE_WAITS; wait++) {
      await new Promise((resolve) => untrackedSetTimeout(resolve, SETTLE_WAIT_MS));
      extra = this.extraResources();
    }
    if (extra) return `the session left ${extra} active`;
    if (!ranPrograms && !usedBrowser) return null;
    if (process.cwd() !== this.cwd) return `the session changed the working directory to ${process.cwd()}`;
    if (JSON.stringify(process.env) !== this.env) return 'the session changed process.env';
    const listeners = listenerCounts();
    if (listeners.size !== this.listeners.size) return `the session changed the process's listeners (events: ${[...listeners.keys()].map(String).join(', ')})`;
    for (const [event, count] of listeners) {
      if (count !== this.listeners.get(event)) return `the session changed the process's "${String(event)}" listeners`;
    }
    return null;
  }

  /** Resources active now beyond those at the session's start, described, or null. */
  private extraResources(): string | null {
    for (const [kind, count] of resourceCounts()) {
      const before = this.resourcesAtStart.get(kind) ?? 0;
      if (count > before) return `${count - before} ${kind} resource(s)`;
    }
    return null;
  }

  /** Wraps the global timer functions so that timers started during a session can be cleared after it. */
  private installTimerTracking(): void {
    const clears = { setTimeout: clearTimeout, setInterval: clearInterval, setImmediate: clearImmediate } as Record<string, (handle: unknown) => void>;
    const timers = this.timers;
    const g = globalThis as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of TIMER_FUNCTIONS) {
      const original = g[name];
      const clear = clears[name];
      const apply = Reflect.apply;
      const tracked = function (this: unknown, ...args: unknown[]) {
        const handle = apply(original, this, args);
        // Index writes, not push(): the session may have replaced Array.prototype.push.
        timers.handles[timers.handles.length] = handle;
        timers.clears[timers.clears.length] = clear;
        return handle;
      };
      // Keep the original's own properties (util.promisify.custom, name, length).
      Object.defineProperties(tracked, Object.getOwnPropertyDescriptors(original));
      g[name] = tracked;
    }
  }
}

/** Node defines some globals as getters that replace themselves on first use: settle them before the snapshot. */
function touchLazyGlobals(): void {
  for (const key of Reflect.ownKeys(globalThis)) {
    try {
      void (globalThis as Record<string | symbol, unknown>)[key];
    } catch {
      // A getter that throws stays a getter; the snapshot compares the getter itself.
    }
  }
}

function snapshotRealm(): ObjectRecord[] {
  const records: ObjectRecord[] = [];
  const seen = new Set<object>();
  const visit = (object: object, name: string, depth: number) => {
    if (seen.has(object)) return;
    // At the last level, plain functions (methods) are compared by identity where they are found; only
    // classes (functions with a prototype) and objects are described in turn.
    if (depth === 0 && typeof object === 'function' && !isClass(object)) return;
    seen.add(object);
    const record = describe(object, name);
    records.push(record);
    for (let i = 0; i < record.keys.length; i++) {
      const key = record.keys[i];
      if (object === globalThis && SKIPPED_GLOBALS.has(key)) continue;
      const nextDepth = key === 'prototype' ? depth : depth - 1;
      if (nextDepth < 0) continue;
      for (let j = 0; j < 3; j++) {
        const v = record.slots[i * 4 + j];
        if ((typeof v === 'object' && v !== null) || typeof v === 'function') visit(v as object, `${name}.${String(key)}`, nextDepth);
      }
    }
  };
  visit(globalThis, 'globalThis', DEPTH);
  return records;
}

function isClass(fn: object): boolean {
  const prototype = Reflect.getOwnPropertyDescriptor(fn, 'prototype')?.value as unknown;
  return typeof prototype === 'object' && prototype !== null;
}

function describe(object: object, name: string): ObjectRecord {
  const keys = ownKeys(object);
  const slots: unknown[] = [];
  for (const key of keys) {
    const d = getOwnPropertyDescriptor(object, key)!;
    slots.push(d.value, d.get, d.set, (d.writable ? 1 : 0) | (d.enumerable ? 2 : 0) | (d.configurable ? 4 : 0));
  }
  return { object, name, prototype: getPrototypeOf(object), extensible: isExtensible(object), keys, slots };
}

/** Property flags as {@link describe} packs them. */
const WRITABLE = 1;
const CONFIGURABLE = 4;

/** The first difference from the snapshot, named, or null. Uses captured functions and plain loops only. */
function findRealmChange(records: readonly ObjectRecord[]): string | null {
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    const { object, name } = record;
    if (getPrototypeOf(object) !== record.prototype) return `the session changed the prototype of ${name}`;
    if (isExtensible(object) !== record.extensible) return `the session made ${name} non-extensible`;
    const keys = ownKeys(object);
    if (keys.length !== record.keys.length) {
      const before = new Set(record.keys);
      const added = keys.filter((k) => !before.has(k)).map(String);
      const deleted = record.keys.filter((k) => !keys.includes(k)).map(String);
      return `the session ${added.length ? `added ${added.join(', ')} to` : `deleted ${deleted.join(', ')} from`} ${name}`;
    }
    for (let i = 0; i < record.keys.length; i++) {
      const at = i * 4;
      // A property that is not configurable, and not writable if it holds data, can never change or go (the
      // language's invariants), and reading some is costly: a sloppy function's `arguments` walks the stack.
      if (((record.slots[at + 3] as number) & (WRITABLE | CONFIGURABLE)) === 0) continue;
      const key = record.keys[i];
      const d = getOwnPropertyDescriptor(object, key);
      if (!d) return `the session deleted ${name}.${String(key)}`;
      const flags = (d.writable ? 1 : 0) | (d.enumerable ? 2 : 0) | (d.configurable ? 4 : 0);
      if (!same(d.value, record.slots[at]) || d.get !== record.slots[at + 1] || d.set !== record.slots[at + 2] || flags !== record.slots[at + 3]) {
        return `the session changed ${name}.${String(key)}`;
      }
    }
  }
  return null;
}

/** Active libuv resources by kind (timers, immediates, sockets, file requests …). */
function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

function listenerCounts(): Map<string | symbol, number> {
  return new Map(process.eventNames().map((event) => [event, process.listenerCount(event)]));
}
