/**
 * The viewer's server: xrsim's one loopback server (`browser/static-server.ts`: 127.0.0.1 only, requests to
 * its own host and port only, plain paths only, nothing outside its folders), with the viewer's policy on
 * top: mounted folders serve only the file types listed here (an allow-list: a folder of the package holds
 * more than the page needs), and its API is routes.
 */
import { extname } from 'node:path';
import { startStaticServer, type Mount, type Route } from '../browser/static-server.js';

export { safePath, sendJson, sendText, type Mount, type Route } from '../browser/static-server.js';

/** Content types the viewer serves from its mounts, by file extension; other files are 404. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
};

/** What to serve. */
export interface LoopbackServerOptions {
  mounts?: Mount[];
  routes?: Route[];
  /** Headers added to every response (a Content-Security-Policy, for example). */
  headers?: Record<string, string>;
}

/** A running server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 at a port the system picks. */
export async function startLoopbackServer(options: LoopbackServerOptions): Promise<LoopbackServer> {
  const listed = (path: string) => CONTENT_TYPES[extname(path)] !== undefined;
  const mounts = (options.mounts ?? []).map((m) => ({ ...m, allow: (path: string) => listed(path) && (m.allow?.(path) ?? true) }));
  const server = await startStaticServer({ mounts, routes: options.routes, headers: options.headers });
  return { url: server.url, port: server.port, close: () => server.close() };
}
