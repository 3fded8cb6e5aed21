/**
 * What starting a session takes besides its model or spec: seeds, recording, a browser app's batching and
 * layer capture, and the agent that answers `a.agent` steps.
 */
import type { AgentDecider } from '../actors/agent-protocol.js';
import type { LayerCapture, PageOptions } from '../browser/host-app.js';
import type { AgentViews } from './agent-command.js';
import type { Handedness, RecordOptions } from './spec.js';

/** Options for {@link Session.create} when you already hold a model. */
export interface SessionOptions {
  seed: number;
  /** Re-draws the perturbations (tremor, jitter, noise, actor timing) without changing anything else. */
  perturbationSeed?: number;
  dominantHand?: Handedness;
  record?: RecordOptions;
  /**
   * A browser app's ticks per round trip at most (default {@link DEFAULT_BROWSER_BATCH}; 1: one tick per
   * round trip). The session batches only ticks that cannot depend on the page's answers; results are
   * bit-identical whatever the value (docs/BROWSER.md, "Batched and pipelined sessions").
   */
  browserBatch?: number;
  /**
   * A browser app's round trips outstanding at most (default {@link DEFAULT_BROWSER_IN_FLIGHT}; 1: the
   * session waits for each answer before stepping on). Speed only, like `browserBatch`: the kernel steps the
   * next ticks while the page runs the earlier ones only where they cannot depend on its answers.
   */
  browserInFlight?: number;
  /** For a browser app: read its XR layer back at the ticks this wants (videos of what the page rendered). */
  layerCapture?: LayerCapture;
  /**
   * For a browser app: the browser its page opens in, its time limits and tick channel, and an observer of
   * every round trip (tools and tests; the defaults are what `xrsim run` uses). Only a stand-in page (`open`)
   * changes what the frames hold.
   */
  page?: PageOptions;
  /** Answers the actor script's `a.agent` steps (docs/TASKS.md, "Agent actors"); none: such a step errors the session. */
  agent?: AgentDecider | null;
}

/** What {@link createSession} takes besides the spec. */
export type CreateOptions = Pick<SessionOptions, 'layerCapture' | 'page'> & {
  /** Renders the user's view for an agent command's requests (the session workers give one). */
  agentViews?: AgentViews;
};

/** A browser app's ticks per round trip at most, by default. */
export const DEFAULT_BROWSER_BATCH = 32;

/** A browser app's round trips outstanding at most, by default: the kernel and the page each have a core. */
export const DEFAULT_BROWSER_IN_FLIGHT = 2;
