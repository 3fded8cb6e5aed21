/**
 * Stepping a session whose app is a browser page (docs/BROWSER.md, "Batched and pipelined sessions").
 *
 * A tick's frame commits only with the page's output for that tick. Where the next ticks cannot depend on
 * the page's answers (the page asks the host for nothing, and the actor script's next step reads no app
 * state), the session does not wait for them:
 * - **batching**: up to `batch` ticks are stepped and sent to the page in one round trip;
 * - **pipelining**: up to `inFlight` round trips are outstanding at once, so the kernel steps the next
 *   ticks on one core while the page runs the earlier ones on the other, instead of each waiting for the
 *   other in turn.
 * The page still runs every tick in order, and every frame commits in order with its own output, so the
 * frames and the hash are those of a lockstep run (`batch: 1, inFlight: 1`) whatever the two values.
 *
 * The frames stepped ahead and not yet committed are copied into a {@link FrameStash}, oldest first; the
 * newest lives in the session's frame, where the kernel steps on from it.
 */
import type { Frame } from '../frame/frame.js';
import type { TickOutput } from '../browser/protocol.js';
import type { BrowserHostApp } from '../browser/host-app.js';
import { FrameStash } from './frame-stash.js';

/** What the stepper needs of its session. */
export interface SteppedSession {
  /** The session's frame (reused every tick). */
  readonly frame: Frame;
  /** The last tick stepped. */
  tick(): number;
  /** Runs one tick's pipeline up to the commit; `ahead` when earlier ticks still wait for the page. */
  advance(ahead: boolean): void;
  /** Whether the actor script's next tick reads no app state (`ActorRunner.quietNextTick`). */
  quietNextTick(): boolean;
  /** Lets the app's work of the tick settle before its input is sent (the page's start, at tick 0). */
  settle(): Promise<void> | void;
  /** Applies the page's output to the frame (which holds that output's tick) and commits it. */
  commit(output: TickOutput): void;
}

/** A round trip sent and not yet answered. */
interface InFlight {
  ticks: number;
  outputs: Promise<TickOutput[]>;
}

export class BrowserStepper {
  private readonly stash = new FrameStash();
  /** Round trips sent, oldest first. */
  private readonly inFlight: InFlight[] = [];
  /** Round trips outstanding at most. */
  private readonly maxInFlight: number;

  constructor(
    private readonly session: SteppedSession,
    private readonly browser: BrowserHostApp,
    /** Ticks per round trip at most. */
    private readonly batch: number,
    /** Round trips outstanding at most. */
    maxInFlight: number,
  ) {
    // A capture's images are taken in tick order as each round trip is answered: one at a time.
    this.maxInFlight = browser.capturing ? 1 : maxInFlight;
  }

  /** Sends the tick the session already stepped (frame 0) and commits it with the page's output. */
  async answerCurrent(): Promise<void> {
    await this.session.settle();
    this.send(1);
    await this.commitOldest();
  }

  /**
   * Steps and commits every tick up to `last`. With `lockstep` (a hook looks at the session between ticks:
   * it must find it where the frames are) every tick is sent alone and answered before the next is stepped.
   */
  async stepTo(last: number, lockstep: boolean, beforeStep?: (nextTick: number) => void): Promise<void> {
    const session = this.session;
    try {
      while (session.tick() < last || this.inFlight.length > 0) {
        while (session.tick() < last && this.inFlight.length < this.maxInFlight && (this.inFlight.length === 0 || (!lockstep && this.mayGoAhead()))) {
          beforeStep?.(session.tick() + 1);
          this.stepAhead(this.inFlight.length > 0);
          let ticks = 1;
          while (!lockstep && ticks < this.batch && session.tick() < last && this.mayGoAhead()) {
            this.stepAhead(true);
            ticks++;
          }
          await session.settle();
          this.send(ticks);
        }
        await this.commitOldest();
      }
    } catch (error) {
      // Answers still on their way must not be left rejected and unobserved.
      for (const sent of this.inFlight.splice(0)) sent.outputs.catch(() => undefined);
      this.stash.clear();
      throw error;
    }
  }

  /** Whether the next tick cannot depend on the page's answers to the ticks not yet committed. */
  private mayGoAhead(): boolean {
    return this.browser.batchable && this.session.quietNextTick();
  }

  /** Steps one tick; when earlier ticks are still uncommitted, the frame holding the newest is kept first. */
  private stepAhead(ahead: boolean): void {
    if (ahead) this.stash.save(this.session.frame);
    this.session.advance(ahead);
  }

  /** Sends the `ticks` ticks stepped since the last round trip. */
  private send(ticks: number): void {
    const outputs = this.browser.exchange();
    outputs.catch(() => undefined); // awaited in order by commitOldest; a rejection is reported there
    this.inFlight.push({ ticks, outputs });
  }

  /**
   * Waits for the oldest round trip's answers and commits its ticks, oldest first. The uncommitted frames
   * are the stash's, then the session's own frame (the newest): each committed one is restored in turn, and
   * the newest is put back where the kernel steps on from it.
   */
  private async commitOldest(): Promise<void> {
    const sent = this.inFlight.shift()!;
    const outputs = await sent.outputs;
    const later = this.inFlight.length > 0;
    if (later && outputs.some((output) => output.requests.length > 0)) {
      // Cannot happen while batchable held (no hit-test, no anchors), but a request answered late would
      // silently change every later tick: refuse loudly instead.
      throw new Error(`the page made a request at tick ${outputs[0].k}, while later ticks were already sent: the session cannot have pipelined them (please report this)`);
    }
    const frame = this.session.frame;
    const uncommitted = this.stash.count + 1;
    if (uncommitted > 1) this.stash.save(frame);
    for (let i = 0; i < outputs.length; i++) {
      if (uncommitted > 1) this.stash.restore(i, frame);
      this.session.commit(outputs[i]);
    }
    if (uncommitted > outputs.length) this.stash.restore(uncommitted - 1, frame);
    // Drop the committed frames and the newest's copy: what is left are the frames between.
    this.stash.dropOldest(outputs.length, Math.max(0, uncommitted - outputs.length - 1));
  }
}
