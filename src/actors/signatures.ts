/**
 * What every actor verb takes, as data: `api.ts` checks each call against these before the verb builds its
 * action, so a wrong argument is an actor-failure naming the verb (`user/arguments.ts`), never another
 * action. Verbs the user controls also have (`hand(ref).pose/pinch/release/rest`, the head's `moveTo`,
 * `lookAt`, `walk`, a controller's `press/release/thumbstick/aim`) take the same arguments in both APIs.
 */
import {
  BOOLEAN,
  checkArguments,
  either,
  FUNCTION,
  HAND_POINT,
  listOf,
  number,
  OBJECT,
  oneOf,
  optional,
  options,
  param,
  POSITIVE,
  SECONDS,
  SIDE,
  STRING,
  TARGET,
  VEC3,
  type Check,
  type Signature,
} from '../user/arguments.js';
import { BUTTON, CONTROLLER_CONTROLS, DURATION, HAND_CONTROLS } from '../user/signatures.js';

const NON_EMPTY: Check = (v) => (typeof v === 'string' && v.trim() !== '' ? null : 'a non-empty instruction');
const integer = (low: number, high: number): Check => (v) => (Number.isInteger(v) && (v as number) >= low && (v as number) <= high ? null : `an integer from ${low} to ${high}`);
const PATH = listOf(VEC3, 'a non-empty list of task-frame points [x, y, z]');
const TARGET_PATH = listOf(TARGET, 'a non-empty list of targets or points [x, y, z]');
const ACTION: Check = (v) => (v !== null && typeof v === 'object' && typeof (v as { update?: unknown }).update === 'function' ? null : 'an action (what a verb returns)');
const ACTIONS: Check = (v) => (Array.isArray(v) && v.every((a) => ACTION(a) === null) ? null : 'a list of actions');

/** The hand verbs (`a.hand(ref).…`). */
export const HAND_VERBS: Record<string, Signature> = {
  reach: [param('target', TARGET), optional('options', options({ with: HAND_POINT, duration: POSITIVE, palmFacing: either(VEC3, oneOf(['head'])), fingersToward: VEC3 }))],
  ...HAND_CONTROLS,
  grab: [param('target', TARGET), optional('options', options({ duration: POSITIVE }))],
  drop: [],
  poke: [param('target', TARGET), optional('options', options({ depth: number(-0.2, 0.2), approach: number(0, 0.5), pressSeconds: POSITIVE }))],
  trace: [param('path', TARGET_PATH), optional('options', options({ with: HAND_POINT, speed: POSITIVE }))],
  throw: [param('velocity', VEC3)],
  track: [param('on', BOOLEAN)],
};

/** The head verbs (`a.head.…`). */
export const HEAD_VERBS: Record<string, Signature> = {
  moveTo: [param('target', TARGET), optional('options', DURATION)],
  lookAt: [param('target', TARGET), optional('options', options({ timeout: POSITIVE }))],
  walk: [param('path', PATH), optional('options', options({ speed: POSITIVE }))],
  follow: [param('path', PATH), optional('options', options({ speed: POSITIVE, lookAt: TARGET }))],
  turn: [param('yawDeg', number()), optional('pitchDeg', number(-90, 90))],
};

/** The controller verbs (`a.controller(ref).…`). */
export const CONTROLLER_VERBS: Record<string, Signature> = {
  ...CONTROLLER_CONTROLS,
  hold: [param('button', BUTTON), param('seconds', SECONDS)],
  aim: [param('target', TARGET), optional('options', DURATION)],
  connect: [],
  disconnect: [],
};

/** Verbs on a body (`a.object(id).…`). */
export const OBJECT_VERBS: Record<string, Signature> = {
  move: [param('position', VEC3), optional('eulerDeg', VEC3)],
  push: [param('impulse', VEC3)],
  throw: [param('velocity', VEC3)],
};

/** Environment verbs (`a.environment.…`). */
export const ENVIRONMENT_VERBS: Record<string, Signature> = {
  addSurface: [param('surface', OBJECT)],
  moveSurface: [param('ref', STRING), param('position', VEC3), optional('eulerDeg', VEC3)],
  removeSurface: [param('ref', STRING)],
};

/** The script API's own functions (`a.…`). */
export const TOP_VERBS: Record<string, Signature> = {
  hand: [param('ref', SIDE)],
  controller: [param('ref', SIDE)],
  object: [param('id', STRING)],
  side: [param('ref', SIDE)],
  wait: [param('seconds', SECONDS)],
  until: [param('predicate', FUNCTION), optional('options', options({ timeout: POSITIVE, label: STRING }))],
  find: [param('role', STRING), optional('options', options({ hand: SIDE, with: HAND_POINT, timeout: POSITIVE }))],
  agent: [param('instruction', NON_EMPTY), optional('options', options({ maxSteps: integer(1, 1000), views: integer(0, 2) }))],
  at: [param('x', number()), param('y', number()), param('z', number())],
  world: [param('x', number()), param('y', number()), param('z', number())],
  surface: [param('id', STRING)],
  tag: [param('role', STRING)],
  offset: [param('target', TARGET), param('d', VEC3)],
};

/** `parallel(...actions)` and `sequence(...actions)` take actions only. */
export function checkActions(verb: string, actions: unknown[]): void {
  checkArguments(verb, [param('actions', ACTIONS)], [actions]);
}

/**
 * `verbs` with every function checked against its signature first (`prefix.name` in messages). A verb
 * without a signature is a mistake of ours: it throws at once, so a test catches it.
 */
export function checkedVerbs<T extends object>(prefix: string, verbs: T, signatures: Record<string, Signature>): T {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(verbs)) {
    if (typeof value !== 'function') {
      out[name] = value;
      continue;
    }
    const signature = signatures[name];
    if (!signature) throw new Error(`actor verb ${prefix}.${name} has no signature in actors/signatures.ts`);
    const verb = `${prefix}.${name}`;
    const checked = (...args: unknown[]): unknown => {
      checkArguments(verb, signature, args);
      return (value as (...a: unknown[]) => unknown)(...args);
    };
    out[name] = checked; // made first, then assigned: see test/session-garbage.test.ts

  }
  return out as T;
}
