/**
 * What a session produces: its verdict, score, milestones and hash.
 */
import type { AppErrorSummary } from '../app/host.js';
import { XrsimInputError } from '../errors.js';
import { AgentUnavailableError } from '../actors/agent-protocol.js';
import type { Milestone } from '../validate/types.js';
import type { DesignReport } from '../design/types.js';
import type { Handedness } from '../hand/side.js';

/** `errored` means the harness could not complete the run; it is never a verdict on the app or the physics. */
export type SessionStatus = 'passed' | 'failed' | 'errored';

/**
 * Why a session errored: bad input; a crash (an exception in the harness, or its worker died); out of memory
 * (its worker reached its heap limit, `workerHeapMb`: an app that allocates without end); a timeout
 * (past its wall-clock limit); nondeterminism (run twice, it gave two different results); or a milestone
 * no judge could score (`judge`: a `visual` milestone with no judge configured, or a judge that failed), or
 * an agent actor step with no agent to answer it (`agent`: none configured, its command failed, or a
 * replayed recording holds no answer for it).
 */
export interface SessionError {
  kind: 'bad-input' | 'crash' | 'out-of-memory' | 'timeout' | 'nondeterministic' | 'judge' | 'agent';
  message: string;
  file?: string;
  jsonPath?: string;
  stack?: string;
}

/** The outcome of one session. This is also the JSON `xrsim run --json` prints. */
export interface SessionResult {
  task: string;
  /** The app under test (a name from the task's apps, or a module path), or null for a task without apps. */
  app: string | null;
  /**
   * The SHA-256 of the app's files (a module and the helpers it imports, or a page directory's files): which
   * version of a candidate a result judged. Absent without an app and for a session errored before it loaded one.
   */
  appSha256?: string;
  scene: string;
  seed: number;
  hand: Handedness;
  /** Ticks simulated (frames recorded = ticks + 1, frame 0 being the initial state). */
  ticks: number;
  status: SessionStatus;
  /** Fraction of milestones passed, in [0, 1]. */
  score: number;
  /** Chained 64-bit hash of every frame, 16 hex digits; identical runs have identical hashes. */
  hash: string;
  milestones: Milestone[];
  /** Path of the recorded stream, or null. */
  stream: string | null;
  /** Path of a video of the recorded stream (sweeps with `--videos`), when one was made. */
  video?: string;
  /** Content hash of the model. */
  modelHash: string;
  /** Exceptions and rejections recorded from app code (`app-error` events); 0 without an app. */
  appErrors: number;
  /** The first of them, or null: its tick, phase (`setup`, `frame`, `tag`) and message (at most 2,000 characters). */
  firstAppError: AppErrorSummary | null;
  /**
   * Steps of the actor script that failed (`actor-failure` events: an unresolvable tag, a verb's bad
   * argument, an agent that gave up or used up its decisions), when there were any, and the first of them.
   * The milestones judge what they cost the app; these say why a session went as it did.
   */
  actorFailures?: number;
  firstActorFailure?: { tick: number; step: string; reason: string };
  /**
   * The app's design, rated 1–5 on ten XR design heuristics from the stream (sessions with an app; absent
   * without one, and for a session that errored before it ran). docs/TASKS.md, "Design score".
   */
  design?: DesignReport;
  error?: SessionError;
}


/**
 * Verdict and score from milestones. A milestone the harness could not score (`errored`) makes the
 * session `errored` (kind `judge`), never passed or failed.
 */
export function verdict(milestones: readonly Milestone[]): { status: SessionStatus; score: number; error?: SessionError } {
  const passed = milestones.filter((m) => m.passed).length;
  const score = milestones.length === 0 ? 0 : passed / milestones.length;
  const errored = milestones.filter((m) => m.errored);
  if (errored.length) {
    const message = `${errored.length === 1 ? 'milestone' : 'milestones'} ${errored.map((m) => m.id).join(', ')} could not be judged: ${errored[0].note ?? 'errored'}`;
    return { status: 'errored', score, error: { kind: 'judge', message } };
  }
  return { status: milestones.length > 0 && passed === milestones.length ? 'passed' : 'failed', score };
}

/** An `errored` result for a session that could not be completed. */
export function erroredResult(
  identity: { task: unknown; scene?: unknown; seed: unknown; dominantHand?: unknown; app?: unknown },
  err: unknown,
  kind?: SessionError['kind'],
): SessionResult {
  const error: SessionError =
    err instanceof XrsimInputError
      ? { kind: 'bad-input', message: err.message, file: err.file, jsonPath: err.jsonPath }
      : { kind: kind ?? (err instanceof AgentUnavailableError ? 'agent' : 'crash'), message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined };
  const name = (ref: unknown) => (typeof ref === 'string' ? ref : ref && typeof ref === 'object' && 'id' in ref ? String(ref.id) : '');
  return {
    task: name(identity.task),
    app: typeof identity.app === 'string' ? identity.app : null,
    scene: name(identity.scene),
    seed: typeof identity.seed === 'number' ? identity.seed : NaN,
    hand: identity.dominantHand === 'left' ? 'left' : 'right',
    ticks: 0,
    status: 'errored',
    score: 0,
    hash: '',
    milestones: [],
    stream: null,
    modelHash: '',
    appErrors: 0,
    firstAppError: null,
    error,
  };
}
