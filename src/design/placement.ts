/**
 * Where the app put a piece of content, judged at each placement (when it appeared, jumped, or came to rest
 * after moving on its own): against where the user was looking then (neck rotation, behind or below), how
 * large it looked (angular size) and how far it was (viewing distance). The worst of each is kept, for the
 * content as touched and as not touched, since whether a finger touches it is known only later.
 */
import type { TagState } from '../validate/frame-state.js';
import type { UserView } from './user-view.js';

/** The comfortable zone: ±30° of yaw from the gaze, 10° above to 35° below the horizon. */
const COMFORT_YAW = 30;
const COMFORT_UP = 10;
const COMFORT_DOWN = -35;
/** The front zone: within 90° of the gaze, no lower than 60° below the horizon. */
const FRONT_YAW = 90;
const FRONT_DOWN = -60;
/** Smallest angular sizes (degrees): a touched target, other content, text; the widest comfortable content. */
const MIN_TOUCH_TARGET = 2;
const MIN_CONTENT = 1;
const MIN_TEXT = 0.65;
const MAX_WIDTH = 94;
/**
 * The comfortable distances (metres): from the near limit to the far one. Content within arm's reach is for
 * the hands (the near field), where only Microsoft's fade distance bounds it; other content is for viewing.
 */
const NEAR_VIEWING = 0.75;
const NEAR_FIELD = 0.4;
const FAR = 5;

/** A worst value, the tick it was seen at and what it was seen of (a tag's role). */
export class Worst {
  value: number;
  tick = -1;
  of = '';

  constructor(
    private readonly better: 'lower' | 'higher',
    initial: number,
  ) {
    this.value = initial;
  }

  offer(value: number, tick: number, of = ''): void {
    if (this.tick < 0 || (this.better === 'lower' ? value < this.value : value > this.value)) {
      this.value = value;
      this.tick = tick;
      this.of = of;
    }
  }

  /** Keeps the worse of this and another. */
  merge(other: Worst): void {
    if (other.tick >= 0) this.offer(other.value, other.tick, other.of);
  }
}

/** The worst of a content's placements. */
export class PlacementScore {
  placements = 0;
  /** Degrees past the comfortable zone, of placements inside the front zone. */
  readonly neck = new Worst('higher', 0);
  /** Degrees past the front zone. */
  readonly behind = new Worst('higher', 0);
  /** Angular size over its minimum (sized content only), as not touched and as touched. */
  readonly size = new Worst('lower', Infinity);
  readonly sizeTouched = new Worst('lower', Infinity);
  /** Distance over the comfortable range. */
  readonly distance = new Worst('lower', Infinity);
  private readonly angles = new Float64Array(2);

  /** Judges a placement of `tag` as the user sees it now. */
  place(view: UserView, tag: TagState, tick: number): void {
    const of = tag.role;
    this.placements++;
    const [x, y, z] = tag.position;
    view.anglesTo(x, y, z, this.angles);
    const yaw = this.angles[0];
    const elevation = this.angles[1];
    if (yaw <= FRONT_YAW && elevation >= FRONT_DOWN) {
      this.neck.offer(Math.max(0, yaw - COMFORT_YAW, elevation - COMFORT_UP, COMFORT_DOWN - elevation), tick, of);
      this.behind.offer(0, tick, of);
    } else {
      this.behind.offer(Math.max(0, yaw - FRONT_YAW, FRONT_DOWN - elevation), tick, of);
    }
    const d = Math.hypot(x - view.eye[0], y - view.eye[1], z - view.eye[2]);
    this.distance.offer(rangeRatio(d, view.withinReach(x, y, z) ? NEAR_FIELD : NEAR_VIEWING), tick, of);
    if (!tag.size && tag.text === null) return;
    let sized = Infinity;
    let sizedTouched = Infinity;
    if (tag.size) {
      const [a, b] = largestTwo(tag.size);
      const fits = MAX_WIDTH / angleOf(a, d);
      sized = Math.min(angleOf(b, d) / MIN_CONTENT, fits);
      sizedTouched = Math.min(angleOf(b, d) / MIN_TOUCH_TARGET, fits);
    }
    if (tag.text !== null) {
      const text = angleOf(tag.text, d) / MIN_TEXT;
      sized = Math.min(sized, text);
      sizedTouched = Math.min(sizedTouched, text);
    }
    this.size.offer(sized, tick, of);
    this.sizeTouched.offer(sizedTouched, tick, of);
  }
}

/** The angle (degrees) an extent subtends at a distance. */
function angleOf(extent: number, distance: number): number {
  return (2 * Math.atan(extent / 2 / Math.max(distance, 1e-6)) * 180) / Math.PI;
}

/** A distance over the comfortable range: 1 inside it, less the farther outside. */
function rangeRatio(d: number, near: number): number {
  return d < near ? d / near : d > FAR ? FAR / d : 1;
}

/** The two largest of three extents, largest first. */
function largestTwo(size: readonly number[]): [number, number] {
  const [p, q, r] = size;
  const a = Math.max(p, q, r);
  const c = Math.min(p, q, r);
  return [a, p + q + r - a - c];
}
