/**
 * The context a session's actor script runs in: the simulated user, world and senses, and what the app
 * publishes (its tags and app events). Every read of the app's state is reported to `onAppRead`, so a
 * session that steps ahead of a browser page's answers can tell when an actor read state not yet current.
 */
import type { ActorContext } from '../actors/action.js';
import type { AppHost } from '../app/host.js';
import { POSE_FLOATS } from '../frame/layout.js';
import { bodyIndexOf } from '../model/references.js';
import type { SimModel } from '../model/types.js';
import type { UserControls } from '../user/user.js';
import type { SimState } from './state.js';

export function sessionActorContext(model: SimModel, state: SimState, user: UserControls, app: AppHost | null, onAppRead: (what: string) => void): ActorContext {
  return {
    t: 0,
    tick: 0,
    model,
    user,
    simUser: state.user,
    environment: state.sensing.environment,
    sensing: state.sensing,
    get physics() {
      return state.physics;
    },
    get tags() {
      onAppRead('tags');
      return app?.tags ?? null;
    },
    jitter: model.user.perturbation ? jitterFrom(state.random.get('actor-timing'), model.user.perturbation.timingJitter) : (seconds) => seconds,
    appEventCount: (name) => {
      onAppRead(`app events (${name})`);
      return app?.eventCount(name) ?? 0;
    },
    bodyPosition: (ref) => {
      const index = bodyIndexOf(model, ref, { bare: 'task' });
      const p = state.frame.bodyPoses;
      return [p[index * POSE_FLOATS], p[index * POSE_FLOATS + 1], p[index * POSE_FLOATS + 2]];
    },
  };
}

/** Timing jitter of actor waits in perturbation mode: each wait lasts ±`fraction` of itself, seeded. */
function jitterFrom(stream: { uniform(low: number, high: number): number }, fraction: number): (seconds: number) => number {
  return (seconds) => seconds * (1 + stream.uniform(-fraction, fraction));
}
