/**
 * The one loopback HTTP server of xrsim's local tools: the browser host serves app directories on it and the
 * viewer (`view/loopback-server.ts`) its page, vendored libraries and stream API. Nothing here knows about XR.
 *
 * - Listens on 127.0.0.1 only, at a port the system picks, and answers only requests addressed to that
 *   host and port (`127.0.0.1:PORT` or `localhost:PORT`): a web page elsewhere cannot reach it by DNS
 *   rebinding (403). Only GET and HEAD (405).
 * - A request path must be a plain absolute path: undecodable, NUL bytes, backslashes, `//` and `.`
 *   segments are refused with 400; a `..` segment (`../`, `%2e%2e`, encoded slashes) with 403.
 * - Serves files only from what is mounted: `routes` first (handlers by pattern), then fixed `mounts` (a
 *   URL prefix onto a folder, with an optional filter), then the dynamic `mount` (installed packages, with
 *   their filter), then `root` at `/` (a directory gives its index.html). Every file is served by its real
 *   path, which must lie inside the real path of its folder: a path that leaves its folder, before or after
 *   following symbolic links, is 403; a missing file, or one the filter refuses, 404.
 * - Optionally rewrites HTML (the browser host injects an import map) and adds headers to every answer
 *   (the viewer's Content-Security-Policy); `nosniff` always.
 */
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

/** A folder served under a URL prefix. */
export interface Mount {
  /** URL prefix, starting and ending with `/` (`/vendor/three/`). */
  prefix: string;
  /** The folder. */
  root: string;
  /** Extra filter on the path relative to the root (`/`-separated); default: every file. */
  allow?: (relativePath: string) => boolean;
}

/** A folder mounted on demand (an installed package): its directory, the path below it, and a filter as {@link Mount}'s. */
export interface PackageMount {
  dir: string;
  rest: string;
  allow?: (relativePath: string) => boolean;
}

/** A handler for requests whose (decoded) path matches a pattern; its groups are passed decoded. */
export interface Route {
  pattern: RegExp;
  handle(request: IncomingMessage, response: ServerResponse, groups: string[]): void | Promise<void>;
}

export interface StaticServerOptions {
  /** The directory served at `/` (none: only routes and mounts). */
  root?: string;
  /** Which of the root's files may be served, by path relative to it (`/`-separated); default all. */
  rootAllow?: (relativePath: string) => boolean;
  /** Folders served under URL prefixes. */
  mounts?: Mount[];
  /** Extra mounts resolved on demand: URL path (`/@pkg/three/...`) to its mount; null when unknown. */
  mount?: (pathname: string) => PackageMount | null;
  /** Handlers by path, tried first. */
  routes?: Route[];
  /** Headers added to every response. */
  headers?: Record<string, string>;
  /** Rewrites HTML documents before they are sent. */
  transformHtml?: (html: string, pathname: string) => string;
  /** Called for every refused request (400, 403, 404, 405). */
  onRefused?: (pathname: string, status: number) => void;
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.ktx2': 'image/ktx2',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.bin': 'application/octet-stream',
  '.hdr': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Starts a server on 127.0.0.1 at a random free port. */
export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = options.root === undefined ? null : await realpath(options.root);
  const mounts = await Promise.all((options.mounts ?? []).map(async (m) => ({ ...m, realRoot: await realpath(m.root) })));
  let port = 0;
  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendText(res, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawPath = (req.url ?? '/').split(/[?#]/)[0];
    const refuse = (status: number, why: string) => {
      options.onRefused?.(rawPath, status);
      sendText(res, status, why);
    };
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return refuse(403, 'this server answers only requests to its own loopback address');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405, 'only GET and HEAD');
    const path = classifyPath(rawPath);
    if (path === 'malformed') return refuse(400, 'refused: the path is not a plain path');
    if (path === 'traversal') return refuse(403, 'forbidden: the path leaves what this server serves');
    for (const route of options.routes ?? []) {
      const match = route.pattern.exec(path);
      if (match) return route.handle(req, res, match.slice(1));
    }
    let base: string | null = null;
    let rest = path;
    let allow: ((relativePath: string) => boolean) | undefined;
    const fixed = mounts.find((m) => path.startsWith(m.prefix));
    const dynamic = fixed ? null : options.mount?.(path);
    if (fixed) [base, rest, allow] = [fixed.realRoot, path.slice(fixed.prefix.length), fixed.allow];
    else if (dynamic) [base, rest, allow] = [await realpath(dynamic.dir).catch(() => null), dynamic.rest, dynamic.allow];
    else [base, allow] = [root, options.rootAllow];
    if (!base) return refuse(404, 'not found');
    const file = await confine(base, rest);
    if (file === 'outside') return refuse(403, 'forbidden: the path leaves what this server serves');
    if (file === null || (allow && !allow(relative(base, file).split(sep).join('/')))) return refuse(404, 'not found');
    const headers = { 'Content-Type': contentType(file), 'Cache-Control': 'no-store' };
    if (options.transformHtml && /\.html?$/i.test(file)) {
      const html = options.transformHtml(await readFile(file, 'utf8'), path);
      res.writeHead(200, { ...headers, 'Content-Length': Buffer.byteLength(html) });
      res.end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': (await stat(file)).size });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  }

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The decoded path of a request target, `traversal` for a `..` segment, `malformed` for anything else not a plain absolute path. */
function classifyPath(raw: string): string | 'malformed' | 'traversal' {
  if (!raw.startsWith('/')) return 'malformed';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return 'malformed';
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return 'malformed';
  const segments = decoded.split('/').slice(1);
  if (segments.includes('..')) return 'traversal';
  // An empty last segment is a trailing slash; anywhere else, an empty segment is `//`.
  if (segments.some((s, i) => s === '.' || (s === '' && i < segments.length - 1))) return 'malformed';
  return decoded;
}

/**
 * The decoded path of a request target, or null when it is not a plain absolute path: undecodable, with
 * NUL bytes, backslashes, empty, `.` or `..` segments after decoding.
 */
export function safePath(target: string): string | null {
  const path = classifyPath(target.split('?')[0].split('#')[0]);
  return path === 'malformed' || path === 'traversal' ? null : path;
}

/**
 * The real path of `urlPath` under `base` (a directory gives its index.html), 'outside' when it
 * escapes `base` (before or after following symlinks), or null when there is no such file.
 */
export async function confine(base: string, urlPath: string): Promise<string | 'outside' | null> {
  const relativePath = urlPath.replace(/^\/+/, '');
  if (isAbsolute(relativePath)) return 'outside';
  const candidate = resolve(base, relativePath);
  if (!isInside(base, candidate)) return 'outside';
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return null;
  }
  if (!isInside(base, real)) return 'outside';
  const info = await stat(real);
  if (info.isDirectory()) return confine(base, `${relative(base, real)}/index.html`);
  return info.isFile() ? real : null;
}

/** Whether `path` is `base` or below it (both already resolved; no link is followed here). */
export function isInside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..'));
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
