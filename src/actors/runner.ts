/**
 * Runs an actor script on the simulation clock: first stage of every tick. The generator yields actions;
 * each runs until done, then the script resumes in the same tick. A failed action (a timed-out `until`,
 * an unresolvable tag) becomes an ActorFailure event and the script goes on with its next step; a script
 * that throws becomes one too, and stops. Nothing here can crash the session, except an `a.agent` step
 * whose agent cannot be had (none configured, its command failed, a replay diverged): that session is
 * `errored`.
 */
import { describeThrown } from '../errors.js';
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import { writeJsonRecord } from '../frame/json-record.js';
import { parallel, type Action, type ActorContext } from './action.js';
import { actorApi, type ActorScript } from './api.js';
import { VerbArgumentError } from '../user/arguments.js';
import { AgentUnavailableError } from './agent-protocol.js';

/** How many steps a script may finish within one tick before the rest wait for the next (a guard against scripts of only instant steps looping forever). */
const MAX_STEPS_PER_TICK = 64;

/** One session's actor script. */
export class ActorRunner {
  private readonly generator: Generator<Action | Action[], void, unknown>;
  private current: Action | null = null;
  private finished = false;
  /** Failures so far, for tools and tests. */
  readonly failures: { tick: number; step: string; reason: string }[] = [];

  constructor(script: ActorScript, dominantHand: 'left' | 'right' = 'right') {
    this.generator = script(actorApi(dominantHand));
  }

  /** True once the script has run out of steps. */
  get done(): boolean {
    return this.finished;
  }

  /**
   * Whether the script's next tick (`ctx.tick + 1`) is certain to read nothing the app publishes: it has
   * ended, or its current step declares itself quiet through that tick (`Action.quiet`). Between steps the
   * script resumes and may do anything, so that is never quiet.
   */
  quietNextTick(ctx: ActorContext): boolean {
    if (this.finished) return true;
    const action = this.current;
    if (!action?.quiet) return false;
    try {
      return action.quiet(ctx);
    } catch {
      return false; // its update will throw and be recorded: not a tick to guess about
    }
  }

  /** Advances the script by one tick. */
  tick(ctx: ActorContext, frame: Frame): void {
    for (let steps = 0; steps < MAX_STEPS_PER_TICK && !this.finished; steps++) {
      if (!this.current) {
        const next = this.resume(ctx, frame);
        if (!next) return;
        this.current = next;
        this.guard(ctx, frame, () => next.start(ctx));
      }
      const action = this.current;
      if (!action) continue;
      const status = this.guard(ctx, frame, () => action.update(ctx));
      if (status === undefined) continue; // it threw: already recorded
      if (status === 'running') return;
      if (status !== 'done') this.fail(ctx, frame, action.label, status.failed);
      this.current = null;
    }
  }

  private resume(ctx: ActorContext, frame: Frame): Action | null {
    try {
      const step = this.generator.next();
      if (step.done) {
        this.finished = true;
        return null;
      }
      const value = step.value;
      if (Array.isArray(value)) return parallel(...value);
      if (!value || typeof (value as Action).update !== 'function') throw new TypeError(`a script must yield actions, got ${JSON.stringify(value)}`);
      return value;
    } catch (err) {
      this.finished = true;
      // A verb called with a wrong argument is that verb's failure (its message names it and what it expected).
      if (err instanceof VerbArgumentError) this.fail(ctx, frame, err.verb, err.message);
      else this.fail(ctx, frame, 'script', describeThrown(err).message);
      return null;
    }
  }

  /**
   * Runs `fn`; an exception becomes a failure of the current step (and returns undefined). An agent the
   * session cannot have is the harness's problem, not the script's: it ends the session as `errored`.
   */
  private guard<T>(ctx: ActorContext, frame: Frame, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (err instanceof AgentUnavailableError) throw err;
      this.fail(ctx, frame, this.current?.label ?? 'script', describeThrown(err).message);
      this.current = null;
      return undefined;
    }
  }

  private fail(ctx: ActorContext, frame: Frame, step: string, reason: string): void {
    this.failures.push({ tick: ctx.tick, step, reason });
    writeJsonRecord(frame, EventType.ActorFailure, [], { step, reason });
  }
}
