/**
 * The viewer's background thread: what needs the model or the whole stream (a session's meta, which
 * compiles the scene and task schemas, and its timeline, which reads every chunk) is built here, so the
 * server's own thread keeps handing out the page, three.js and chunks meanwhile.
 *
 * Messages in: `{ job, kind: 'meta', path, session }` or `{ job, kind: 'timeline', path }`.
 * Messages out: `{ job, value }` or `{ job, error }`.
 */
import { parentPort } from 'node:worker_threads';
import type { SessionSummary } from './api-types.js';
import { streamMeta } from './stream-meta.js';
import { buildTimeline } from './timeline.js';

/** What the worker is asked for. */
export type StreamRequest = { kind: 'meta'; path: string; session: SessionSummary } | { kind: 'timeline'; path: string };
/** A request with its number. */
export type StreamJob = StreamRequest & { job: number };

parentPort?.on('message', (message: StreamJob) => {
  const work = message.kind === 'meta' ? Promise.resolve().then(() => streamMeta(message.path, message.session)) : buildTimeline(message.path);
  work.then(
    (value) => parentPort!.postMessage({ job: message.job, value }),
    (err: unknown) => parentPort!.postMessage({ job: message.job, error: err instanceof Error ? err.message : String(err) }),
  );
});
