/**
 * xrsim's reference agent (`--agent reference`): a deterministic, geometric stand-in for a VLM agent. It
 * reads the instruction as a verb and the words that name the object ("press the settings button": poke,
 * {settings, button}), finds the one tagged object whose role and id contain all those words, looks at it
 * when it is not near the centre of the user's view, then pokes it (or reaches for it and pinches, for
 * "grab"), and answers done. No tagged object matching the words, or several equally near: it answers
 * `fail` with the reason, so a missing control fails clearly instead of being pressed somewhere else.
 *
 * It sees what a test author's agent would be given (the request: tags, poses, history) and nothing else.
 */
import type { AgentAction, AgentDecider, AgentRequest, AgentTag } from './agent-protocol.js';

/** Instruction words that say what to do, by the action they stand for. */
const POKE_WORDS = new Set(['press', 'poke', 'push', 'tap', 'click', 'activate', 'select', 'open', 'toggle', 'hit']);
const GRAB_WORDS = new Set(['grab', 'pick', 'take', 'hold', 'pinch']);
const REACH_WORDS = new Set(['reach', 'touch', 'point']);
/** Words that name nothing. */
const FILLER = new Set(['the', 'a', 'an', 'to', 'of', 'on', 'in', 'at', 'and', 'it', 'up', 'find', 'then', 'that', 'this', 'with', 'your', 'hand', 'finger']);
/** Off the view's centre by more than this (radians), the agent looks at the object first. */
const LOOK_FIRST = (20 * Math.PI) / 180;

export const referenceAgent: AgentDecider = {
  name: 'reference',
  decide: (request) => referenceDecision(request),
};

/** The reference agent's answer to one request. */
export function referenceDecision(request: AgentRequest): AgentAction {
  const words = request.instruction.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const verb = words.find((w) => POKE_WORDS.has(w) || GRAB_WORDS.has(w) || REACH_WORDS.has(w));
  if (!verb) return { verb: 'fail', reason: `the instruction "${request.instruction}" says neither press, grab nor reach` };
  const named = words.filter((w) => w !== verb && !FILLER.has(w) && !POKE_WORDS.has(w) && !GRAB_WORDS.has(w) && !REACH_WORDS.has(w));
  if (named.length === 0) return { verb: 'fail', reason: `the instruction "${request.instruction}" names no object` };
  const names = named.map(singular);
  const what = named.join(' ');
  const matching = request.tags.filter((t) => names.every((n) => tokens(t).has(n)));
  const roles = request.tags.map((t) => t.role).join(', ') || 'none';
  if (matching.length === 0) return { verb: 'fail', reason: `no tagged object is a "${what}" (tags: ${roles})` };
  const target = nearest(matching, request.head.position);
  if (!target) return { verb: 'fail', reason: `${matching.length} tagged objects are a "${what}" at the same distance (${matching.map((t) => t.role).join(', ')})` };
  const done = (verb: string) => request.history.some((h) => (h.action as { verb?: string } | null)?.verb === verb && h.outcome === 'done');
  const looked = request.history.some((h) => (h.action as { verb?: string } | null)?.verb === 'lookAt');
  if (!looked && offCentre(target, request) > LOOK_FIRST) return { verb: 'lookAt', target: { tag: target.role } };
  if (POKE_WORDS.has(verb)) return done('poke') ? { verb: 'done' } : { verb: 'poke', target: { tag: target.role } };
  if (REACH_WORDS.has(verb)) return done('reach') ? { verb: 'done' } : { verb: 'reach', target: { tag: target.role } };
  if (!done('reach')) return { verb: 'reach', target: { tag: target.role } };
  return done('pinch') ? { verb: 'done' } : { verb: 'pinch' };
}

/** The words of a tag's role and id, singular. */
function tokens(tag: AgentTag): Set<string> {
  return new Set(`${tag.role} ${tag.id}`.toLowerCase().match(/[a-z0-9]+/g)?.map(singular) ?? []);
}

function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The nearest to the eyes; null when two are equally near (within a millimetre): no way to choose. */
function nearest(tags: AgentTag[], eyes: readonly number[]): AgentTag | null {
  const d = (t: AgentTag) => Math.hypot(t.position[0] - eyes[0], t.position[1] - eyes[1], t.position[2] - eyes[2]);
  const sorted = [...tags].sort((a, b) => d(a) - d(b));
  return sorted.length > 1 && d(sorted[1]) - d(sorted[0]) < 1e-3 ? null : sorted[0];
}

/** The angle between where the eyes look (−Z of the head) and the direction to the object. */
function offCentre(tag: AgentTag, request: AgentRequest): number {
  const [x, y, z, w] = request.head.rotation;
  // The head's −Z axis: the third column of its rotation matrix, negated.
  const forward = [-(2 * (x * z + w * y)), -(2 * (y * z - w * x)), -(1 - 2 * (x * x + y * y))];
  const p = request.head.position;
  const d = [tag.position[0] - p[0], tag.position[1] - p[1], tag.position[2] - p[2]];
  const length = Math.hypot(d[0], d[1], d[2]) || 1;
  const cos = (forward[0] * d[0] + forward[1] * d[1] + forward[2] * d[2]) / length;
  return Math.acos(Math.max(-1, Math.min(1, cos)));
}
