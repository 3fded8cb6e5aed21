/**
 * One tagged object as the design heuristics follow it through a session: whether it lives at a hand (and
 * how steadily it stays there), when the app placed it (it appeared, jumped, or came to rest after moving on
 * its own), when it started to move from rest (a change the user sees), and whether a fingertip touched it.
 */
import type { TagState } from '../validate/frame-state.js';
import type { HandView, UserView } from './user-view.js';

/** Content within this distance of a palm counts as at that hand (hand menus float about 13 cm above the palm: Microsoft). */
export const AT_HAND = 0.2;
/**
 * Content that spends this share of its frames at one hand, and moves at least `CO_MOTION` as far as the hand
 * meanwhile, is hand-locked; the hand must travel `HAND_LOCKED_TRAVEL` (metres), or nothing shows it.
 */
const HAND_LOCKED_SHARE = 0.9;
const CO_MOTION = 0.5;
const HAND_LOCKED_TRAVEL = 0.1;
/** Frames (0.2 s at 90 Hz) content must stay at a hand before its offset there counts as wobble. */
const SETTLED_FRAMES = 18;
/** A frame in which content moves less than this (metres) is still; 0.1 s of still frames is at rest. */
const STILL_STEP = 0.0005;
const REST_FRAMES = 9;
/** Moving this far from rest (metres) is a change the user sees; a jump this far in one frame is a placement. */
export const VISIBLE_MOVE = 0.003;
const JUMP = 0.1;
/** Moving this far on its own, then resting, is a placement (the app put it somewhere). */
const SETTLE_TRAVEL = 0.1;

/** Running mean and spread of 3D samples (Welford), allocation-free. */
class Spread3 {
  n = 0;
  private readonly mean = new Float64Array(3);
  private m2 = 0;

  add(x: number, y: number, z: number): void {
    this.n++;
    const m = this.mean;
    const dx = x - m[0], dy = y - m[1], dz = z - m[2];
    m[0] += dx / this.n;
    m[1] += dy / this.n;
    m[2] += dz / this.n;
    this.m2 += dx * (x - m[0]) + dy * (y - m[1]) + dz * (z - m[2]);
  }

  /** Root-mean-square distance of the samples from their mean. */
  rms(): number {
    return this.n > 0 ? Math.sqrt(Math.max(0, this.m2) / this.n) : 0;
  }
}

/**
 * A {@link Spread3} whose samples count only once the content has stayed at the hand {@link SETTLED_FRAMES}
 * frames longer: the frames in which a thrown or dropped object leaves the hand are not wobble.
 */
class HeldSpread {
  readonly spread = new Spread3();
  private readonly ring = new Float64Array(3 * SETTLED_FRAMES);
  private count = 0;
  private head = 0;

  push(x: number, y: number, z: number): void {
    const r = this.ring;
    if (this.count === SETTLED_FRAMES) {
      const o = 3 * this.head;
      this.spread.add(r[o], r[o + 1], r[o + 2]);
    } else this.count++;
    const o = 3 * this.head;
    r[o] = x;
    r[o + 1] = y;
    r[o + 2] = z;
    this.head = (this.head + 1) % SETTLED_FRAMES;
  }

  /** The content left the hand: its last frames there do not count. */
  drop(): void {
    this.count = 0;
    this.head = 0;
  }
}

/** One tagged object followed through the session. */
export class ContentRecord {
  wasPresent = false;
  /** Set by {@link update}: the app placed it in this frame (it appeared, jumped, or came to rest after moving on its own). */
  placed = false;
  /** Set by {@link update}: it appeared, vanished, was resized, changed its look or started to move from rest: a change the user sees. */
  changed = false;
  readonly previous = new Float64Array(3);
  /** Where it was in the frame before this one, and whether it was present then (for its motion). */
  readonly before = new Float64Array(3);
  hadBefore = false;
  presentFrames = 0;
  /** Per hand (left, right): frames at that hand, and how far the palm and the content travelled in them. */
  readonly atHandFrames = [0, 0];
  readonly handTravel = [0, 0];
  readonly travelAtHand = [0, 0];
  /** Per hand, the spread of the content's offset in the palm's frame, and in the palm's position with world axes. */
  private readonly spreads = [new HeldSpread(), new HeldSpread(), new HeldSpread(), new HeldSpread()];
  /** Whether a fingertip of each hand touches it now, and whether one ever did. */
  readonly touching = [false, false];
  touched = false;
  private still = 0;
  private readonly rest = new Float64Array(3);
  private atRest = false;
  /** Since it last left rest: how far it went, and whether a hand was near when it set off. */
  private travel = 0;
  private handStarted = false;
  private lastSize: TagState['size'] = null;
  private lastLook: TagState['look'] = null;
  /** Where it is in the body's frame, and its step there this frame. */
  private readonly inBody = new Float64Array(3);
  private readonly step = new Float64Array(3);
  /** Where the palms were in the body's frame in the previous frame. */
  private readonly palmsBefore = new Float64Array(6);
  /** Scratch. */
  private readonly local = new Float64Array(3);

  constructor(readonly tag: TagState) {}

