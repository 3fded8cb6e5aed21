/**
 * A small HTTP server for local tools: it listens on 127.0.0.1 only (a random port), answers only requests
 * addressed to that host and port (so a web page elsewhere cannot reach it by DNS rebinding), and serves
 * files only from the folders mounted on it, refusing any path that would leave them (`..`, encoded
 * separators, NUL bytes, symbolic links out of the folder) and any file type not listed.
 *
 * It knows nothing about xrsim: the viewer mounts its page, three.js and fflate on it and adds its API as
 * routes. It is kept general so that other local pages (the browser host's static server) can share it.
 */
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';

/** Content types by file extension; only these extensions are served from mounts. */
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

/** A folder served under a URL prefix. */
export interface Mount {
  /** URL prefix, starting and ending with `/` (`/vendor/three/`). */
  prefix: string;
  /** The folder. */
  root: string;
  /** Extra filter on the path relative to the root (`/`-separated); default: every file of a listed type. */
  allow?: (relativePath: string) => boolean;
}

/** A handler for requests whose path matches a pattern; its groups are passed decoded. */
export interface Route {
  pattern: RegExp;
  handle(request: IncomingMessage, response: ServerResponse, groups: string[]): void | Promise<void>;
}

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
  const mounts = (options.mounts ?? []).map((m) => ({ ...m, realRoot: realpathSync(m.root) }));
  let port = 0;
  const server: Server = createServer((request, response) => {
    for (const [name, value] of Object.entries(options.headers ?? {})) response.setHeader(name, value);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    handle(request, response).catch((err: unknown) => {
      if (!response.headersSent) sendText(response, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = request.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return sendText(response, 403, 'this server answers only requests to its own loopback address');
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendText(response, 405, 'only GET and HEAD');
    const path = safePath(request.url ?? '');
    if (path === null) return sendText(response, 400, 'refused: the path is not a plain path inside this server');
    for (const route of options.routes ?? []) {
      const match = route.pattern.exec(path);
      if (match) return route.handle(request, response, match.slice(1));
    }
    for (const mount of mounts) {
      if (!path.startsWith(mount.prefix)) continue;
      const relative = path.slice(mount.prefix.length);
      const file = resolveInside(mount.realRoot, relative);
      const type = CONTENT_TYPES[extname(relative)];
      if (file === null || type === undefined || (mount.allow && !mount.allow(relative))) break;
      response.writeHead(200, { 'Content-Type': type, 'Content-Length': statSync(file).size, 'Cache-Control': 'no-cache' });
      if (request.method === 'HEAD') return void response.end();
      createReadStream(file).pipe(response);
      return;
    }
    sendText(response, 404, 'not found');
  }

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * The decoded path of a request target, or null when it is not a plain absolute path: undecodable, with
 * NUL bytes, backslashes, empty, `.` or `..` segments after decoding.
 */
export function safePath(target: string): string | null {
  const raw = target.split('?')[0].split('#')[0];
  if (!raw.startsWith('/')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').slice(1);
  // An empty last segment is a trailing slash; anywhere else, an empty segment is `//`.
  if (segments.some((s, i) => s === '.' || s === '..' || (s === '' && i < segments.length - 1))) return null;
  return decoded;
}

/** The real path of a regular file `relative` to `realRoot`, or null when it is missing or lies outside. */
function resolveInside(realRoot: string, relative: string): string | null {
  if (relative === '') return null;
  const candidate = resolve(realRoot, relative);
  if (!candidate.startsWith(realRoot + sep)) return null;
  try {
    const real = realpathSync(candidate);
    if (!real.startsWith(realRoot + sep) || !statSync(real).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

/** Sends a short plain-text answer. */
export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(text);
}

/** Sends a JSON answer. */
export function sendJson(response: ServerResponse, value: unknown, status = 200): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  response.end(body);
}
