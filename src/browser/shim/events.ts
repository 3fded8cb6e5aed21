/** WebXR's event interfaces. */

export class XRSessionEvent extends Event {
  readonly session: unknown;
  constructor(type: string, init: EventInit & { session: unknown }) {
    super(type, init);
    this.session = init.session;
  }
}

export class XRInputSourceEvent extends Event {
  readonly frame: unknown;
  readonly inputSource: unknown;
  constructor(type: string, init: EventInit & { frame: unknown; inputSource: unknown }) {
    super(type, init);
    this.frame = init.frame;
    this.inputSource = init.inputSource;
  }
}

export class XRInputSourcesChangeEvent extends Event {
  readonly session: unknown;
  readonly added: readonly unknown[];
  readonly removed: readonly unknown[];
  constructor(type: string, init: EventInit & { session: unknown; added: unknown[]; removed: unknown[] }) {
    super(type, init);
    this.session = init.session;
    this.added = Object.freeze([...init.added]);
    this.removed = Object.freeze([...init.removed]);
  }
}

export class XRReferenceSpaceEvent extends Event {
  readonly referenceSpace: unknown;
  readonly transform: unknown;
  constructor(type: string, init: EventInit & { referenceSpace: unknown; transform?: unknown }) {
    super(type, init);
    this.referenceSpace = init.referenceSpace;
    this.transform = init.transform ?? null;
  }
}

/** Defines `on<type>` handler attributes on a prototype, registered as listeners the way the DOM does it. */
export function defineEventHandlers(proto: object, types: string[]): void {
  const handlers = new WeakMap<object, Map<string, { fn: unknown; listener: EventListener }>>();
  for (const type of types) {
    Object.defineProperty(proto, `on${type}`, {
      configurable: true,
      enumerable: true,
      get(this: EventTarget) {
        return handlers.get(this)?.get(type)?.fn ?? null;
      },
      set(this: EventTarget, fn: unknown) {
        let map = handlers.get(this);
        if (!map) handlers.set(this, (map = new Map()));
        const old = map.get(type);
        if (old) this.removeEventListener(type, old.listener);
        map.delete(type);
        if (typeof fn !== 'function') return;
        const listener: EventListener = (event) => (fn as (e: Event) => void).call(this, event);
        map.set(type, { fn, listener });
        this.addEventListener(type, listener);
      },
    });
  }
}
