/**
 * The agent seam of actor scripts (`a.agent(instruction, ...)`): what an agent is asked at each decision
 * step, the one action it answers with (from a small vocabulary of actor verbs, as JSON), and the errors
 * that make a session `errored` rather than failed. docs/TASKS.md, "Agent actors", has the protocol.
 *
 * An agent is outside the simulation, like a `visual` judge: every answer is recorded in the stream
 * (`EventType.AgentDecision`), so a recorded session replays without asking it again.
 */
import type { Quat, Vec3 } from '../geometry/types.js';
import { describeValue } from '../user/arguments.js';
import { SIDE_REFS, type SideRef } from '../hand/side.js';

/** The verbs an agent may answer with. */
export const AGENT_VERBS = ['reach', 'poke', 'pinch', 'release', 'lookAt', 'press', 'done', 'fail'] as const;
export type AgentVerb = (typeof AGENT_VERBS)[number];

/** Where an agent's action goes: a tagged object by role, a world point, or a point in the task frame. */
export type AgentTarget = { tag: string } | { world: Vec3 } | { at: Vec3 };

/** One action an agent answers with. `hand` and `controller` default to `dominant`. */
export type AgentAction =
  | { verb: 'reach' | 'poke'; target: AgentTarget; hand?: SideRef }
  | { verb: 'pinch' | 'release'; hand?: SideRef }
  | { verb: 'lookAt'; target: AgentTarget }
  | { verb: 'press'; controller?: SideRef; button?: string }
  | { verb: 'done'; reason?: string }
  | { verb: 'fail'; reason: string };

/** A tagged object as the agent sees it (world coordinates, metres). */
export interface AgentTag {
  role: string;
  id: string;
  position: Vec3;
  rotation: Quat | null;
}

/** An earlier step of the same instruction and how its action ended. */
export interface AgentHistoryEntry {
  step: number;
  action: unknown;
  outcome: 'done' | { failed: string };
}

/** What an agent is asked at one decision step. */
export interface AgentRequest {
  /** The instruction the actor script gave (`a.agent(instruction)`). */
  instruction: string;
  task: string;
  /** This decision's index in the session (0, 1, ...), and its step within the instruction (1, 2, ...). */
  decision: number;
  step: number;
  maxSteps: number;
  tick: number;
  time: number;
  dominantHand: 'left' | 'right';
  /** The user's eyes: world position and orientation (looking along −Z). */
  head: { position: Vec3; rotation: Quat };
  /** Each hand's index fingertip, world position. */
  hands: { left: Vec3; right: Vec3 };
  /** The app's tagged objects, as of its last frame. */
  tags: AgentTag[];
  /** The verbs it may answer with. */
  verbs: readonly AgentVerb[];
  history: AgentHistoryEntry[];
  /**
   * How many point-of-view images it asked for (1: the user's eyes; 2: and an overview of the room); `images`
   * holds them (PNG paths) where the harness renders views (the session workers do), else none.
   */
  views: number;
  images: { path: string; width: number; height: number; camera: 'head' | 'overview' }[];
}

/**
 * Decides one action per request. `decide` returns the agent's raw answer (any JSON value): the actor records
 * it as given and checks it, so a malformed answer ends the session `errored` ({@link AgentAnswerError}). An
 * agent that cannot answer at all throws an {@link AgentUnavailableError}.
 */
export interface AgentDecider {
  /** For messages: `reference`, `replay`, the command line. */
  readonly name: string;
  decide(request: AgentRequest): unknown;
}

/**
 * A session that needs an agent it cannot have: none configured, the agent command failed, or a recorded
 * session being replayed asks for a decision its recording does not hold. The harness could not complete
 * the run, so the session is `errored` (kind `agent`), never failed or passed.
 */
export class AgentUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentUnavailableError';
  }
}

/**
 * An agent answered with something that is not an action (malformed JSON, an unknown verb, a bad target) or
 * with one it cannot mean (a tag the request did not list). That is the agent's failure, not the app's: the
 * session is `errored` (kind `agent`), never charged to the app under test.
 */
export class AgentAnswerError extends AgentUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'AgentAnswerError';
  }
}

/** A re-run's agent answered differently from the recording (`xrsim verify --agent CMD`). */
export class AgentDivergenceError extends AgentUnavailableError {
  constructor(
    readonly tick: number,
    readonly decision: number,
    message: string,
  ) {
    super(message);
    this.name = 'AgentDivergenceError';
  }
}

const TARGET_SHAPE = '{ "tag": ROLE } or { "world": [x, y, z] } or { "at": [x, y, z] }';

/** The answer as an action, or what is wrong with it (a phrase naming what was expected). */
export function parseAgentAnswer(answer: unknown): AgentAction | { error: string } {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return { error: `expected one action { "verb": ${AGENT_VERBS.join('|')}, ... }, got ${describeValue(answer)}` };
  const a = answer as Record<string, unknown>;
  if (!AGENT_VERBS.includes(a.verb as AgentVerb)) return { error: `"verb" must be one of ${AGENT_VERBS.join(', ')}, got ${describeValue(a.verb)}` };
  const verb = a.verb as AgentVerb;
  const allowed: Record<AgentVerb, string[]> = {
    reach: ['target', 'hand'],
    poke: ['target', 'hand'],
    pinch: ['hand'],
    release: ['hand'],
    lookAt: ['target'],
    press: ['controller', 'button'],
    done: ['reason'],
    fail: ['reason'],
  };
  const unknown = Object.keys(a).filter((k) => k !== 'verb' && !allowed[verb].includes(k));
  if (unknown.length) return { error: `${verb} takes ${allowed[verb].map((k) => `"${k}"`).join(', ') || 'nothing else'}, not ${unknown.map((k) => `"${k}"`).join(', ')}` };
  for (const key of ['hand', 'controller'] as const) {
    if (a[key] !== undefined && !SIDE_REFS.includes(a[key] as SideRef)) return { error: `"${key}" must be one of ${SIDE_REFS.join(', ')}, got ${describeValue(a[key])}` };
  }
  if (allowed[verb].includes('target')) {
    const error = targetError(a.target);
    if (error) return { error: `${verb} needs "target": ${TARGET_SHAPE}, got ${error}` };
  }
  if (verb === 'fail' && (typeof a.reason !== 'string' || a.reason === '')) return { error: 'fail needs "reason": a non-empty string' };
  if (a.reason !== undefined && typeof a.reason !== 'string') return { error: `"reason" must be a string, got ${describeValue(a.reason)}` };
  if (a.button !== undefined && typeof a.button !== 'string') return { error: `"button" must be a button name, got ${describeValue(a.button)}` };
  return answer as AgentAction;
}

function targetError(target: unknown): string | null {
  if (!target || typeof target !== 'object' || Array.isArray(target)) return describeValue(target);
  const t = target as Record<string, unknown>;
  const keys = Object.keys(t);
  if (keys.length !== 1) return describeValue(target);
  if (keys[0] === 'tag') return typeof t.tag === 'string' && t.tag !== '' ? null : describeValue(target);
  if (keys[0] === 'world' || keys[0] === 'at') {
    const p = t[keys[0]];
    return Array.isArray(p) && p.length === 3 && p.every((x) => typeof x === 'number' && Number.isFinite(x)) ? null : describeValue(target);
  }
  return describeValue(target);
}
