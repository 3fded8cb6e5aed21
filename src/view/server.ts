/**
 * The viewer's server: the page, three.js and fflate from the package's own files, and the stream API
 * (`api-types.ts`) for one stream or a sweep folder, on a {@link startLoopbackServer} at 127.0.0.1.
 *
 * Chunks are sent as stored (deflated, CRC checked here), so opening a long session reads only the chunks
 * the page asks for. A session's meta (which builds its model) and its timeline (which reads the whole
 * stream) are built on a worker thread (`stream-worker.ts`) and kept; the first session's meta is started
 * at once, while the browser starts.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { StreamDamageError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { StreamReader } from '../stream/reader.js';
import type { StreamMeta, Timeline } from './api-types.js';
import { openCatalog, type Catalog } from './catalog.js';
import { sendJson, sendText, startLoopbackServer, type LoopbackServer, type Mount } from './loopback-server.js';
import { contentSecurityPolicy, viewerHtml } from './page-html.js';
import type { StreamRequest } from './stream-worker.js';

/** A running viewer. */
export interface Viewer {
  /** The page's address (`http://127.0.0.1:PORT/`). */
  readonly url: string;
  readonly catalog: Catalog;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
/** The compiled package, where the page's modules are (also when this module runs from `src/` in tests). */
const DIST = join(PACKAGE_ROOT, 'dist');
/** The compiled worker entry. */
const STREAM_WORKER = join(DIST, 'src/view/stream-worker.js');
/** Compiled modules the page imports: its own, and the pure decoders it shares with Node. */
const PAGE_MODULE_FOLDERS = ['src/view/page/', 'src/view/api-types.js', 'src/stream/chunk-codec.js', 'src/frame/', 'kernels/'];

/** The folders the page loads code from. */
function mounts(): Mount[] {
  const threeBuild = dirname(require.resolve('three'));
  return [
    { prefix: '/app/', root: DIST, allow: (p) => /\.js(\.map)?$/.test(p) && PAGE_MODULE_FOLDERS.some((f) => p.startsWith(f)) },
    { prefix: '/vendor/three/', root: threeBuild, allow: (p) => p === 'three.module.js' || p === 'three.core.js' },
    { prefix: '/vendor/three-addons/', root: join(threeBuild, '..', 'examples', 'jsm'), allow: (p) => p.startsWith('controls/') },
    { prefix: '/vendor/fflate/', root: join(dirname(require.resolve('fflate')), '..', 'esm'), allow: (p) => p === 'browser.js' },
  ];
}

/** Serves `target` (an `.xrs` stream or a sweep folder) on 127.0.0.1 at a random port. */
export async function startViewer(target: string): Promise<Viewer> {
  const catalog = openCatalog(target);
  const readers = new Map<string, StreamReader>();
  const worker = new StreamWorker();
  const metas = new Map<string, Promise<StreamMeta>>();
  const timelines = new Map<string, Promise<Timeline>>();
  const meta = (id: string): Promise<StreamMeta> => {
    let pending = metas.get(id);
    if (!pending) {
      pending = worker.run<StreamMeta>({ kind: 'meta', path: catalog.streamPath(id)!, session: catalog.sessions.find((s) => s.id === id)! });
      metas.set(id, pending);
    }
    return pending;
  };
  const readerFor = (id: string): StreamReader | null => {
    const path = catalog.streamPath(id);
    if (!path) return null;
    let reader = readers.get(id);
    if (!reader) {
      reader = StreamReader.open(path, { allowTruncated: true });
      readers.set(id, reader);
    }
    return reader;
  };
  const html = viewerHtml();
  const server: LoopbackServer = await startLoopbackServer({
    mounts: mounts(),
    headers: { 'Content-Security-Policy': contentSecurityPolicy(html), 'Referrer-Policy': 'no-referrer' },
    routes: [
      {
        pattern: /^\/$/,
        handle: (_request, response) => {
          response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
          response.end(html);
        },
      },
      { pattern: /^\/api\/sessions$/, handle: (_request, response) => sendJson(response, { kind: catalog.kind, title: catalog.title, sessions: catalog.sessions }) },
      {
        pattern: /^\/api\/session\/([A-Za-z0-9_-]+)\/meta$/,
        handle: async (_request, response, [id]) => {
          if (!catalog.streamPath(id)) return sendText(response, 404, `no stream for session ${id}`);
          sendJson(response, await meta(id));
        },
      },
      {
        pattern: /^\/api\/session\/([A-Za-z0-9_-]+)\/chunk\/(\d+)$/,
        handle: (_request, response, [id, index]) => {
          const reader = readerFor(id);
          const i = Number(index);
          if (!reader || i >= reader.chunks.length) return sendText(response, 404, `no chunk ${index} in session ${id}`);
          try {
            const { stored, rawBytes } = reader.storedChunk(i);
            response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': stored.length, 'X-Raw-Bytes': String(rawBytes), 'Cache-Control': 'no-store' });
            response.end(stored);
          } catch (err) {
            if (!(err instanceof StreamDamageError)) throw err;
            sendText(response, 422, err.message);
          }
        },
      },
      {
        pattern: /^\/api\/session\/([A-Za-z0-9_-]+)\/timeline$/,
        handle: async (_request, response, [id]) => {
          const path = catalog.streamPath(id);
          if (!path) return sendText(response, 404, `no stream for session ${id}`);
          let timeline = timelines.get(id);
          if (!timeline) {
            timeline = worker.run<Timeline>({ kind: 'timeline', path });
            timelines.set(id, timeline);
          }
          sendJson(response, await timeline);
        },
      },
    ],
  });
  // Build the first session's description now, while the browser starts and loads three.js: building a
  // model compiles the scene and task schemas, the slowest step before the first frame.
  const first = catalog.sessions.find((s) => s.hasStream);
  if (first) meta(first.id).catch(() => undefined); // the page's request reports any problem
  return {
    url: server.url,
    catalog,
    close: async () => {
      await server.close();
      await worker.close();
      for (const reader of readers.values()) reader.close();
    },
  };
}

/** Jobs for the worker thread, answered by number. */
class StreamWorker {
  private readonly worker = new Worker(STREAM_WORKER);
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private next = 0;

  constructor() {
    this.worker.on('message', ({ job, value, error }: { job: number; value?: unknown; error?: string }) => {
      const waiting = this.pending.get(job);
      this.pending.delete(job);
      if (error === undefined) waiting?.resolve(value);
      else waiting?.reject(new Error(error));
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', () => this.failAll(new Error('the viewer\'s worker thread stopped')));
  }

  run<T>(request: StreamRequest): Promise<T> {
    const number = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(number, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, job: number });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private failAll(err: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}
