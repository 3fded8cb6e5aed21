/**
 * Argument checks for the verbs that move the simulated user: the actor verbs (`actors/signatures.ts`) and
 * the user controls (`user.ts`), which share names and so share shapes. A verb called with a wrong argument
 * (an options object where an amount goes, an unknown option, a string where a point goes) must never do
 * something else silently: it throws a {@link VerbArgumentError} naming the verb and what it expected. The
 * actor runner records it as that verb's actor-failure.
 */
import { OPENXR_JOINTS } from '../hand/joints.js';
import { listPoseNames, GRAB } from '../hand/poses.js';
import { SIDE_REFS } from '../hand/side.js';
import { ownEntry } from '../json/names.js';

/** A wrong argument to a verb. `verb` is its full name (`hand(dominant).pinch`). */
export class VerbArgumentError extends Error {
  constructor(
    readonly verb: string,
    message: string,
  ) {
    super(`${verb}: ${message}`);
    this.name = 'VerbArgumentError';
  }
}

/** What a value must be: null when it is fine, else what was expected (a phrase: "a number from 0 to 1"). */
export type Check = (value: unknown) => string | null;

/** One parameter of a verb. */
export interface Param {
  name: string;
  check: Check;
  optional?: boolean;
}

/** A verb's parameters, in order. */
export type Signature = readonly Param[];

/** Throws {@link VerbArgumentError} unless `args` fit `signature`. */
export function checkArguments(verb: string, signature: Signature, args: readonly unknown[]): void {
  // A trailing undefined is an argument left out.
  let count = args.length;
  while (count > 0 && args[count - 1] === undefined) count--;
  if (count > signature.length) {
    const shape = signature.map((p) => (p.optional ? `${p.name}?` : p.name)).join(', ');
    throw new VerbArgumentError(verb, `takes ${signature.length === 0 ? 'no arguments' : `(${shape})`}, got ${count} arguments`);
  }
  signature.forEach((param, i) => {
    const value = args[i];
    if (value === undefined) {
      if (!param.optional) throw new VerbArgumentError(verb, `argument ${i + 1} (${param.name}) is missing: expected ${param.check(undefined) ?? 'a value'}`);
      return;
    }
    const expected = param.check(value);
    if (expected !== null) throw new VerbArgumentError(verb, `argument ${i + 1} (${param.name}) must be ${expected}, got ${describeValue(value)}`);
  });
}

/** A short, safe description of any value, for messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol' || typeof value === 'bigint') return String(value);
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export const param = (name: string, check: Check): Param => ({ name, check });
export const optional = (name: string, check: Check): Param => ({ name, check, optional: true });

/** A finite number within [min, max]. */
export function number(min = -Infinity, max = Infinity, what?: string): Check {
  const phrase = what ?? (min > -Infinity && max < Infinity ? `a number from ${min} to ${max}` : min > -Infinity ? `a number of at least ${min}` : 'a finite number');
  return (v) => (isFiniteNumber(v) && v >= min && v <= max ? null : phrase);
}

export const SECONDS = number(0, Infinity, 'seconds (a finite number of at least 0)');
export const POSITIVE: Check = (v) => (isFiniteNumber(v) && v > 0 ? null : 'a number above 0');
export const FRACTION = number(0, 1);
export const BOOLEAN: Check = (v) => (typeof v === 'boolean' ? null : 'true or false');
export const STRING: Check = (v) => (typeof v === 'string' && v !== '' ? null : 'a non-empty string');
export const FUNCTION: Check = (v) => (typeof v === 'function' ? null : 'a function');
export const OBJECT: Check = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? null : 'an object');
export const VEC3: Check = (v) => (Array.isArray(v) && v.length === 3 && v.every(isFiniteNumber) ? null : 'a point or vector [x, y, z] of finite numbers');

/** A target (`a.at`, `a.tag`, `a.surface`, ...) or a task-frame point `[x, y, z]`. */
export const TARGET: Check = (v) =>
  VEC3(v) === null || (v !== null && typeof v === 'object' && typeof (v as { resolve?: unknown }).resolve === 'function' && typeof (v as { label?: unknown }).label === 'string')
    ? null
    : 'a target (a.at(x, y, z), a.tag(role), a.surface(id), ...) or a point [x, y, z]';

/** A non-empty list of what `item` accepts. */
export function listOf(item: Check, what: string): Check {
  return (v) => (Array.isArray(v) && v.length > 0 && v.every((x) => item(x) === null) ? null : what);
}

/** One of the given strings. */
export function oneOf(values: readonly string[], what = `one of ${values.map((s) => JSON.stringify(s)).join(', ')}`): Check {
  return (v) => (typeof v === 'string' && values.includes(v) ? null : what);
}

/** Any of several checks (the first's phrase, then the others', when none fits). */
export function either(...checks: Check[]): Check {
  return (v) => {
    const misses = checks.map((c) => c(v));
    return misses.includes(null) ? null : misses.join(', or ');
  };
}

/** An options object with only these keys, each checked; `undefined` leaves an option out. */
export function options(keys: Record<string, Check>): Check {
  const names = Object.keys(keys);
  const phrase = names.length ? `an options object { ${names.join(', ')} }` : 'no options';
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return phrase;
    for (const [key, value] of Object.entries(v)) {
      const check = ownEntry(keys, key);
      if (!check) return `${phrase} (${JSON.stringify(key)} is not one of them)`;
      if (value === undefined) continue;
      const expected = check(value);
      if (expected !== null) return `${phrase} whose ${key} is ${expected} (got ${describeValue(value)})`;
    }
    return null;
  };
}

export const SIDE = oneOf(SIDE_REFS, `a side: ${SIDE_REFS.map((s) => JSON.stringify(s)).join(', ')}`);
export const HAND_POINT = oneOf(['wrist', 'palm', 'pinch-point', ...OPENXR_JOINTS], 'a hand point: "index-tip", "pinch-point", "palm", "wrist" or another OpenXR joint name');
export const EASING = oneOf(['min-jerk', 'smoothstep', 'linear']);

/** A pose of the library (or `grab`), read when first checked. */
export const POSE_NAME: Check = (v) => {
  const names = [...listPoseNames(), GRAB];
  return typeof v === 'string' && names.includes(v) ? null : `a pose name: ${names.map((n) => JSON.stringify(n)).join(', ')}`;
};
