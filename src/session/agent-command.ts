/**
 * An agent command (`--agent CMD`): a shell command line run once per decision step. It reads the request
 * (`AgentRequest`, JSON on stdin and in the file `$XRSIM_AGENT_REQUEST`) and prints one action as JSON on the
 * last line of its stdout. It runs synchronously: the session waits for its answer, as the user waits for the
 * agent, and no simulated time passes. An answer that is not JSON is given to the actor as the text it was
 * (a malformed action, an actor-failure); a command that cannot start, exits non-zero or runs past its time
 * limit gives no answer at all, and the session is `errored`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AgentUnavailableError, type AgentDecider, type AgentRequest } from '../actors/agent-protocol.js';

/** Renders `request.views` point-of-view images of the user's current view into `dir`. */
export type AgentViews = (request: AgentRequest, dir: string) => AgentRequest['images'];

/** Seconds an agent command may take for one decision unless told otherwise. */
export const DEFAULT_AGENT_TIMEOUT = 120;

const MAX_OUTPUT = 1 << 20;

export function commandAgent(command: string, setup: { dir: string; views?: AgentViews; timeoutSeconds?: number }): AgentDecider {
  if (command.trim() === '') throw new AgentUnavailableError('the agent command is empty');
  const timeout = setup.timeoutSeconds ?? DEFAULT_AGENT_TIMEOUT;
  return {
    name: command,
    decide(request) {
      mkdirSync(setup.dir, { recursive: true });
      const asked = { ...request, images: request.views > 0 && setup.views ? setup.views(request, setup.dir) : [] };
      const text = JSON.stringify(asked);
      const requestPath = resolve(join(setup.dir, `decision${request.decision}-request.json`));
      writeFileSync(requestPath, text);
      const run = spawnSync('sh', ['-c', command], { input: text, env: { ...process.env, XRSIM_AGENT_REQUEST: requestPath }, timeout: timeout * 1000, maxBuffer: MAX_OUTPUT, encoding: 'utf8', killSignal: 'SIGKILL' });
      const stderr = (run.stderr ?? '').trim().split('\n').slice(-3).join(' | ').slice(0, 500);
      if (run.error && (run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') throw new AgentUnavailableError(`the agent timed out after ${timeout} s at decision ${request.decision}: ${command}`);
      // EPIPE: the agent exited (or closed stdin) before reading the whole request, which it may also read from
      // $XRSIM_AGENT_REQUEST; it ran, so its exit status and output decide, not our unread write.
      const unreadInput = (run.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' && (run.status !== null || run.signal !== null);
      if (run.error && !unreadInput) throw new AgentUnavailableError(`the agent could not run (${run.error.message}): ${command}`);
      if (run.status !== 0) throw new AgentUnavailableError(`the agent ${run.signal ? `was killed by ${run.signal}` : `exited with code ${run.status}`} at decision ${request.decision}${stderr ? ` (${stderr})` : ''}: ${command}`);
      const line = (run.stdout ?? '').trim().split('\n').pop()?.trim() ?? '';
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line; // not JSON: the actor reports it as a malformed action
      }
    },
  };
}
