/**
 * Motion comfort: content that moves the view. Two ways, both against guidance that content stay put in
 * the world unless the user moves it: content dragged along by the head (head-locked, so the view never
 * settles: Microsoft comfort, Daydream UX-D2), and large content that moves by itself while the head is
 * still (the view moving under a still user). Counted as shares of the frames in which each can happen.
 */
import type { ContentRecord } from './content.js';
import type { UserView } from './user-view.js';

/** The head turns (degrees per second) faster than this in a turn, slower than `STILL_TURN` when still. */
const TURNING = 30;
const STILL_TURN = 10;
/** Content turning with the head at more than 3/4 of its speed (relative speed under 1/4) is dragged along. */
const DRAGGED_SHARE = 0.25;
/** Content wider than this (degrees) is large; moving faster than `VIEW_MOVING` (degrees per second) it moves the view. */
const LARGE = 40;
const VIEW_MOVING = 10;
/** Frames below which a share is not judged (0.1 s at 90 Hz). */
const MIN_FRAMES = 9;

export class MotionComfort {
  turningFrames = 0;
  draggedFrames = 0;
  stillFrames = 0;
  movingFrames = 0;
  /** The first frame that dragged content or moved the view, and what. */
  firstTick = -1;
  of = '';
  private judged = false;
  private dragged = false;
  private moving = false;
  private readonly u = new Float64Array(6);

  beginFrame(): void {
    this.judged = this.dragged = this.moving = false;
  }

  /** One piece of content that is not at a hand, present in this frame and the one before. */
  observe(view: UserView, record: ContentRecord): void {
    if (!record.hadBefore) return;
    this.judged = true;
    const turning = view.turnSpeed > TURNING;
    const still = view.turnSpeed < STILL_TURN;
    if (!turning && !(still && record.tag.size)) return;
    const p = record.tag.position;
    const u = this.u;
    direction(p[0], p[1], p[2], view.eye, u, 0);
    direction(record.before[0], record.before[1], record.before[2], view.previousEye, u, 3);
    if (turning) {
      // The angle between the content's directions in the head's frame now and before.
      const a = view.axes;
      const b = view.previousAxes;
      let cos = 0;
      for (let axis = 0; axis < 3; axis++) {
        const now = a[3 * axis] * u[0] + a[3 * axis + 1] * u[1] + a[3 * axis + 2] * u[2];
        const then = b[3 * axis] * u[3] + b[3 * axis + 1] * u[4] + b[3 * axis + 2] * u[5];
        cos += now * then;
      }
      if (degrees(cos) / view.dt < DRAGGED_SHARE * view.turnSpeed && !this.dragged) this.mark(record, 'dragged');
    } else {
      const size = record.tag.size!;
      const d = Math.hypot(p[0] - view.eye[0], p[1] - view.eye[1], p[2] - view.eye[2]);
      const width = (2 * Math.atan(Math.max(size[0], size[1], size[2]) / 2 / Math.max(d, 1e-6)) * 180) / Math.PI;
      const speed = degrees(u[0] * u[3] + u[1] * u[4] + u[2] * u[5]) / view.dt;
      if (width >= LARGE && speed >= VIEW_MOVING && !this.moving) this.mark(record, 'moving');
    }
  }

  endFrame(view: UserView, tick: number): void {
    if (!this.judged) return;
    if (view.turnSpeed > TURNING) {
      this.turningFrames++;
      if (this.dragged) this.draggedFrames++;
    } else if (view.turnSpeed < STILL_TURN) {
      this.stillFrames++;
      if (this.moving) this.movingFrames++;
    }
    if ((this.dragged || this.moving) && this.firstTick < 0) this.firstTick = tick;
  }

  /** The larger share: of head turns that dragged content, of still frames in which large content moved the view. */
  share(): number {
    const dragged = this.turningFrames >= MIN_FRAMES ? this.draggedFrames / this.turningFrames : 0;
    const moving = this.stillFrames >= MIN_FRAMES ? this.movingFrames / this.stillFrames : 0;
    return Math.max(dragged, moving);
  }

  private mark(record: ContentRecord, how: 'dragged' | 'moving'): void {
    if (how === 'dragged') this.dragged = true;
    else this.moving = true;
    if (this.firstTick < 0) this.of = record.tag.role;
  }
}

/** The unit direction from `eye` to a point, into out[o..o+2]. */
function direction(x: number, y: number, z: number, eye: Float64Array, out: Float64Array, o: number): void {
  const dx = x - eye[0], dy = y - eye[1], dz = z - eye[2];
  const n = Math.hypot(dx, dy, dz) || 1;
  out[o] = dx / n;
  out[o + 1] = dy / n;
  out[o + 2] = dz / n;
}

function degrees(cos: number): number {
  return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
}
