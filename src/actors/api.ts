/**
 * The object an actor script receives: every verb, target and combinator, with no access to the app's
 * internals. A script is a generator function `function* (a) { yield a.wait(1); ... }` exported by default
 * from a module; `yield [x, y]` (an array) runs actions in parallel.
 */
import { XrsimInputError } from '../errors.js';
import type { Vec3 } from '../geometry/types.js';
import { sharedImporter, type ModuleImporter } from '../app/fresh-modules.js';
import type { ModuleRef } from '../task/programs.js';
import { sideOf, type SideRef } from '../hand/side.js';
import { parallel, sequence, type Action } from './action.js';
import { controllerVerbs, type ControllerVerbs } from './controller-verbs.js';
import { find } from './find.js';
import { agentStep, type AgentOptions } from './agent-verb.js';
import { handVerbs, type HandVerbs } from './hand-verbs.js';
import { headVerbs, type HeadVerbs } from './head-verbs.js';
import { at, offset, surface, tag, world, type Target } from './targets.js';
import { until, wait, type ActorView } from './time-verbs.js';
import { environmentVerbs, objectVerbs, type EnvironmentVerbs, type ObjectVerbs } from './world-verbs.js';
import { checkActions, checkedVerbs, CONTROLLER_VERBS, ENVIRONMENT_VERBS, HAND_VERBS, HEAD_VERBS, OBJECT_VERBS, TOP_VERBS } from './signatures.js';

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
  /**
   * An adaptive step: the session's agent decides one action at a time (reach, poke, pinch, release, lookAt,
   * press) toward the instruction, until it answers done (docs/TASKS.md, "Agent actors").
   */
  agent(instruction: string, options?: AgentOptions): Action;
  /** Targets. */
  at(x: number, y: number, z: number): Target;
  world(x: number, y: number, z: number): Target;
  surface(id: string): Target;
  tag(role: string): Target;
  offset(target: Target, d: Vec3): Target;
  /** The session's dominant side, and a mirror for positions: `a.side('other') * 0.1` is 0.1 m toward the other hand. */
  readonly dominantSide: 'left' | 'right';
  side(ref: SideRef): 1 | -1;
}

/** A script: a generator of actions. */
export type ActorScript = (a: ActorApi) => Generator<Action | Action[], void, unknown>;

/**
 * Builds the API for a session whose dominant hand is `dominant` (every verb returns a fresh action). Every
 * verb checks its arguments (`signatures.ts`): a wrong one throws a `VerbArgumentError` naming the verb,
 * which the runner records as an actor-failure.
 */
export function actorApi(dominant: 'left' | 'right' = 'right'): ActorApi {
  const top = checkedVerbs('a', {
    side: (ref: SideRef) => (sideOf(ref, dominant) === 'right' ? 1 : -1),
    hand: (ref: SideRef) => checkedVerbs(`hand(${ref})`, handVerbs(ref), HAND_VERBS),
    controller: (ref: SideRef) => checkedVerbs(`controller(${ref})`, controllerVerbs(ref), CONTROLLER_VERBS),
    object: (id: string) => checkedVerbs(`object(${id})`, objectVerbs(id), OBJECT_VERBS),
    wait,
    until,
    find,
    agent: agentStep,
    at,
    world,
    surface,
    tag,
    offset,
  }, TOP_VERBS);
  return {
    dominantSide: dominant,
    ...top,
    head: checkedVerbs('head', headVerbs(), HEAD_VERBS),
    environment: checkedVerbs('environment', environmentVerbs(), ENVIRONMENT_VERBS),
    parallel: (...actions) => {
      checkActions('a.parallel', actions);
      return parallel(...actions);
    },
    sequence: (...actions) => {
      checkActions('a.sequence', actions);
      return sequence(`sequence(${actions.length})`, actions);
    },
  };
}

/** Imports an actor script (the module's default export, a generator function), with the session's importer. */
export async function importActors(ref: ModuleRef, importModule: ModuleImporter = sharedImporter): Promise<ActorScript> {
  const module = (await importModule(ref.path)) as { default?: unknown };
  if (typeof module.default !== 'function') {
    throw new XrsimInputError(`${ref.path} is not an actor script: its default export must be a generator function`, { file: ref.path, expected: 'export default function* (a) { yield a.wait(1); ... }' });
  }
  return module.default as ActorScript;
}
