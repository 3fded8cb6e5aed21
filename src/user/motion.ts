/**
 * Timed motion on the simulation clock: easing curves, minimum-jerk moves of a pose, and eased blends of
 * joint angles. Every transition has a duration in seconds; nothing moves by a fixed fraction per frame.
 */

/** Easing curves from progress τ ∈ [0, 1] to fraction s ∈ [0, 1]. */
export type Easing = 'min-jerk' | 'smoothstep' | 'linear';

/** Eased fraction of a transition started at `start` lasting `duration`, at time `t`. */
export function ease(t: number, start: number, duration: number, easing: Easing = 'min-jerk'): number {
  if (duration <= 0 || t >= start + duration) return 1;
  if (t <= start) return 0;
  const u = (t - start) / duration;
  switch (easing) {
    case 'min-jerk':
      // Flash & Hogan's minimum-jerk profile: zero velocity and acceleration at both ends.
      return u * u * u * (10 + u * (-15 + 6 * u));
    case 'smoothstep':
      return u * u * (3 - 2 * u);
    case 'linear':
      return u;
  }
}

/**
 * A pose (position + unit quaternion, 7 numbers) moving from `from` to `to` between `start` and
 * `start + duration`: position along a straight line, orientation by slerp, both with one easing.
 */
export class PoseMotion {
  readonly from = new Float64Array(7);
  readonly to = new Float64Array(7);
  start = 0;
  duration = 0;
  easing: Easing = 'min-jerk';

  /** Holds still at `pose`. */
  hold(pose: ArrayLike<number>): void {
    this.from.set(pose);
    this.to.set(pose);
    this.duration = 0;
  }

  /** Starts a move from wherever it is at time `t` to `target`. */
  retarget(t: number, target: ArrayLike<number>, duration: number, easing: Easing = 'min-jerk'): void {
    this.evaluate(t, this.from);
    this.begin(t, this.from, target, duration, easing);
  }

  /** Starts a move from `from` (for instance the same pose expressed in another frame) to `target`. */
  begin(t: number, from: ArrayLike<number>, target: ArrayLike<number>, duration: number, easing: Easing = 'min-jerk'): void {
    this.from.set(from);
    this.to.set(target);
    this.start = t;
    this.duration = duration;
    this.easing = easing;
  }

  /** True once the move is over. */
  settled(t: number): boolean {
    return t >= this.start + this.duration;
  }

  /** Writes the pose at time `t` into `out` (7 numbers). */
  evaluate(t: number, out: Float64Array): void {
    const s = ease(t, this.start, this.duration, this.easing);
    const a = this.from;
    const b = this.to;
    for (let i = 0; i < 3; i++) out[i] = a[i] + s * (b[i] - a[i]);
    slerp(a, b, s, out, 3);
  }
}

/** Spherical interpolation of the quaternions at a[3..6] and b[3..6] into out[o..o+3]. */
export function slerp(a: ArrayLike<number>, b: ArrayLike<number>, s: number, out: Float64Array, o: number): void {
  let bx = b[3], by = b[4], bz = b[5], bw = b[6];
  let cos = a[3] * bx + a[4] * by + a[5] * bz + a[6] * bw;
  if (cos < 0) {
    // Take the short way round.
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
    cos = -cos;
  }
  let wa: number;
  let wb: number;
  if (cos > 0.9995) {
    wa = 1 - s;
    wb = s;
  } else {
    const angle = Math.acos(cos);
    const sin = Math.sin(angle);
    wa = Math.sin((1 - s) * angle) / sin;
    wb = Math.sin(s * angle) / sin;
  }
  const x = wa * a[3] + wb * bx, y = wa * a[4] + wb * by, z = wa * a[5] + wb * bz, w = wa * a[6] + wb * bw;
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  out[o] = x / n;
  out[o + 1] = y / n;
  out[o + 2] = z / n;
  out[o + 3] = w / n;
}

/** Joint angles easing from one set to another. */
export class AngleBlend {
  readonly from: Float64Array;
  readonly to: Float64Array;
  start = 0;
  duration = 0;
  easing: Easing = 'min-jerk';

  constructor(size: number) {
    this.from = new Float64Array(size);
    this.to = new Float64Array(size);
  }

  /** Jumps to `angles`. */
  hold(angles: ArrayLike<number>): void {
    this.from.set(angles);
    this.to.set(angles);
    this.duration = 0;
  }

  /** Starts a transition from the angles at time `t` to `target`. */
  retarget(t: number, target: ArrayLike<number>, duration: number, easing: Easing = 'min-jerk'): void {
    this.evaluate(t, this.from);
    this.to.set(target);
    this.start = t;
    this.duration = duration;
    this.easing = easing;
  }

  /** Writes the angles at time `t` into `out`. */
  evaluate(t: number, out: Float64Array): void {
    const s = ease(t, this.start, this.duration, this.easing);
    for (let i = 0; i < this.from.length; i++) out[i] = this.from[i] + s * (this.to[i] - this.from[i]);
  }

  /** True once the transition is over. */
  settled(t: number): boolean {
    return t >= this.start + this.duration;
  }
}

/** A scalar (a pinch amount, a button value) easing between values. */
export class ScalarBlend {
  from = 0;
  to = 0;
  start = 0;
  duration = 0;
  easing: Easing = 'min-jerk';

  /** Starts a transition from the value at time `t` to `target`. */
  retarget(t: number, target: number, duration: number, easing: Easing = 'min-jerk'): void {
    this.from = this.value(t);
    this.to = target;
    this.start = t;
    this.duration = duration;
    this.easing = easing;
  }

  /** The value at time `t`. */
  value(t: number): number {
    return this.from + ease(t, this.start, this.duration, this.easing) * (this.to - this.from);
  }

  /** True once the transition is over. */
  settled(t: number): boolean {
    return t >= this.start + this.duration;
  }
}