  /** Follows the content into this frame, setting {@link placed} and {@link changed}. Call every frame, present or not. */
  update(view: UserView): void {
    const tag = this.tag;
    this.placed = this.changed = false;
    this.before.set(this.previous);
    this.hadBefore = this.wasPresent;
    if (!tag.present) {
      if (this.wasPresent) this.changed = true;
      this.wasPresent = false;
      for (let k = 0; k < 4; k++) this.spreads[k].drop();
      this.atRest = false;
      this.still = 0;
      return;
    }
    const p = tag.position;
    const x = p[0], y = p[1], z = p[2];
    this.presentFrames++;
    if (!this.wasPresent) {
      this.placed = this.changed = true;
      this.travel = 0;
    } else {
      if (tag.size !== this.lastSize || tag.look !== this.lastLook) this.changed = true;
      const step = Math.hypot(x - this.previous[0], y - this.previous[1], z - this.previous[2]);
      if (step > JUMP) this.placed = true;
      this.followRest(x, y, z, step, view);
    }
    this.lastSize = tag.size;
    this.lastLook = tag.look;
    // Its motion in the body's frame, the frame the palm's motion is measured in.
    const b = this.inBody;
    const bx = b[0], by = b[1], bz = b[2];
    view.toBody(x, y, z, b);
    const moved = this.wasPresent ? Math.hypot(b[0] - bx, b[1] - by, b[2] - bz) : 0;
    this.step[0] = b[0] - bx;
    this.step[1] = b[1] - by;
    this.step[2] = b[2] - bz;
    for (let s = 0; s < 2; s++) this.followHand(view.hands[s], s, x, y, z, moved);
    this.previous[0] = x;
    this.previous[1] = y;
    this.previous[2] = z;
    this.palmsBefore.set(view.hands[0].palmInBody, 0);
    this.palmsBefore.set(view.hands[1].palmInBody, 3);
    this.wasPresent = true;
  }

  /**
   * Rest, leaving rest (a visible change: it moved, whoever moved it) and settling after travel that no hand
   * started (a placement: the app put it there; a thrown or carried object was put there by the user).
   */
  private followRest(x: number, y: number, z: number, step: number, view: UserView): void {
    if (step < STILL_STEP) {
      if (++this.still === REST_FRAMES && !this.atRest) {
        if (this.travel > SETTLE_TRAVEL && !this.handStarted) this.placed = true;
        this.atRest = true;
        this.rest[0] = x;
        this.rest[1] = y;
        this.rest[2] = z;
      }
      return;
    }
    this.still = 0;
    this.travel += step;
    if (this.atRest && Math.hypot(x - this.rest[0], y - this.rest[1], z - this.rest[2]) > VISIBLE_MOVE) {
      this.atRest = false;
      this.travel = Math.hypot(x - this.rest[0], y - this.rest[1], z - this.rest[2]);
      this.handStarted = this.nearMovingHand(view, x, y, z);
      this.changed = true;
    }
  }

  /** Whether a tracked hand that moved this frame is at the content (it may be carrying or pushing it). */
  private nearMovingHand(view: UserView, x: number, y: number, z: number): boolean {
    for (const hand of view.hands) {
      if (hand.tracked && hand.palmMoved > STILL_STEP && Math.hypot(x - hand.palm[0], y - hand.palm[1], z - hand.palm[2]) < AT_HAND) return true;
    }
    return false;
  }

  /**
   * Content at a hand: counts the frame, the palm's travel and how much of it the content followed (its step
   * along the palm's, jumps left out: a jump is a new placement), and its offset from the palm.
   */
  private followHand(hand: HandView, s: number, x: number, y: number, z: number, moved: number): void {
    const dx = x - hand.palm[0], dy = y - hand.palm[1], dz = z - hand.palm[2];
    if (!hand.tracked || Math.hypot(dx, dy, dz) >= AT_HAND) {
      this.spreads[2 * s].drop();
      this.spreads[2 * s + 1].drop();
      return;
    }
    this.atHandFrames[s]++;
    this.handTravel[s] += hand.palmMoved;
    if (hand.palmMoved > 0 && moved <= JUMP) {
      const pb = hand.palmInBody, before = this.palmsBefore;
      const px = pb[0] - before[3 * s], py = pb[1] - before[3 * s + 1], pz = pb[2] - before[3 * s + 2];
      this.travelAtHand[s] += Math.max(0, (this.step[0] * px + this.step[1] * py + this.step[2] * pz) / hand.palmMoved);
    }
    const a = hand.palmAxes;
    const l = this.local;
    l[0] = a[0] * dx + a[1] * dy + a[2] * dz;
    l[1] = a[3] * dx + a[4] * dy + a[5] * dz;
    l[2] = a[6] * dx + a[7] * dy + a[8] * dz;
    this.spreads[2 * s].push(l[0], l[1], l[2]);
    this.spreads[2 * s + 1].push(dx, dy, dz);
  }

  /** The hand it is locked to (0 left, 1 right), or −1: content that lives at one moving hand. */
  lockedHand(): number {
    for (let s = 0; s < 2; s++) {
      const atHand = this.presentFrames > 0 && this.atHandFrames[s] >= HAND_LOCKED_SHARE * this.presentFrames;
      if (atHand && this.handTravel[s] >= HAND_LOCKED_TRAVEL && this.travelAtHand[s] >= CO_MOTION * this.handTravel[s]) return s;
    }
    return -1;
  }

  /**
   * How much it wobbles at its hand, metres RMS: the smaller of its spread in the palm's frame (content
   * fixed to the palm) and in the palm's position with world axes (content that keeps upright at the palm).
   */
  wobble(s: number): number {
    return Math.min(this.spreads[2 * s].spread.rms(), this.spreads[2 * s + 1].spread.rms());
  }
}
