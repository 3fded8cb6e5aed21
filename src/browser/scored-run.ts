/**
 * Runs a browser app through a session and scores it, at batched speed, with phase 2's closed-loop
 * semantics (the page's output of tick N is the app state of tick N), using phase 1's glue only.
 *
 * 1. **Open loop**: the session steps ahead and sends its ticks to the page in batches (1, 2, 4, ... up to
 *    `batch` ticks, so the page's first outputs come back early), while the next batch is stepped. The
 *    page's outputs reach this session late; its requests are served when they arrive.
 * 2. **Scoring replay**: a fresh session with the same spec, whose `ReplayRelay` checks that every tick's
 *    input is bit-identical to what the page was given and publishes the page's output of each tick in that
 *    tick. Its result (milestones, hash) is the run's.
 *
 * The replay is exact when the page's outputs do not change the session's inputs to the page: actors that
 * do not follow the page's tags while they move, and requests served when the page saw them served. When
 * they do, the replay diverges and `runBrowserApp` throws `ReplayDivergedError` naming the first tick and
 * field: run such a page closed loop (`driveBrowserApp`, batch 1) or wait for phase 2.
 */
import type { SessionResult } from '../session/result.js';
import type { RunHooks } from '../session/session.js';
import type { BrowserApp } from './browser-app.js';
import { createRelayedSession, type RelayedSessionSource } from './drive.js';
import type { PageError, TickInput, TickOutput } from './protocol.js';
import { BrowserRelay } from './relay.js';
import { ReplayRelay, type ReplayDivergence } from './replay-relay.js';

/** The most ticks a round trip carries by default. */
export const DEFAULT_MAX_BATCH = 45;

export interface BrowserRunOptions {
  /**
   * The session: task, scene, seed, hand, sensing... (`app` is the relay), or a model with the relay app
   * and session options. Its `record` applies to the scoring session alone.
   */
  spec: RelayedSessionSource;
  /** The page, its XR session started (`waitForSession`). */
  app: BrowserApp;
  /** The most ticks per round trip (default {@link DEFAULT_MAX_BATCH}). */
  batch?: number;
  /** Called with every frame of the scoring session (the page's state of tick N is in frame N). */
  onFrame?: RunHooks['onFrame'];
}

export interface BrowserRun {
  /** The scoring session's result: milestones, score and session hash. */
  result: SessionResult;
  /** Every tick's input to the page and the page's output, in tick order. */
  inputs: TickInput[];
  outputs: TickOutput[];
  /** What the page reported: exceptions, rejections, console errors, refused requests. */
  errors: (PageError & { tick: number })[];
  /** Steps of the scoring session's actors that failed. */
  actorFailures: { tick: number; step: string; reason: string }[];
}

/** The scoring replay did not reproduce the inputs the page was given. */
export class ReplayDivergedError extends Error {
  constructor(readonly divergence: ReplayDivergence) {
    super(
      `the scoring replay diverged at tick ${divergence.tick} (field "${divergence.field}" of the page's input): ` +
        'the page published state the session reacted to before the page could have seen it; run it closed loop',
    );
    this.name = 'ReplayDivergedError';
  }
}

export async function runBrowserApp(options: BrowserRunOptions): Promise<BrowserRun> {
  const live = await runOpenLoop(options);
  const { session, relay } = await createRelayedSession(options.spec, (dt) => new ReplayRelay(dt, live));
  const result = await session.run({ onFrame: options.onFrame });
  if (relay.divergence) throw new ReplayDivergedError(relay.divergence);
  if (relay.matched !== live.inputs.length) throw new ReplayDivergedError({ tick: relay.matched, field: 'tick' });
  return { result, inputs: live.inputs, outputs: live.outputs, errors: live.errors, actorFailures: [...(session.actors?.failures ?? [])] };
}

/** Pass 1: steps the session and the page concurrently, in growing batches. */
async function runOpenLoop(options: BrowserRunOptions) {
  const { session, relay } = await createRelayedSession(withoutRecording(options.spec), (dt) => new BrowserRelay(dt));
  const maxBatch = Math.max(1, options.batch ?? DEFAULT_MAX_BATCH);
  const inputs: TickInput[] = [];
  const outputs: TickOutput[] = [];
  // Outputs are accepted only where this loop awaits (before the next batch is sent), so when they are
  // applied depends on the batch sizes alone, not on how fast the page answers.
  const send = (batch: TickInput[]) =>
    options.app.tick(batch).then((got) => {
      inputs.push(...batch);
      outputs.push(...got);
      relay.accept(got);
    });
  let inFlight: Promise<void> = Promise.resolve();
  let size = 1;
  try {
    while (!session.done) {
      if (relay.inputs.length >= size) {
        await inFlight;
        inFlight = send(relay.take());
        size = Math.min(maxBatch, size * 2);
      }
      session.step();
    }
    await inFlight;
    const rest = relay.take();
    if (rest.length > 0) await send(rest);
  } finally {
    // A failed step leaves a batch in flight: its rejection is the page's, and already beside the point.
    inFlight.catch(() => undefined);
    session.dispose();
  }
  return { inputs, outputs, appliedAt: relay.appliedAt, errors: relay.errors };
}

/** The open-loop pass is never recorded: only the scoring session stands for the page. */
function withoutRecording(source: RelayedSessionSource): RelayedSessionSource {
  if ('model' in source) return { model: source.model, options: { ...source.options, record: undefined } };
  return { ...source, record: undefined };
}
