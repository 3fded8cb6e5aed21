/**
 * What travels through the queue. A job's data is one session to run ({@link SessionJob}); its return value
 * is the session's result line, exactly as a local sweep writes it to `results.jsonl`. Both sides treat
 * what they read from Redis as untrusted data: the worker checks a job before it touches a file
 * ({@link readSessionJob}, then the task roots), and the coordinator checks a returned line before it
 * writes it ({@link checkReturnedLine}).
 */
import { XrsimInputError } from '../errors.js';
import { contentHash } from '../model/canonical.js';
import { checkTimeLimit } from '../session/pool.js';
import { erroredResult, type SessionError } from '../session/result.js';
import { normalizeSpec, type SessionSpec } from '../session/spec.js';
import type { SweepEntry, SweepSpec } from '../sweep/matrix.js';
import type { SweepResultLine } from '../sweep/results.js';
import { KERNEL_VERSION } from '../version.js';

/** The queue a sweep uses unless told otherwise (`--queue-name`). */
export const DEFAULT_QUEUE_NAME = 'xrsim';
/** BullMQ's job name for a session. */
export const SESSION_JOB_NAME = 'session';

/**
 * A session's job id: its key behind `s-`. The key alone would do but for BullMQ, which refuses ids that
 * read as integers, as one key in about 2,000 (16 decimal digits) would.
 */
export function jobIdOf(key: string): string {
  return `s-${key}`;
}

/** The key of a job id made by {@link jobIdOf} (or the id itself, for a job some other program added). */
export function keyOfJobId(jobId: string): string {
  return jobId.startsWith('s-') ? jobId.slice(2) : jobId;
}

/** One session to run: a job's data. The job's id is {@link jobIdOf}(`key`). */
export interface SessionJob {
  format: 'xrsim-session-job';
  version: 1;
  /** The coordinator's `KERNEL_VERSION`: a worker of another kernel refuses the job (results would differ). */
  kernel: string;
  /** The session's key: the first 16 hex digits of the spec's content hash. */
  key: string;
  spec: SweepSpec;
  /** The sweep's wall-clock limit per session, seconds. */
  timeLimitSeconds: number;
}

/** The job for one sweep entry. */
export function sessionJob(entry: SweepEntry, timeLimitSeconds: number): SessionJob {
  return { format: 'xrsim-session-job', version: 1, kernel: KERNEL_VERSION, key: entry.key, spec: entry.spec, timeLimitSeconds };
}

/** A job's data, checked: the job, or why it is refused. */
export type ReadJob = { job: SessionJob; refused?: undefined } | { job?: undefined; refused: { message: string; error?: XrsimInputError } };

/**
 * Checks a job's data as a worker reads it: its format, the kernel version, the spec's shape (as any
 * session spec, with no `record`: a job never names an output path), and that `key` is the spec's own key
 * and the job's id. Never throws.
 */
export function readSessionJob(data: unknown, jobId: string | undefined): ReadJob {
  const refuse = (message: string, error?: XrsimInputError): ReadJob => ({ refused: { message, error } });
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return refuse('the job is not an xrsim session job (its data is not an object)');
  const job = data as Partial<SessionJob>;
  if (job.format !== 'xrsim-session-job' || job.version !== 1) return refuse('the job is not an xrsim session job of format version 1 (is another program using this queue?)');
  if (job.kernel !== KERNEL_VERSION) {
    return refuse(`the sweep was started by xrsim with kernel version ${JSON.stringify(job.kernel)} and this worker runs kernel version ${KERNEL_VERSION}: run the same xrsim release on the coordinator and every worker`);
  }
  if (typeof job.key !== 'string' || !/^[0-9a-f]{16}$/.test(job.key) || jobIdOf(job.key) !== jobId) return refuse('the job\'s key is not 16 hex digits matching its job id');
  if (typeof job.spec === 'object' && job.spec !== null && 'record' in job.spec) {
    return refuse('the job names an output path (record): a worker writes streams only to its own --streams-dir');
  }
  try {
    normalizeSpec(job.spec);
    checkTimeLimit(job.timeLimitSeconds);
  } catch (err) {
    if (err instanceof XrsimInputError) return refuse(err.message, err);
    return refuse(String(err));
  }
  let hash: string;
  try {
    hash = contentHash(job.spec).slice(0, 16);
  } catch {
    hash = '';
  }
  if (hash !== job.key) return refuse('the job\'s key is not the content hash of its spec');
  return { job: job as SessionJob };
}

/** An `errored` result line for a session that the queue could not complete (the stack is left out). */
export function erroredLine(key: string, spec: SessionSpec | unknown, message: string, kind: SessionError['kind'], error?: XrsimInputError): SweepResultLine {
  const identity = typeof spec === 'object' && spec !== null ? (spec as SessionSpec) : { task: '', seed: NaN };
  const result = erroredResult(identity, error ?? new Error(message), kind);
  if (result.error) {
    result.error.message = error ? error.message : message;
    delete result.error.stack;
  }
  return { key, ...result, stream: null, ...(typeof spec === 'object' && spec !== null ? { spec: spec as SweepSpec } : {}), seconds: 0 };
}

const STATUSES = new Set(['passed', 'failed', 'errored']);

/** True when `value` is a result line for `key` (the coordinator writes nothing else to `results.jsonl`). */
export function checkReturnedLine(value: unknown, key: string): value is SweepResultLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const line = value as Partial<SweepResultLine>;
  return line.key === key && typeof line.task === 'string' && STATUSES.has(line.status as string) && Array.isArray(line.milestones) && typeof line.hash === 'string';
}
