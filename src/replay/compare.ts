/**
 * Compares a replayed frame with the recorded one: first what the app was given (head, hands,
 * controllers, depth image, plane events: the recording's inputs must reach the app unchanged), then what
 * the app published (its tags and its app events, app errors included).
 */
import { POSITION_QUANTUM, ROTATION_STEPS } from '../../kernels/quantise.js';
import { decodeEvents, EventType } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import { FrameState, type NamedEvent, type TagState } from '../validate/frame-state.js';

/** Where a replayed app first behaves differently from the recording (or is given something different). */
export interface ReplayDifference {
  tick: number;
  /** `tag`: a tag's presence or pose; `event`: an app event, app error or sound (`audio:start`, ...); `input`: what the app was given. */
  kind: 'tag' | 'event' | 'input';
  /** The tag's role, the event's name (`app:<name>`, `app-error`, `audio:start`, ...), or the input channel. */
  name: string;
  /** The recorded and the replayed value (null where one side has none). */
  recorded: unknown;
  replayed: unknown;
}

/** Fixed channels that carry what an app is given. */
const INPUT_CHANNELS = ['head', 'hand-left', 'hand-right', 'controller-left', 'controller-right'];
const PLANE_EVENTS = new Set<number>([EventType.PlaneAdded, EventType.PlaneUpdated, EventType.PlaneRemoved]);

/** Compares frames in tick order; keeps the tag declarations of both sides. */
export class AppStateComparer {
  private readonly recorded = new FrameState();
  private readonly replayed = new FrameState();
  /** Quantised streams store poses to 0.1 mm and 1/32767: inputs are compared within that. */
  private readonly tolerance: number;

  /**
   * @param appTolerance how far a number the app published (tag poses, app event data) may be from the
   *   recorded one (0: bit-identical). An open-loop replay gives the app the stream's float32 poses where
   *   the recorded app had float64 ones (the depth camera's, the planes'), so it compares within this.
   */
  constructor(
    quantised: boolean,
    private readonly appTolerance = 0,
  ) {
    this.tolerance = quantised ? 2 * Math.max(POSITION_QUANTUM, 1 / ROTATION_STEPS) : 0;
  }

  /** The first difference of this frame pair, or null. Call for every frame, in order. */
  compare(recorded: FrameView, replayed: FrameView): ReplayDifference | null {
    const tick = replayed.tick;
    const input = this.inputDifference(recorded, replayed);
    if (input) return { tick, kind: 'input', ...input };
    this.recorded.observe(recorded);
    this.replayed.observe(replayed);
    return tagDifference(tick, this.recorded.tags, this.replayed.tags, this.appTolerance) ?? eventDifference(tick, this.recorded.events, this.replayed.events, this.appTolerance);
  }

  private inputDifference(a: FrameView, b: FrameView): { name: string; recorded: unknown; replayed: unknown } | null {
    for (const name of INPUT_CHANNELS) {
      const x = a.channel(name);
      const y = b.channel(name);
      if (!x && !y) continue;
      if (!x || !y || x.length !== y.length) return { name, recorded: x ? 'present' : null, replayed: y ? 'present' : null };
      for (let i = 0; i < x.length; i++) {
        const same = Object.is(x[i], y[i]) || Math.abs(x[i] - y[i]) <= this.tolerance;
        if (!same) return { name: `${name}[${i}]`, recorded: x[i], replayed: y[i] };
      }
    }
    const da = a.depthImage;
    const db = b.depthImage;
    if ((da === null) !== (db === null)) return { name: 'depth', recorded: da ? 'a depth image' : null, replayed: db ? 'a depth image' : null };
    if (da && db) {
      const at = da.findIndex((v, i) => v !== db[i]);
      if (at >= 0 || da.length !== db.length) return { name: `depth[${at}]`, recorded: da[at] ?? null, replayed: db[at] ?? null };
    }
    const pa = planeEvents(a);
    const pb = planeEvents(b);
    if (pa !== pb) return { name: 'planes', recorded: pa, replayed: pb };
    return null;
  }
}

function planeEvents(frame: FrameView): string {
  return JSON.stringify(decodeEvents(frame.events, frame.eventWords).filter((e) => PLANE_EVENTS.has(e.type)).map((e) => [e.name, e.payload]));
}

function tagValue(tag: TagState | undefined): unknown {
  if (!tag || !tag.present) return null;
  return { position: [...tag.position], rotation: [...tag.rotation] };
}

/** Whether two JSON-like values are the same, numbers within `tolerance` (0: the same JSON). */
function same(a: unknown, b: unknown, tolerance: number): boolean {
  if (tolerance === 0) return JSON.stringify(a) === JSON.stringify(b);
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || Math.abs(a - b) <= tolerance;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i], tolerance));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], tolerance));
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

function tagDifference(tick: number, recorded: Map<string, TagState>, replayed: Map<string, TagState>, tolerance: number): ReplayDifference | null {
  const roles = [...new Set([...recorded.keys(), ...replayed.keys()])].sort();
  for (const role of roles) {
    const a = tagValue(recorded.get(role));
    const b = tagValue(replayed.get(role));
    if (!same(a, b, tolerance)) return { tick, kind: 'tag', name: role, recorded: a, replayed: b };
  }
  return null;
}

/** App events, app errors and sounds (input events are derived from the inputs, which are compared already). */
function appEvents(events: readonly NamedEvent[]): NamedEvent[] {
  return events.filter((e) => e.name.startsWith('app:') || e.name === 'app-error' || e.name.startsWith('audio:'));
}

function eventDifference(tick: number, recordedEvents: readonly NamedEvent[], replayedEvents: readonly NamedEvent[], tolerance: number): ReplayDifference | null {
  const a = appEvents(recordedEvents);
  const b = appEvents(replayedEvents);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (same(a[i] ?? null, b[i] ?? null, tolerance)) continue;
    return { tick, kind: 'event', name: (a[i] ?? b[i]).name, recorded: a[i] ?? null, replayed: b[i] ?? null };
  }
  return null;
}
