/**
 * The building block of actor scripts: an action starts at some tick, is updated every tick on the
 * simulation clock, and ends done or failed. Scripts yield actions; `parallel` runs several at once.
 */
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { PhysicsWorld } from '../physics/world.js';
import type { Sensing } from '../sensing/sensing.js';
import type { Environment } from '../sensing/environment.js';
import type { SimUser, UserControls } from '../user/user.js';
import type { TagRegistry } from '../app/tags.js';
import type { Frame } from '../frame/frame.js';
import type { AgentDecider } from './agent-protocol.js';

/** What an action can read and drive. */
export interface ActorContext {
  /** Time (s) and tick of the tick being simulated. */
  t: number;
  tick: number;
  readonly model: SimModel;
  readonly user: UserControls;
  readonly simUser: SimUser;
  readonly environment: Environment;
  readonly sensing: Sensing;
  readonly physics: PhysicsWorld;
  /** The app's published tags (as of the last app frame), or null without an app. */
  readonly tags: TagRegistry | null;
  /** A wait's duration as this session plays it: jittered in perturbation mode, unchanged otherwise. */
  jitter(seconds: number): number;
  /** How many times the app has emitted an event of this name so far. */
  appEventCount(name: string): number;
  /** A dynamic body's world position (`task:ball`, `scene:mug`). Throws for an unknown body. */
  bodyPosition(ref: string): Vec3;
  readonly dominantHand: 'left' | 'right';
  /** The frame being simulated (actor steps record their events in it). */
  readonly frame: Frame;
  /** The session's agent, for `a.agent` steps (null: none configured). */
  readonly agent: AgentDecider | null;
  /** Agent decisions taken so far in this session (each `a.agent` decision counts one). */
  agentDecisions: number;
}

/** An action's state after an update. */
export type ActionStatus = 'running' | 'done' | { failed: string };

/** One step of a script. */
export interface Action {
  /** What it does, for failure events (`hand(dominant).reach(tag start-button)`). */
  readonly label: string;
  start(ctx: ActorContext): void;
  update(ctx: ActorContext): ActionStatus;
  /**
   * Whether this action's update at the next tick (`ctx.tick + 1`) is certain to return `running` and to read
   * nothing the app publishes (tags, app events). A session batches a browser app's ticks only through such
   * ticks (docs/BROWSER.md, "Batched and pipelined sessions"). Absent means no: the conservative answer.
   */
  quiet?(ctx: ActorContext): boolean;
}

/** The time (s) of the next tick, computed exactly as the session will compute it. */
export function nextTickTime(ctx: ActorContext): number {
  return (ctx.tick + 1) * ctx.model.timing.dt;
}

/** An action that does something once and is done. */
export function instant(label: string, run: (ctx: ActorContext) => void): Action {
  return { label, start: run, update: () => 'done' };
}

/**
 * An action that starts something and lasts `seconds` (at least one tick). It is quiet (see
 * {@link Action.quiet}) until its last tick when it has no `each`, or when `eachIsQuiet` says `each` reads
 * no app state and never ends the action early.
 */
export function timed(
  label: string,
  seconds: number,
  begin: (ctx: ActorContext) => void,
  each?: (ctx: ActorContext, elapsed: number) => ActionStatus | void,
  eachIsQuiet = false,
): Action {
  let startedAt = 0;
  return {
    label,
    start(ctx) {
      startedAt = ctx.t;
      begin(ctx);
    },
    update(ctx) {
      const elapsed = ctx.t - startedAt;
      const status = each?.(ctx, elapsed);
      if (status && status !== 'running') return status;
      return elapsed + 1e-9 >= seconds ? 'done' : 'running';
    },
    quiet(ctx) {
      // The same expression `update` evaluates at the next tick, so the prediction is exact.
      return (!each || eachIsQuiet) && !(nextTickTime(ctx) - startedAt + 1e-9 >= seconds);
    },
  };
}

/** Runs actions at once; done when all are, failed when one fails. */
export function parallel(...actions: Action[]): Action {
  const finished = new Set<Action>();
  return {
    label: `parallel(${actions.map((a) => a.label).join(', ')})`,
    start(ctx) {
      finished.clear();
      for (const a of actions) a.start(ctx);
    },
    update(ctx) {
      for (const a of actions) {
        if (finished.has(a)) continue;
        const status = a.update(ctx);
        if (status === 'done') finished.add(a);
        else if (status !== 'running') return { failed: `${a.label}: ${status.failed}` };
      }
      return finished.size === actions.length ? 'done' : 'running';
    },
    quiet: (ctx) => actions.every((a) => finished.has(a) || (a.quiet?.(ctx) ?? false)),
  };
}

/** Runs actions one after another. */
export function sequence(label: string, actions: Action[]): Action {
  let index = 0;
  return {
    label,
    start(ctx) {
      index = 0;
      if (actions.length > 0) actions[0].start(ctx);
    },
    update(ctx) {
      while (index < actions.length) {
        const status = actions[index].update(ctx);
        if (status === 'running') return 'running';
        if (status !== 'done') return { failed: `${actions[index].label}: ${status.failed}` };
        index++;
        if (index < actions.length) actions[index].start(ctx);
      }
      return 'done';
    },
    // The current step must go on running: a step that ends starts the next one in the same tick.
    quiet: (ctx) => index < actions.length && (actions[index].quiet?.(ctx) ?? false),
  };
}
