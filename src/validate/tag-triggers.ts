/**
 * Moments from state, not only from app events (issue 37): a candidate app names its events as it likes,
 * but any correct one shows its objects. Each frame, for every tag, `FrameState` adds these events when
 * the tag's state changes, so every check with a moment (`at`, `from`/`to`, `between`) can use them:
 * - `tag:<role>:appears`, `tag:<role>:disappears`: the app starts or stops publishing the tag's pose;
 * - `tag:<role>:starts-moving`, `tag:<role>:stops-moving`: its speed rises above
 *   {@link MOVING_SPEED} m/s, or falls below {@link STILL_SPEED} m/s (apart, so tracking jitter does not
 *   flicker between them). A tag that disappears stops moving without an event.
 * Names are made once per tag; a frame without changes adds nothing and allocates nothing.
 */

/** What the triggers read of a tag (a `TagState` of `frame-state.ts`). */
interface TagNow {
  readonly role: string;
  readonly present: boolean;
  readonly position: ArrayLike<number>;
}

/** An event as `FrameState` lists them. */
interface NamedEvent {
  readonly name: string;
}

/** Speed (m/s) above which a still tag starts moving. */
export const MOVING_SPEED = 0.1;
/** Speed (m/s) below which a moving tag stops. */
export const STILL_SPEED = 0.02;

/** What the triggers remember of one tag between frames. */
interface TagTrack {
  present: boolean;
  moving: boolean;
  /** Whether `last` holds the previous frame's position (the tag was present then). */
  placed: boolean;
  last: Float64Array;
  readonly appears: NamedEvent;
  readonly disappears: NamedEvent;
  readonly startsMoving: NamedEvent;
  readonly stopsMoving: NamedEvent;
}

/** Tag state changes as events, frame by frame. */
export class TagTriggers {
  private readonly tracks: TagTrack[] = [];
  private lastTime = Number.NaN;

  /** Adds to `events` the changes of `tags` (in a fixed order) since the previous frame, at `time` seconds. */
  update(tags: readonly TagNow[], time: number, events: NamedEvent[]): void {
    const dt = time - this.lastTime;
    this.lastTime = time;
    for (let k = 0; k < tags.length; k++) {
      const tag = tags[k];
      const track = (this.tracks[k] ??= newTrack(tag.role));
      if (tag.present !== track.present) {
        track.present = tag.present;
        events.push(tag.present ? track.appears : track.disappears);
        if (!tag.present) track.moving = false;
      }
      if (!tag.present) {
        track.placed = false;
        continue;
      }
      const p = tag.position;
      const last = track.last;
      if (track.placed && dt > 0) {
        const speed = Math.hypot(p[0] - last[0], p[1] - last[1], p[2] - last[2]) / dt;
        if (!track.moving && speed > MOVING_SPEED) {
          track.moving = true;
          events.push(track.startsMoving);
        } else if (track.moving && speed < STILL_SPEED) {
          track.moving = false;
          events.push(track.stopsMoving);
        }
      }
      last[0] = p[0];
      last[1] = p[1];
      last[2] = p[2];
      track.placed = true;
    }
  }
}

function newTrack(role: string): TagTrack {
  const event = (change: string): NamedEvent => Object.freeze({ name: `tag:${role}:${change}` });
  return { present: false, moving: false, placed: false, last: new Float64Array(3), appears: event('appears'), disappears: event('disappears'), startsMoving: event('starts-moving'), stopsMoving: event('stops-moving') };
}
