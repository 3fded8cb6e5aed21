/**
 * The context a session's actor script runs in: the simulated user, world and senses, and what the app
 * publishes (its tags and app events). Every read of the app's state is reported to `onAppRead`, so a
 * session that steps ahead of a browser page's answers can tell when an actor read state not yet current.
 *
 * A class, not an object literal with getters: V8 gives every literal with its own getter functions a map of
 * its own, and a dead map keeps its session's whole graph alive through every young-generation collection
 * until the next full one (docs/SWEEPS.md, "Per-session garbage"). Getters on a prototype are shared.
 */
import type { ActorContext } from '../actors/action.js';
import type { AgentDecider } from '../actors/agent-protocol.js';
import type { AppHost } from '../app/host.js';
import type { Vec3 } from '../geometry/types.js';
import { POSE_FLOATS } from '../frame/layout.js';
import { bodyIndexOf } from '../model/references.js';
import type { SimModel } from '../model/types.js';
import type { UserControls } from '../user/user.js';
import type { SimState } from './state.js';

export function sessionActorContext(model: SimModel, state: SimState, user: UserControls, app: AppHost | null, onAppRead: (what: string) => void, agent: AgentDecider | null = null): ActorContext {
  return new SessionActorContext(model, state, user, app, onAppRead, agent);
}

class SessionActorContext implements ActorContext {
  t = 0;
  tick = 0;
  agentDecisions = 0;
  readonly simUser: SimUser;
  readonly environment: ActorContext['environment'];
  readonly sensing: ActorContext['sensing'];
  readonly jitter: (seconds: number) => number;

  constructor(
    readonly model: SimModel,
    private readonly state: SimState,
    readonly user: UserControls,
    private readonly app: AppHost | null,
    private readonly onAppRead: (what: string) => void,
    readonly agent: AgentDecider | null,
  ) {
    this.simUser = state.user;
    this.environment = state.sensing.environment;
    this.sensing = state.sensing;
    this.jitter = model.user.perturbation ? jitterFrom(state.random.get('actor-timing'), model.user.perturbation.timingJitter) : unjittered;
  }

  get dominantHand(): 'left' | 'right' {
    return this.state.user.dominantHand;
  }

  get frame(): ActorContext['frame'] {
    return this.state.frame;
  }

  get physics(): ActorContext['physics'] {
    return this.state.physics;
  }

  get tags(): ActorContext['tags'] {
    this.onAppRead('tags');
    return this.app?.tags ?? null;
  }

  appEventCount(name: string): number {
    this.onAppRead(`app events (${name})`);
    return this.app?.eventCount(name) ?? 0;
  }

  bodyPosition(ref: string): Vec3 {
    const index = bodyIndexOf(this.model, ref, { bare: 'task' });
    const p = this.state.frame.bodyPoses;
    return [p[index * POSE_FLOATS], p[index * POSE_FLOATS + 1], p[index * POSE_FLOATS + 2]];
  }
}

Object.freeze(SessionActorContext.prototype); // an actor script cannot change it for later sessions

type SimUser = ActorContext['simUser'];

const unjittered = (seconds: number): number => seconds;

/** Timing jitter of actor waits in perturbation mode: each wait lasts ±`fraction` of itself, seeded. */
function jitterFrom(stream: { uniform(low: number, high: number): number }, fraction: number): (seconds: number) => number {
  return (seconds) => seconds * (1 + stream.uniform(-fraction, fraction));
}
