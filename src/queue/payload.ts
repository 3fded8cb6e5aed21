/**
 * What travels through the queue. A job's data is one session to run ({@link SessionJob}); its return value
 * is the session's result line, exactly as a local sweep writes it to `results.jsonl`. Both sides treat
 * what they read from Redis as untrusted data: the worker checks a job before it touches a file
 * ({@link readSessionJob}, then the task roots), and the coordinator checks a returned line before it
 * writes it ({@link checkReturnedLine}).
 */
import { XrsimInputError } from '../errors.js';
import { ownEntry } from '../json/names.js';
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

/** The fields of a job's data. */
const JOB_FIELDS: ReadonlySet<string> = new Set(['format', 'version', 'kernel', 'key', 'spec', 'timeLimitSeconds']);

/**
 * The session spec fields a job may name: what to simulate, all of it data. Everything else a spec can say
 * either runs a command (`agent`, `judge`, `designJudge`) or names a place to write (`record`, `agentDir`,
 * and the judges' folders): a worker takes those only from its own configuration (`xrsim worker --agent`,
 * `--judge`, `--design-judge`, `--streams-dir`), never from whoever can write to the queue.
 */
export const JOB_SPEC_FIELDS: ReadonlySet<string> = new Set([
  'task', 'scene', 'seed', 'perturbationSeed', 'dominantHand', 'substeps', 'duration', 'handModel', 'user', 'sensing', 'app', 'start', 'browserBatch', 'browserInFlight',
]);

/** Why a spec field is the worker's to decide, for the refusal. */
const WORKER_ONLY: Readonly<Record<string, string>> = Object.assign(Object.create(null), {
  record: 'an output path: a worker writes streams only to its own --streams-dir',
  agent: 'a command: a worker runs only the agent its operator gave it (xrsim worker --agent)',
  agentDir: 'an output folder: a worker writes only to folders its operator gave it',
  judge: 'a command and an output folder: a worker runs only the judge its operator gave it (xrsim worker --judge)',
  designJudge: 'a command and an output folder: a worker runs only the design judge its operator gave it (xrsim worker --design-judge)',
});

/**
 * Why a job's data names a field no job may name (its own fields, then its spec's), or null. A task must be
 * named by id or by a file inside the worker's task roots: an inline task could carry an agent or judge
 * command, and its programs would be paths relative to nowhere.
 */
function refusedField(job: Record<string, unknown>): string | null {
  for (const key of Object.keys(job)) {
    if (!JOB_FIELDS.has(key)) return `the job has a field ${JSON.stringify(key)} that no xrsim session job has (expected only ${[...JOB_FIELDS].join(', ')})`;
  }
  const spec = job.spec;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return null; // normalizeSpec names it
  for (const key of Object.keys(spec)) {
    if (JOB_SPEC_FIELDS.has(key)) continue;
    const why = ownEntry(WORKER_ONLY, key);
    return why
      ? `the job's spec names ${JSON.stringify(key)}, ${why}`
      : `the job's spec names ${JSON.stringify(key)}, which a job may not name (a job may name only ${[...JOB_SPEC_FIELDS].join(', ')})`;
  }
  if (typeof (spec as { task?: unknown }).task === 'object') return 'the job\'s spec has an inline task: a job names its task by id or by a file inside the worker\'s task roots';
  return null;
}

/**
 * Checks a job's data as a worker reads it: its format, the kernel version, that it names only the fields a
 * job may ({@link JOB_SPEC_FIELDS}: no commands, no output paths, no inline task), the spec's shape (as any
 * session spec), and that `key` is the spec's own key and the job's id. Never throws.
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
  const field = refusedField(job as Record<string, unknown>);
  if (field) return refuse(`job ${jobId}: ${field}`);
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
