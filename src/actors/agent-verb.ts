/**
 * `a.agent(instruction, { maxSteps, views })`: an adaptive actor step. At each decision step it asks the
 * session's agent (`ActorContext.agent`) for one action from the agent vocabulary, records the answer in the
 * frame (`EventType.AgentDecision`), runs the action to its end, and asks again, until the agent says `done`
 * (the step is done) or `fail`, or uses up `maxSteps` (the step fails: an actor-failure, which the
 * milestones judge). An answer that is not an action, or names a tag the request did not list, is the
 * agent's failure, and so is no agent at all: the session is `errored` (kind `agent`), never the app's.
 */
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import { writeJsonRecord } from '../frame/json-record.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { AGENT_VERBS, AgentAnswerError, AgentUnavailableError, parseAgentAnswer, type AgentAction, type AgentHistoryEntry, type AgentRequest, type AgentTag, type AgentTarget } from './agent-protocol.js';
import type { Action, ActorContext, ActionStatus } from './action.js';
import { controllerVerbs } from './controller-verbs.js';
import { handVerbs } from './hand-verbs.js';
import { headVerbs } from './head-verbs.js';
import { at, tag, world, type Target } from './targets.js';
import type { ButtonName } from '../user/controller.js';

/** Options of `a.agent`. */
export interface AgentOptions {
  /** Decisions at most, `done` included (default 8). */
  maxSteps?: number;
  /** Point-of-view images the agent gets at each decision (default 1; 0: none). */
  views?: number;
}

/** How deep an agent's poke presses (metres past the surface), as a person presses a button. */
const POKE_DEPTH = 0.015;

/** The `a.agent` action. */
export function agentStep(instruction: string, options: AgentOptions = {}): Action {
  const maxSteps = options.maxSteps ?? 8;
  const views = options.views ?? 1;
  let step = 0;
  let current: { action: Action; answer: unknown } | null = null;
  let history: AgentHistoryEntry[] = [];
  const label = `a.agent(${JSON.stringify(instruction)})`;

  /** Asks for the next action: the action to run, or how the step ends. */
  const decide = (ctx: ActorContext): ActionStatus | null => {
    if (!ctx.agent) {
      throw new AgentUnavailableError(`the actor script asks an agent to "${instruction}", but no agent is configured: give one with --agent CMD (a command line), --agent reference (xrsim's reference agent) or --agent replay:STREAM (the decisions of a recorded session), or name one in the task's "agent"`);
    }
    if (step >= maxSteps) return { failed: `the agent took ${maxSteps} decisions (maxSteps) without answering done` };
    step++;
    const request = agentRequest(ctx, instruction, step, maxSteps, views, history);
    const answer = ctx.agent.decide(request);
    ctx.agentDecisions++;
    recordDecision(ctx.frame, request, answer);
    // Decisions are named by the request's `decision` (0, 1, ... in the session) everywhere, with the step.
    const which = `decision ${request.decision} (step ${step} of ${label})`;
    const action = parseAgentAnswer(answer);
    if ('error' in action) throw new AgentAnswerError(`${which}: the agent (${ctx.agent.name}) answered what is not an action: ${action.error}`);
    const target = 'target' in action ? action.target : null;
    const unknownTag = target && 'tag' in target && !request.tags.some((t) => t.role === target.tag) ? target.tag : null;
    if (unknownTag !== null) {
      throw new AgentAnswerError(`${which}: the agent (${ctx.agent.name}) names the tag "${unknownTag}", which the request did not list (its tags: ${request.tags.map((t) => t.role).join(', ') || 'none'})`);
    }
    if (action.verb === 'done') return 'done';
    if (action.verb === 'fail') return { failed: `${which}: the agent (${ctx.agent.name}) gave up: ${action.reason}` };
    current = { action: agentAction(action), answer };
    current.action.start(ctx);
    return null;
  };

  return {
    label,
    start() {
      step = 0;
      current = null;
      history = [];
    },
    update(ctx) {
      // An action that ends asks for the next decision in the same tick, as a script resumes.
      for (;;) {
        if (current) {
          const status = current.action.update(ctx);
          if (status === 'running') return 'running';
          history = [...history, { step, action: current.answer, outcome: status }];
          current = null;
        }
        const ended = decide(ctx);
        if (ended) return ended;
      }
    },
    // Never quiet: each decision reads the app's tags.
  };
}

/** The action an agent's answer stands for. */
function agentAction(a: Exclude<AgentAction, { verb: 'done' | 'fail' }>): Action {
  switch (a.verb) {
    case 'reach':
      return handVerbs(a.hand ?? 'dominant').reach(agentTarget(a.target));
    case 'poke':
      return handVerbs(a.hand ?? 'dominant').poke(agentTarget(a.target), { depth: POKE_DEPTH });
    case 'pinch':
      return handVerbs(a.hand ?? 'dominant').pinch();
    case 'release':
      return handVerbs(a.hand ?? 'dominant').release();
    case 'lookAt':
      return headVerbs().lookAt(agentTarget(a.target));
    case 'press':
      return controllerVerbs(a.controller ?? 'dominant').press((a.button ?? 'trigger') as ButtonName);
  }
}

function agentTarget(t: AgentTarget): Target {
  if ('tag' in t) return tag(t.tag);
  if ('world' in t) return world(t.world[0], t.world[1], t.world[2]);
  return at(t.at[0], t.at[1], t.at[2]);
}

/** The request for one decision, from what the user and the app show now. */
function agentRequest(ctx: ActorContext, instruction: string, step: number, maxSteps: number, views: number, history: AgentHistoryEntry[]): AgentRequest {
  const pose = new Float64Array(7);
  ctx.simUser.head.writePose(pose);
  const tags: AgentTag[] = [];
  const registry = ctx.tags;
  for (const role of registry?.roles() ?? []) {
    const found = registry!.pose(role);
    if (found) tags.push({ role, id: found.id, position: [...found.position] as Vec3, rotation: found.rotation ? ([...found.rotation] as Quat) : null });
  }
  return {
    instruction,
    task: ctx.model.taskId,
    decision: ctx.agentDecisions,
    step,
    maxSteps,
    tick: ctx.tick,
    time: ctx.t,
    dominantHand: ctx.dominantHand,
    head: { position: [pose[0], pose[1], pose[2]], rotation: [pose[3], pose[4], pose[5], pose[6]] },
    hands: { left: ctx.user.hand('left').pointOf('index-tip'), right: ctx.user.hand('right').pointOf('index-tip') },
    tags,
    verbs: AGENT_VERBS,
    history,
    views,
    images: [],
  };
}

/** Records the answer as given (a replay parses it again, so a malformed one fails the same way). */
function recordDecision(frame: Frame, request: AgentRequest, answer: unknown): void {
  writeJsonRecord(frame, EventType.AgentDecision, [], { decision: request.decision, instruction: request.instruction, step: request.step, answer: answer === undefined ? null : answer });
}
