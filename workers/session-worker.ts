/**
 * Worker entry point: runs one whole session per job (never single steps: dispatch costs 35–100 µs).
 * Rapier is initialised once per worker thread, on the first job, and the thread stays warm.
 * Used with piscina (`filename` = this file's compiled path) or any worker that imports the default export.
 */
import { runSession } from '../src/session/run.js';
import type { SessionResult } from '../src/session/result.js';
import type { SessionSpec } from '../src/session/spec.js';

/** Runs `spec` to a result; problems become `errored` results, never exceptions. */
export default async function runSessionJob(spec: SessionSpec): Promise<SessionResult> {
  return runSession(spec);
}
