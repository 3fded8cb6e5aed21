/**
 * The harness-level entry point: run a spec to a result, never throwing for the session's own problems.
 */
import { erroredResult, type SessionResult } from './result.js';
import { createSession, type CreateOptions, type RunHooks, type Session } from './session.js';
import type { SessionSpec } from './spec.js';

/**
 * Runs a session to completion. Bad input and crashes become an `errored` result with the reason,
 * so a sweep can go on; use {@link createSession} directly to get exceptions instead.
 */
export async function runSession(spec: SessionSpec, hooks?: RunHooks, options: CreateOptions = {}): Promise<SessionResult> {
  let session: Session | undefined;
  try {
    session = await createSession(spec, options);
    return await session.run(hooks);
  } catch (err) {
    session?.dispose();
    return erroredResult(spec, err);
  }
}
