/**
 * References: how task files, actor scripts and code name the things in a session. One syntax, parsed
 * here and nowhere else:
 *
 * | reference | names |
 * |---|---|
 * | `task:ID` | an object the task declares: a body, a fixture or a sensor |
 * | `scene:ID` | an object of the scene: a surface or a prop (surfaces added while running join the scene) |
 * | `tag:ROLE` | the object the app tagged with that role |
 * | `hand:SIDE:POINT` | a hand joint (an OpenXR joint name) or the `pinch-point`; SIDE is `dominant`, `other`, `left` or `right` |
 * | `head` | the eye centre |
 *
 * A bare id (`ball`) and `body:ball` were older spellings; they are refused with a message that names the
 * new one. Whether an object exists is checked against the task by the loader and against the model by
 * `model/references.ts`, with {@link unknownReference}'s error in both.
 */
import { XrsimInputError, type InputLocation } from '../errors.js';
import { OPENXR_JOINTS, type JointName } from '../hand/joints.js';
import { SIDE_REFS, type SideRef } from '../hand/side.js';
import { listNames } from '../json/names.js';

/** A parsed reference. */
export type Reference =
  | { kind: 'task'; id: string }
  | { kind: 'scene'; id: string }
  | { kind: 'tag'; role: string }
  | { kind: 'hand'; side: SideRef; point: JointName | 'pinch-point' }
  | { kind: 'head' };

/** The kinds of reference. */
export type ReferenceKind = Reference['kind'];

/** Every kind, in the order messages list them. */
export const REFERENCE_KINDS: readonly ReferenceKind[] = ['task', 'scene', 'tag', 'hand', 'head'];

/** How each kind is written, for messages. */
const SPELLING: Record<ReferenceKind, string> = { task: 'task:<id>', scene: 'scene:<id>', tag: 'tag:<role>', hand: 'hand:<side>:<joint|pinch-point>', head: 'head' };

const ID = /^[a-z0-9][a-z0-9-]*$/;

/** What parsing needs to say about a reference it refuses. */
export interface ReferenceOptions extends Omit<InputLocation, 'expected'> {
  /** The kinds accepted here (default: all). */
  accept?: readonly ReferenceKind[];
  /** What a bare id meant here before prefixes were required, to name the new spelling. */
  bare?: 'task' | 'scene';
}

/** `scene:crate`, `hand:left:index-tip`: a reference written back as text. */
export function formatReference(ref: Reference): string {
  switch (ref.kind) {
    case 'task':
    case 'scene':
      return `${ref.kind}:${ref.id}`;
    case 'tag':
      return `tag:${ref.role}`;
    case 'hand':
      return `hand:${ref.side}:${ref.point}`;
    case 'head':
      return 'head';
  }
}

/** The accepted spellings, as the `expected` of an error. */
export function expectedReference(accept: readonly ReferenceKind[] = REFERENCE_KINDS): string {
  return accept.map((kind) => SPELLING[kind]).join(', ');
}

/** Parses a reference. Throws {@link XrsimInputError} for a malformed one, an old spelling or a kind not accepted here. */
export function parseReference(text: unknown, options: ReferenceOptions = {}): Reference {
  const accept = options.accept ?? REFERENCE_KINDS;
  const fail = (message: string): never => {
    throw new XrsimInputError(message, { file: options.file, jsonPath: options.jsonPath, expected: expectedReference(accept) });
  };
  if (typeof text !== 'string' || text === '') return fail(`a reference must be a non-empty string, got ${JSON.stringify(text)}`);
  const ref = parse(text, fail, options.bare);
  if (!accept.includes(ref.kind)) fail(`"${text}" is a ${ref.kind} reference, which is not accepted here`);
  return ref;
}

function parse(text: string, fail: (message: string) => never, bare: 'task' | 'scene' | undefined): Reference {
  if (text === 'head') return { kind: 'head' };
  const colon = text.indexOf(':');
  if (colon < 0) {
    if (!ID.test(text)) return fail(`"${text}" is not a reference`);
    return bare ? fail(`"${text}" is the old spelling: write "${bare}:${text}"`) : fail(`"${text}" has no kind: write "task:${text}" for an object of the task, or "scene:${text}" for one of the scene`);
  }
  const prefix = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  switch (prefix) {
    case 'task':
    case 'scene':
      if (!ID.test(rest)) return fail(`"${text}": an id is lower-case letters, digits and dashes`);
      return { kind: prefix, id: rest };
    case 'body':
      return fail(`"${text}" is the old spelling: write "task:${rest}"`);
    case 'tag':
      if (rest === '') return fail(`"${text}": a tag reference needs a role, as tag:<role>`);
      return { kind: 'tag', role: rest };
    case 'hand': {
      const [side, point, extra] = rest.split(':');
      if (!(SIDE_REFS as readonly string[]).includes(side)) return fail(`unknown hand "${side}" in "${text}": use ${SIDE_REFS.join(', ')}`);
      if (extra !== undefined || (point !== 'pinch-point' && !(OPENXR_JOINTS as readonly string[]).includes(point))) {
        return fail(`unknown joint "${rest.slice(side.length + 1)}" in "${text}": use an OpenXR joint name (index-tip, palm, ...) or pinch-point`);
      }
      return { kind: 'hand', side: side as SideRef, point: point as JointName | 'pinch-point' };
    }
    default:
      return fail(`unknown kind "${prefix}:" in "${text}"`);
  }
}

/**
 * The error for a well-formed reference to something that is not there: the same everywhere (loader,
 * model, actors, validators, sessions, environment), naming what there is.
 */
export function unknownReference(text: string, what: string, known: readonly string[], location: Omit<InputLocation, 'expected'> = {}): XrsimInputError {
  return new XrsimInputError(`no ${what} "${text}"`, { ...location, expected: `one of: ${listNames(known) || `(this session has no ${what})`}` });
}
