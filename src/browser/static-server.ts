/**
 * A small static file server for app directories, on 127.0.0.1 only, at a random port.
 *
 * - Serves files under `root` and nothing else: a path that escapes it (`../`, `%2e%2e`, an absolute path,
 *   a symlink pointing out) is refused with 403; a missing file is 404. Only GET and HEAD.
 * - Optionally mounts locally installed npm packages at `/@pkg/<name>/...` (see `package-resolver.ts`),
 *   each confined to its own package directory the same way.
 * - Optionally rewrites HTML (the browser host injects an import map).
 *
 * General on purpose (the replay viewer needs one too): nothing here knows about XR.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

export interface StaticServerOptions {
  /** The directory served at `/`. */
  root: string;
  /** Extra mounts: URL prefix (`/@pkg/three/`) to a directory, resolved on demand; null when unknown. */
  mount?: (pathname: string) => { dir: string; rest: string } | null;
  /** Rewrites HTML documents before they are sent. */
  transformHtml?: (html: string, pathname: string) => string;
  /** Called for every refused or failed request (403, 404, 405, 400). */
  onRefused?: (pathname: string, status: number) => void;
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
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
  const root = await realpath(options.root);
  const server = createServer((req, res) => {
    handle(req, res, root, options).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, root: string, options: StaticServerOptions): Promise<void> {
  const refuse = (status: number, pathname: string) => {
    options.onRefused?.(pathname, status);
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(status === 403 ? 'forbidden\n' : status === 404 ? 'not found\n' : status === 405 ? 'method not allowed\n' : 'bad request\n');
  };
  const rawPath = (req.url ?? '/').split(/[?#]/)[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405, rawPath);
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return refuse(400, rawPath);
  }
  // The request target must be an origin-form path; NUL bytes and backslashes are never part of a served name.
  if (!pathname.startsWith('/') || pathname.includes('\0') || pathname.includes('\\')) return refuse(400, rawPath);
  const mounted = options.mount?.(pathname);
  const base = mounted ? await realpath(mounted.dir).catch(() => null) : root;
  if (!base) return refuse(404, rawPath);
  const rest = mounted ? mounted.rest : pathname;
  const file = await confine(base, rest);
  if (file === 'outside') return refuse(403, rawPath);
  if (file === null) return refuse(404, rawPath);
  const headers = { 'content-type': contentType(file), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (options.transformHtml && /\.html?$/i.test(file)) {
    const html = options.transformHtml(await readFile(file, 'utf8'), pathname);
    res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(html) });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  const size = (await stat(file)).size;
  res.writeHead(200, { ...headers, 'content-length': size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

/**
 * The real path of `urlPath` under `base` (a directory gives its index.html), 'outside' when it
 * escapes `base` (before or after following symlinks), or null when there is no such file.
 */
export async function confine(base: string, urlPath: string): Promise<string | 'outside' | null> {
  const relativePath = urlPath.replace(/^\/+/, '');
  if (isAbsolute(relativePath)) return 'outside';
  const candidate = resolve(base, relativePath);
  if (!inside(base, candidate)) return 'outside';
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return null;
  }
  if (!inside(base, real)) return 'outside';
  const info = await stat(real);
  if (info.isDirectory()) return confine(base, `${relative(base, real)}/index.html`);
  return info.isFile() ? real : null;
}

function inside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..'));
}
