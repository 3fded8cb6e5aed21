/**
 * The app server and installed packages, without a browser: loopback only, nothing outside the app
 * directory (`../`, encoded `%2e%2e`, absolute paths, symlinks out), bare imports through an import map,
 * and CDN URLs answered from the local copy of an installed package.
 */
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../../src/browser/static-server.js';
import { PackageResolver, parseCdnUrl } from '../../src/browser/packages.js';
import { injectImportMap } from '../../src/browser/browser-app.js';

/** A raw GET: the path is sent exactly as given (no client-side normalisation of `..`). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the app server', () => {
  let dir: string;
  let outside: string;
  let server: StaticServer;
  const refused: [string, number][] = [];
  beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), 'xrsim-server-'));
    dir = join(base, 'app');
    outside = join(base, 'secret');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body>app</body></html>');
    writeFileSync(join(dir, 'sub', 'a.js'), 'export const a = 1;');
    writeFileSync(join(outside, 'key.txt'), 'TOP SECRET');
    symlinkSync(outside, join(dir, 'escape'));
    symlinkSync(join(outside, 'key.txt'), join(dir, 'key-link.txt'));
    const packages = new PackageResolver(dir);
    server = await startStaticServer({
      root: dir,
      mount: (p) => packages.mount(p),
      transformHtml: (html) => injectImportMap(html, packages.importMap(['three'])),
      onRefused: (p, s) => refused.push([p, s]),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('listens on the loopback address only', async () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
    if (external) {
      // The same port on a non-loopback address refuses the connection.
      const reached = await new Promise<boolean>((done) => {
        const socket = connect({ host: external.address, port: server.port }, () => (socket.destroy(), done(true)));
        socket.on('error', () => done(false));
      });
      expect(reached).toBe(false);
    }
  });

  it('answers only requests addressed to its own host and port (no DNS rebinding), as the viewer does: it is the same server', async () => {
    expect((await get(server.port, '/sub/a.js', { host: `localhost:${server.port}` })).status).toBe(200);
    for (const host of ['attacker.example', `attacker.example:${server.port}`, `127.0.0.1:${server.port + 1}`]) {
      const r = await get(server.port, '/sub/a.js', { host });
      expect(r.status, host).toBe(403);
      expect(r.body).not.toContain('export const a');
    }
    expect(refused.some(([p, s]) => p === '/sub/a.js' && s === 403)).toBe(true);
  });

  it('serves files in the app directory, index.html for a directory, with the import map injected', async () => {
    const index = await get(server.port, '/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<head><script type="importmap">');
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(index.body)![1]);
    expect(map.imports.three).toBe('/@pkg/three/build/three.module.js');
    expect(map.imports['three/addons/']).toBe('/@pkg/three/examples/jsm/');
    expect((await get(server.port, '/sub/a.js')).body).toBe('export const a = 1;');
    const three = await get(server.port, '/@pkg/three/build/three.module.js');
    expect(three.status).toBe(200);
    expect(three.body).toContain('REVISION');
  });

  it.each([
    ['/../secret/key.txt'],
    ['/sub/../../secret/key.txt'],
    ['/%2e%2e/secret/key.txt'],
    ['/%2E%2E%2Fsecret%2Fkey.txt'],
    ['/sub/%2e%2e/%2e%2e/secret/key.txt'],
    ['/escape/key.txt'],
    ['/key-link.txt'],
    ['/@pkg/three/../../../package.json'],
    ['/@pkg/three/%2e%2e/%2e%2e/%2e%2e/package.json'],
  ])('refuses %s (outside the directory) with 403', async (path) => {
    const r = await get(server.port, path);
    expect(r.status).toBe(403);
    expect(r.body).not.toContain('TOP SECRET');
  });

  it.each([['/etc/passwd'], ['//etc/passwd'], ['/%2fetc%2fpasswd'], [`/${'x'.repeat(10)}.js`], ['/@pkg/not-a-package-xrsim/index.js']])('refuses %s (400 malformed, or 404)', async (path) => {
    const r = await get(server.port, path);
    expect([400, 403, 404]).toContain(r.status);
    expect(r.body).not.toMatch(/root:|TOP SECRET/);
  });

  it('refuses malformed paths and other methods, and reports every refusal', async () => {
    expect((await get(server.port, '/%E0%A4%A')).status).toBe(400);
    expect((await get(server.port, '/sub\\..\\..\\secret\\key.txt')).status).toBe(400);
    const post = await new Promise<number>((done) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/', method: 'POST' }, (res) => (res.resume(), done(res.statusCode ?? 0)));
      req.end('x');
    });
    expect(post).toBe(405);
    expect(refused.map(([, s]) => s)).toEqual(expect.arrayContaining([403, 404, 400, 405]));
  });
});

describe('installed packages and CDNs', () => {
  const packages = new PackageResolver(process.cwd());
  const version = JSON.parse(readFileSync('node_modules/three/package.json', 'utf8')).version as string;

  it('parses the usual CDN URLs', () => {
    expect(parseCdnUrl('https://unpkg.com/three@0.160.0/build/three.module.js')).toEqual({ name: 'three', version: '0.160.0', path: 'build/three.module.js', base: 'https://unpkg.com/three@0.160.0' });
    expect(parseCdnUrl('https://cdn.jsdelivr.net/npm/three@0.160/examples/jsm/webxr/XRHandModelFactory.js')).toEqual({ name: 'three', version: '0.160', path: 'examples/jsm/webxr/XRHandModelFactory.js', base: 'https://cdn.jsdelivr.net/npm/three@0.160' });
    expect(parseCdnUrl('https://esm.sh/three@0.170.0')).toEqual({ name: 'three', version: '0.170.0', path: '', base: 'https://esm.sh/three@0.170.0' });
    expect(parseCdnUrl('https://cdnjs.cloudflare.com/ajax/libs/three.js/r128/three.module.js')).toMatchObject({ name: 'three.js', version: 'r128' });
    expect(parseCdnUrl('https://unpkg.com/@scope/pkg@1.2.3/x.js')).toEqual({ name: '@scope/pkg', version: '1.2.3', path: 'x.js', base: 'https://unpkg.com/@scope/pkg@1.2.3' });
    expect(parseCdnUrl('https://example.com/three.js')).toBeNull();
  });

  it('answers a CDN request for an installed package from its local copy, whatever version it names', () => {
    const file = packages.cdnFile('https://unpkg.com/three@0.150.0/build/three.module.js');
    expect(file).toMatch(/node_modules\/three\/build\/three\.module\.js$/);
    expect(packages.cdnFile('https://esm.sh/three')).toMatch(/three\.module\.js$/);
    expect(packages.cdnFile('https://cdn.jsdelivr.net/npm/three/examples/jsm/webxr/XRHandModelFactory.js')).toMatch(/examples\/jsm\/webxr\/XRHandModelFactory\.js$/);
    expect(packages.cdnFile(`https://unpkg.com/three@${version}/../../package.json`)).toBeNull();
    expect(packages.cdnFile('https://unpkg.com/left-pad-not-installed-xrsim@1.0.0/index.js')).toBeNull();
    expect(packages.cdnFile('https://example.com/three/build/three.module.js')).toBeNull();
  });
});
