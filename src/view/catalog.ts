/**
 * What a viewer opens: one `.xrs` stream, or a sweep folder (its `results.jsonl` and kept streams).
 * Sessions are addressed by opaque ids (a sweep's result keys), never by paths, so a URL can only name a
 * stream this catalog lists.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { XrsimInputError } from '../errors.js';
import { StreamReader } from '../stream/reader.js';
import { readResults } from '../sweep/results.js';
import type { SessionSummary, SessionsResponse } from './api-types.js';

/** The sessions a viewer serves and where their streams are. */
export interface Catalog extends SessionsResponse {
  /** The stream of session `id`, or null when it has none (or the id is unknown). */
  streamPath(id: string): string | null;
}

/** The id of the session of a single-stream catalog. */
export const SINGLE_STREAM_ID = 'stream';

/** Opens `target`: a stream file or a sweep folder. Throws {@link XrsimInputError} when it is neither. */
export function openCatalog(target: string): Catalog {
  if (!existsSync(target)) throw new XrsimInputError('no such file or folder', { file: target, expected: 'an .xrs stream or a sweep folder' });
  return statSync(target).isDirectory() ? sweepCatalog(target) : streamCatalog(target);
}

function streamCatalog(path: string): Catalog {
  const reader = StreamReader.open(path, { allowTruncated: true });
  const { header } = reader;
  reader.close();
  const spec = header.spec as { app?: unknown };
  const session: SessionSummary = {
    id: SINGLE_STREAM_ID,
    task: header.sources.task.id,
    app: typeof spec.app === 'string' ? spec.app : (header.sources.programs?.app?.name ?? null),
    scene: header.sources.scene.id,
    seed: header.seed,
    hand: header.dominantHand,
    status: null,
    score: null,
    milestones: null,
    error: null,
    hasStream: true,
  };
  const absolute = resolve(path);
  return { kind: 'stream', title: basename(path), sessions: [session], streamPath: (id) => (id === SINGLE_STREAM_ID ? absolute : null) };
}

function sweepCatalog(dir: string): Catalog {
  const results = readResults(dir);
  const streams = new Map<string, string>();
  const sessions = results.map((r): SessionSummary => {
    // Streams are found where the sweep keeps them, so a moved folder still opens; else where it says.
    const kept = join(dir, 'streams', `${r.key}.xrs`);
    const stream = existsSync(kept) ? kept : r.stream && existsSync(r.stream) ? r.stream : null;
    if (stream) streams.set(r.key, resolve(stream));
    return {
      id: r.key,
      task: r.task,
      app: r.app,
      scene: r.scene,
      seed: r.seed,
      hand: r.hand,
      status: r.status,
      score: r.score,
      milestones: r.milestones,
      error: r.error ? { kind: r.error.kind, message: r.error.message } : null,
      hasStream: stream !== null,
    };
  });
  return { kind: 'sweep', title: `sweep ${basename(resolve(dir))}`, sessions, streamPath: (id) => streams.get(id) ?? null };
}
