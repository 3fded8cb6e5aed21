/**
 * Event records in the `events` channel.
 *
 * A frame's events are a run of 32-bit words. Each record starts with a header word
 * `(type << 16) | payloadWords`, followed by `payloadWords` words. Unknown types can be skipped by length,
 * so later kinds of event (tracking, gestures, app events) extend the channel without breaking readers.
 * Within a tick, physics records are sorted by (substep, a, b, type): the order is deterministic.
 */

/** Event types. Physics payloads are two collider indices `a < b` (see `SimModel.colliders`). */
export const EventType = {
  /** Two solid colliders started touching. */
  ContactStart: 1,
  /** Two solid colliders stopped touching. */
  ContactStop: 2,
  /** A collider entered a sensor. */
  SensorEnter: 3,
  /** A collider left a sensor. */
  SensorExit: 4,
  /** A hand left the headset's tracking volume (or tracking was switched off). Payload: hand (0 left, 1 right). */
  TrackingLost: 5,
  /** A hand is tracked again. Payload: hand (0 left, 1 right). */
  TrackingRegained: 6,
  /**
   * A hand or controller was sent beyond arm's reach; it stopped at the edge of reach. Payload: part
   * (0 left hand, 1 right hand, 2 left controller, 3 right controller), then the target's distance from the
   * shoulder and the reach, as float32 bits.
   */
  TargetUnreachable: 7,
  /**
   * A plane was detected. Payload: plane id, surface (static index), label (index in SEMANTIC_LABELS),
   * orientation (0 horizontal, 1 vertical, 2 none), tick of the last attribute change, flags (0), the
   * plane's pose (7 × f32: position, quaternion; its Y axis is the normal), the point count n, then n × 2
   * f32 `[x, z]` polygon points in plane space.
   */
  PlaneAdded: 8,
  /** A detected plane changed. Payload as PlaneAdded; flags: 1 = attributes changed, 2 = pose changed. */
  PlaneUpdated: 9,
  /** A detected plane is gone (its surface was removed). Payload: plane id. */
  PlaneRemoved: 10,
  /** A surface was added while the session ran. Payload: its static index, byte length, then UTF-8 JSON of its spec. */
  SurfaceAdded: 11,
  /** A surface moved. Payload: static index, pose (7 × f32). */
  SurfaceMoved: 12,
  /** A surface was removed. Payload: static index. */
  SurfaceRemoved: 13,
  /**
   * Results of a hit test. Payload: request id, result count n, then per result: plane id (0xffffffff for
   * a depth hit), distance (f32), pose (7 × f32, Y along the surface normal). Sorted by distance.
   */
  HitTestResults: 14,
  /** An anchor was created. Payload: anchor id, plane id (0xffffffff: fixed in the world), pose (7 × f32). */
  AnchorCreated: 15,
  /** An anchor moved with its surface. Payload: anchor id, pose (7 × f32). */
  AnchorMoved: 16,
  /** An anchor is no longer tracked (its surface was removed). Payload: anchor id. */
  AnchorLost: 17,
  /** App code threw. Payload: JSON `{ phase, message, stack }` (see `frame/json-record.ts`). */
  AppError: 18,
  /** The app emitted an event (`ctx.emit`). Payload: JSON `{ name, data }`. */
  AppEvent: 19,
  /** An actor step failed (a timed-out `until`, an unresolvable tag). Payload: JSON `{ step, reason }`. */
  ActorFailure: 20,
  /**
   * The app tagged an object. Payload: tag index, then JSON `{ role, id }`, with its extent when the app gave
   * one (`size` [x, y, z], `text`, `look`: `ctx.tag`'s fourth argument).
   */
  TagDeclared: 21,
  /**
   * Where the app's tagged objects are this tick. Payload: count n, then per tag: tag index, present
   * (1 or 0), pose (7 × f32, world).
   */
  TagPoses: 22,
  /** An input event the app received. Payload: kind (0 selectstart, 1 selectend, 2 squeezestart, 3 squeezeend), source (0 left, 1 right). */
  InputEvent: 23,
  /**
   * How a browser app's immersive session started, in frame 0: by the page itself or by the simulated
   * user's click on an element (`browser/enter-xr.ts`). Payload: JSON `{ by, element?, text?, mode, activation }`.
   */
  PageStart: 24,
  /**
   * An agent actor's answer at one decision step (`a.agent`), as the agent gave it: replaying the session
   * reads it back instead of asking again. Payload: JSON `{ decision, instruction, step, answer }`.
   */
  AgentDecision: 25,
  /**
   * The app started a sound (`ctx.audio.play`, or a page's WebAudio source). Payload: JSON `{ voice, sound,
   * position, gain, loop }`: the voice's number in the session, the sound's name, its world position
   * (`[x, y, z]`, or null when it is not spatialised: heard at the listener), its gain and whether it loops.
   */
  AudioStart: 26,
  /** A voice stopped (stopped by the app, its duration or its buffer ended). Payload: JSON `{ voice }`. */
  AudioStop: 27,
  /** A playing voice moved or changed its gain (at most one a voice a frame). Payload: JSON `{ voice, position?, gain? }`. */
  AudioUpdate: 28,
} as const;
/** One of {@link EventType}'s values. */
export type EventType = (typeof EventType)[keyof typeof EventType];

