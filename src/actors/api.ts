/**
 * The object an actor script receives: every verb, target and combinator, with no access to the app's
 * internals. A script is a generator function `function* (a) { yield a.wait(1); ... }` exported by default
 * from a module; `yield [x, y]` (an array) runs actions in parallel.
 */
import type { Vec3 } from '../geometry/types.js';
import type { SideRef } from '../user/user.js';
import { parallel, sequence, type Action } from './action.js';
import { controllerVerbs, type ControllerVerbs } from './controller-verbs.js';
import { find } from './find.js';
import { handVerbs, type HandVerbs } from './hand-verbs.js';
import { headVerbs, type HeadVerbs } from './head-verbs.js';
import { at, offset, surface, tag, world, type Target } from './targets.js';
import { until, wait, type ActorView } from './time-verbs.js';
import { environmentVerbs, objectVerbs, type EnvironmentVerbs, type ObjectVerbs } from './world-verbs.js';

/** The script API. */
export interface ActorApi {
  head: HeadVerbs;
  hand(ref: SideRef): HandVerbs;
  controller(ref: SideRef): ControllerVerbs;
  object(id: string): ObjectVerbs;
  environment: EnvironmentVerbs;
  wait(seconds: number): Action;
  until(predicate: (view: ActorView) => boolean, options?: { timeout?: number; label?: string }): Action;
  parallel(...actions: Action[]): Action;
  sequence(...actions: Action[]): Action;
  find(role: string, options?: Parameters<typeof find>[1]): Action;
  /** Targets. */
  at(x: number, y: number, z: number): Target;
  world(x: number, y: number, z: number): Target;
  surface(id: string): Target;
  tag(role: string): Target;
  offset(target: Target, d: Vec3): Target;
}

/** A script: a generator of actions. */
export type ActorScript = (a: ActorApi) => Generator<Action | Action[], void, unknown>;

/** Builds the API (stateless: every verb returns a fresh action). */
export function actorApi(): ActorApi {
  return {
    head: headVerbs(),
    hand: handVerbs,
    controller: controllerVerbs,
    object: objectVerbs,
    environment: environmentVerbs(),
    wait,
    until,
    parallel,
    sequence: (...actions) => sequence(`sequence(${actions.length})`, actions),
    find,
    at,
    world,
    surface,
    tag,
    offset,
  };
}
