/**
 * Inputs and what answered them. An input (a select or squeeze starting, a fingertip touching content)
 * waits for the first change the user can perceive (content appearing, vanishing, resized, or starting to
 * move by itself; a sound starting). Answered within {@link RESPONSE_WINDOW} it counts as feedback, with its
 * delay; not answered by then, it counts as unanswered. Bounded memory: delays go into a histogram of ticks.
 */

/** Seconds within which a perceivable change answers an input (Nielsen's 1 s limit for the flow of thought). */
export const RESPONSE_WINDOW = 1;
/** Inputs waiting at once beyond this are counted but not timed (a burst within one window). */
const MAX_PENDING = 64;

export class ResponseLog {
  inputs = 0;
  answered = 0;
  unanswered = 0;
  /** The first unanswered input's tick, and the slowest answered input's tick and delay (seconds). */
  firstUnansweredTick = -1;
  slowestTick = -1;
  slowest = -1;
  private readonly pendingTimes = new Float64Array(MAX_PENDING);
  private readonly pendingTicks = new Int32Array(MAX_PENDING);
  private pending = 0;
  /** Answered inputs by their delay in ticks. */
  private readonly delays: Int32Array;

  constructor(private readonly dt: number) {
    this.delays = new Int32Array(Math.ceil(RESPONSE_WINDOW / dt) + 2);
  }

  /** An input at this tick. */
  input(tick: number, time: number): void {
    this.inputs++;
    if (this.pending === MAX_PENDING) return;
    this.pendingTimes[this.pending] = time;
    this.pendingTicks[this.pending++] = tick;
  }

  /** Inputs waiting longer than the window are unanswered. Call each frame before {@link respond}. */
  expire(time: number): void {
    let kept = 0;
    for (let i = 0; i < this.pending; i++) {
      if (time - this.pendingTimes[i] > RESPONSE_WINDOW + 1e-9) this.miss(this.pendingTicks[i]);
      else {
        this.pendingTimes[kept] = this.pendingTimes[i];
        this.pendingTicks[kept++] = this.pendingTicks[i];
      }
    }
    this.pending = kept;
  }

  /** A perceivable change now answers every waiting input. */
  respond(time: number): void {
    for (let i = 0; i < this.pending; i++) {
      const delay = time - this.pendingTimes[i];
      this.answered++;
      this.delays[Math.min(this.delays.length - 1, Math.round(delay / this.dt))]++;
      if (delay > this.slowest) [this.slowest, this.slowestTick] = [delay, this.pendingTicks[i]];
    }
    this.pending = 0;
  }

  /** Inputs beyond the pending limit were never timed: they count as neither answered nor unanswered. */
  get judged(): number {
    return this.answered + this.unanswered;
  }

  /** The median delay of the answered inputs, seconds (NaN when none was answered). */
  medianDelay(): number {
    if (this.answered === 0) return NaN;
    let seen = 0;
    for (let k = 0; k < this.delays.length; k++) {
      seen += this.delays[k];
      if (2 * seen >= this.answered) return k * this.dt;
    }
    return NaN;
  }

  private miss(tick: number): void {
    this.unanswered++;
    if (this.firstUnansweredTick < 0) this.firstUnansweredTick = tick;
  }
}