/** Names used in JSON output and by `xrsim inspect`. */
export const EVENT_NAMES: Record<number, string> = {
  [EventType.ContactStart]: 'contact-start',
  [EventType.ContactStop]: 'contact-stop',
  [EventType.SensorEnter]: 'sensor-enter',
  [EventType.SensorExit]: 'sensor-exit',
  [EventType.TrackingLost]: 'tracking-lost',
  [EventType.TrackingRegained]: 'tracking-regained',
  [EventType.TargetUnreachable]: 'target-unreachable',
  [EventType.PlaneAdded]: 'plane-added',
  [EventType.PlaneUpdated]: 'plane-updated',
  [EventType.PlaneRemoved]: 'plane-removed',
  [EventType.SurfaceAdded]: 'surface-added',
  [EventType.SurfaceMoved]: 'surface-moved',
  [EventType.SurfaceRemoved]: 'surface-removed',
  [EventType.HitTestResults]: 'hit-test-results',
  [EventType.AnchorCreated]: 'anchor-created',
  [EventType.AnchorMoved]: 'anchor-moved',
  [EventType.AnchorLost]: 'anchor-lost',
  [EventType.AppError]: 'app-error',
  [EventType.AppEvent]: 'app-event',
  [EventType.ActorFailure]: 'actor-failure',
  [EventType.TagDeclared]: 'tag-declared',
  [EventType.TagPoses]: 'tag-poses',
  [EventType.InputEvent]: 'input-event',
  [EventType.PageStart]: 'page-start',
  [EventType.AgentDecision]: 'agent-decision',
  [EventType.AudioStart]: 'audio-start',
  [EventType.AudioStop]: 'audio-stop',
  [EventType.AudioUpdate]: 'audio-update',
};

/**
 * Word offsets inside payloads that have more than one or two fields, so that writers and readers agree by
 * name (layouts as in {@link EventType}'s comments; poses are 7 float32 words: position, quaternion).
 */
export const POSE_WORDS = 7;
/** PlaneAdded / PlaneUpdated: the fixed fields, then `pointCount` × 2 float32 `[x, z]` from `points`. */
export const PLANE_PAYLOAD = { plane: 0, surface: 1, label: 2, orientation: 3, changedTick: 4, flags: 5, pose: 6, pointCount: 13, points: 14 } as const;
/** The orientation word of a plane payload: 0 horizontal, 1 vertical, 2 none. */
export const PLANE_ORIENTATIONS = ['horizontal', 'vertical', null] as const;
/** TagPoses: the tag count, then from `records` one {@link TAG_POSE_RECORD} per tag. */
export const TAG_POSES_PAYLOAD = { count: 0, records: 1 } as const;
/** One tag in a TagPoses payload: its index, present (1 or 0), its world pose; `words` long. */
export const TAG_POSE_RECORD = { tag: 0, present: 1, pose: 2, words: 2 + POSE_WORDS } as const;
/** HitTestResults: the request id, the result count, then from `results` one {@link HIT_RESULT_RECORD} per result. */
export const HIT_TEST_PAYLOAD = { request: 0, count: 1, results: 2 } as const;
/** One hit-test result: plane id ({@link NO_PLANE} for depth), distance (f32), pose; `words` long. */
export const HIT_RESULT_RECORD = { plane: 0, distance: 1, pose: 2, words: 2 + POSE_WORDS } as const;
/** AnchorCreated: anchor id, plane id ({@link NO_PLANE}: fixed in the world), pose. */
export const ANCHOR_CREATED_PAYLOAD = { anchor: 0, plane: 1, pose: 2 } as const;
/** AnchorMoved and SurfaceMoved: an id, then a pose. */
export const MOVED_PAYLOAD = { id: 0, pose: 1 } as const;
/** TargetUnreachable: the part (0/1 left/right hand, 2/3 left/right controller), distance and reach as f32. */
export const UNREACHABLE_PAYLOAD = { part: 0, distance: 1, reach: 2 } as const;
/** InputEvent: the kind (index in {@link INPUT_EVENT_KINDS}) and the source (0 left, 1 right). */
/** InputEvent kinds, by their code. */
export const INPUT_EVENT_KINDS = ['selectstart', 'selectend', 'squeezestart', 'squeezeend'] as const;
/** TargetUnreachable parts, by their code. */
export const UNREACHABLE_PARTS = ['left hand', 'right hand', 'left controller', 'right controller'] as const;
export const INPUT_EVENT_PAYLOAD = { kind: 0, source: 1 } as const;

/** "No plane": the plane id of a depth hit, or of an anchor fixed in the world. */
export const NO_PLANE = 0xffffffff;

/** A decoded event, for tools and tests (hot paths walk the words directly). */
export interface DecodedEvent {
  type: number;
  name: string;
  payload: number[];
}

/** Decodes `count` words of event records. Stops at a malformed record rather than reading past the end. */
export function decodeEvents(words: Uint32Array, count: number): DecodedEvent[] {
  const events: DecodedEvent[] = [];
  let i = 0;
  while (i < count) {
    const header = words[i];
    const type = header >>> 16;
    const length = header & 0xffff;
    if (i + 1 + length > count) break;
    events.push({ type, name: EVENT_NAMES[type] ?? `type-${type}`, payload: Array.from(words.subarray(i + 1, i + 1 + length)) });
    i += 1 + length;
  }
  return events;
}
