/**
 * Which agent answers a session's `a.agent` steps (docs/TASKS.md, "Agent actors"): the spec's `agent`, else
 * the task's, one of
 *
 * - `reference`: xrsim's deterministic reference agent (`actors/reference-agent.ts`);
 * - `replay:STREAM`: the decisions recorded in a stream, read back instead of asking again;
 * - anything else: a command line (`agent-command.ts`), run once per decision.
 *
 * And `checkedAgent`: a live agent whose every answer must equal a recording's (a different answer is a
 * named divergence, `xrsim verify --agent CMD`).
 */
import { AgentDivergenceError, AgentUnavailableError, type AgentDecider, type AgentRequest } from '../actors/agent-protocol.js';
import { referenceAgent } from '../actors/reference-agent.js';
import { EventType, decodeEvents } from '../frame/events.js';
import { readJsonPayload } from '../frame/json-record.js';
import { StreamReader } from '../stream/reader.js';
import { commandAgent, type AgentViews } from './agent-command.js';
import { join } from 'node:path';
import type { SimModel } from '../model/types.js';
import type { SessionSpec } from './spec.js';

/** A recorded decision: what `EventType.AgentDecision` holds. */
export interface RecordedDecision {
  decision: number;
  instruction: string;
  step: number;
  answer: unknown;
}

/** Options for a command agent. */
export interface AgentSetup {
  /** Where its requests and point-of-view images go. */
  dir: string;
  /** Renders the user's view for the request (the session workers give one; without it `images` is empty). */
  views?: AgentViews;
  timeoutSeconds?: number;
}

/** The decider an `agent` choice names. Throws `AgentUnavailableError` for a recording that cannot be read. */
export function resolveAgent(choice: string, setup: AgentSetup): AgentDecider {
  if (choice === 'reference') return referenceAgent;
  if (choice === 'replay') throw new AgentUnavailableError('--agent replay needs the recording: give replay:STREAM (xrsim verify and replay read their own stream)');
  if (choice.startsWith('replay:')) return recordedAgent(choice.slice('replay:'.length));
  return commandAgent(choice, setup);
}

/** The agent of a session: the spec's `agent`, else the task's, else none. */
export function sessionAgent(spec: SessionSpec, taskAgent: string | undefined, model: SimModel, views?: AgentViews): AgentDecider | null {
  const choice = spec.agent ?? taskAgent;
  return choice ? resolveAgent(choice, { dir: spec.agentDir ?? defaultAgentDir(spec, model), views }) : null;
}

/** Where an agent command's requests and views go when the spec does not say: `xrsim-out/agent/<session>`. */
function defaultAgentDir(spec: SessionSpec, model: SimModel): string {
  const name = `${model.taskId}-${model.sources.programs?.app?.name ?? 'no-app'}-${model.sceneId}-seed${spec.seed}-${spec.dominantHand ?? 'right'}`;
  return join('xrsim-out', 'agent', name.replace(/[^A-Za-z0-9_.-]+/g, '_'));
}

/**
 * The decisions recorded in a stream, given back each to the request it answered. They are read at the first
 * decision (a session without agent steps reads nothing), all at once: a path's reader is closed again, and
 * a reader given is read through once, so whoever reads its frames reads them afresh afterwards.
 */
export function recordedAgent(source: string | StreamReader): AgentDecider {
  const file = typeof source === 'string' ? source : 'the stream';
  let decisions: Map<number, RecordedDecision & { tick: number }> | undefined;
  const read = () => {
    try {
      const reader = typeof source === 'string' ? StreamReader.open(source) : source;
      try {
        return recordedDecisions(reader);
      } finally {
        if (typeof source === 'string') reader.close();
      }
    } catch (err) {
      throw new AgentUnavailableError(`the agent's recording ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return {
    name: `replay of ${file}`,
    decide(request) {
      decisions ??= read();
      const recorded = decisions.get(request.decision);
      if (!recorded) {
        throw new AgentUnavailableError(`the recording ${file} holds no agent decision ${request.decision} (asked at tick ${request.tick}, step ${request.step} of "${request.instruction}"): this session is not the recorded one`);
      }
      if (recorded.tick !== request.tick || recorded.instruction !== request.instruction || recorded.step !== request.step) {
        throw new AgentDivergenceError(request.tick, request.decision, `agent decision ${request.decision} answered step ${recorded.step} of "${recorded.instruction}" at tick ${recorded.tick} in the recording ${file}, but this session asks step ${request.step} of "${request.instruction}" at tick ${request.tick}`);
      }
      return recorded.answer;
    },
  };
}

/** Every agent decision recorded in a stream, by decision index, with the tick it was taken at. */
export function recordedDecisions(reader: StreamReader): Map<number, RecordedDecision & { tick: number }> {
  const found = new Map<number, RecordedDecision & { tick: number }>();
  for (const frame of reader.framesInOrder()) {
    if (frame.eventWords === 0) continue;
    for (const e of decodeEvents(frame.events, frame.eventWords)) {
      if (e.type !== EventType.AgentDecision) continue;
      const d = readJsonPayload<RecordedDecision>(e.payload, 0);
      found.set(d.decision, { ...d, tick: frame.tick });
    }
  }
  return found;
}

/** `live`, whose answers must be the recording's: a different one throws an `AgentDivergenceError`. */
export function checkedAgent(live: AgentDecider, recording: AgentDecider): AgentDecider {
  return {
    name: live.name,
    decide(request: AgentRequest) {
      const recorded = recording.decide(request);
      const answer = live.decide(request);
      // Actions are compared, not the free text of their reasons: an agent that says why in other words acts the same.
      if (canonical(withoutReason(answer)) !== canonical(withoutReason(recorded))) {
        throw new AgentDivergenceError(request.tick, request.decision, `agent decision ${request.decision} at tick ${request.tick} (step ${request.step} of "${request.instruction}") differs: the recording has ${canonical(recorded)}, ${live.name} answered ${canonical(answer)}`);
      }
      return answer;
    },
  };
}

/** An answer without its `reason` (what `done` and `fail` may say): the action alone. */
function withoutReason(answer: unknown): unknown {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer) || !Object.hasOwn(answer, 'reason')) return answer;
  const { reason: _reason, ...action } = answer as Record<string, unknown>;
  return action;
}

/** JSON with sorted keys, so key order is no difference. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
