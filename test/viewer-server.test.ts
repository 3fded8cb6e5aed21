/**
 * The viewer's server without a browser: it listens on loopback only, answers only requests addressed
 * to it, refuses every path that would leave what it serves, and hands out chunks exactly as stored.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackChunk } from '../src/stream/chunk-codec.js';
import { StreamReader } from '../src/stream/reader.js';
import { safePath, startLoopbackServer } from '../src/view/loopback-server.js';
import { startViewer, type Viewer } from '../src/view/server.js';
import type { SessionsResponse, StreamMeta, Timeline } from '../src/view/api-types.js';
import { tempDir, xrsim } from './helpers/cli.js';

/** A raw GET (the path is sent exactly as given, unlike fetch, which normalises `..`). */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

let stream: string;
let viewer: Viewer;
let port: number;

beforeAll(async () => {
  stream = join(tempDir(), 'session.xrs');
  const run = xrsim('run', '--task', 'xr/place-on-detected-plane', '--planes', '--depth', 'headset', '--duration', '2', '--out', stream, '--json');
  expect(run.json?.stream, run.stderr).toBe(stream);
  viewer = await startViewer(stream);
  port = Number(new URL(viewer.url).port);
});
afterAll(async () => {
  await viewer?.close();
});

describe('the viewer server', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (external) {
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: external.address, port }, () => {
          socket.destroy();
          resolve(false);
        });
        socket.on('error', () => resolve(true));
      });
      expect(refused, `port ${port} answered on ${external.address}`).toBe(true);
    }
  });

  it('answers only requests addressed to its own host and port (no DNS rebinding)', async () => {
    expect((await get(port, '/api/sessions')).status).toBe(200);
    expect((await get(port, '/api/sessions', { host: `localhost:${port}` })).status).toBe(200);
    expect((await get(port, '/api/sessions', { host: 'attacker.example' })).status).toBe(403);
    expect((await get(port, '/api/sessions', { host: `attacker.example:${port}` })).status).toBe(403);
    expect((await get(port, '/api/sessions', {}, 'POST')).status).toBe(405);
  });

  it('refuses paths that leave what it serves', async () => {
    // A `..` segment, however encoded, leaves what is served: forbidden.
    for (const path of ['/app/../../package.json', '/app/%2e%2e/%2e%2e/package.json', '/vendor/three/..%2f..%2f..%2fpackage.json']) {
      expect((await get(port, path)).status, path).toBe(403);
    }
    // Anything else that is not a plain path is malformed.
    for (const path of ['/app/..%5c..%5cpackage.json', '/app/src%00/view/page/main.js', '/vendor//three/three.module.js', '/app/./src/view/page/main.js', '/app/%E0%A4%A']) {
      expect((await get(port, path)).status, path).toBe(400);
    }
    // Served folders are an allow-list: the CLI's own modules, the sources and other files are not there.
    for (const path of ['/app/src/cli/main.js', '/app/src/view/server.js', '/app/package.json', '/vendor/three/three.cjs', '/vendor/fflate/index.mjs', '/api/session/nope/meta', '/api/session/stream/chunk/99']) {
      expect((await get(port, path)).status, path).toBe(404);
    }
    for (const path of ['/', '/app/src/view/page/main.js', '/app/src/stream/chunk-codec.js', '/app/kernels/chunk-transform.js', '/vendor/three/three.module.js', '/vendor/fflate/browser.js', '/vendor/three-addons/controls/OrbitControls.js']) {
      expect((await get(port, path)).status, path).toBe(200);
    }
    const page = await get(port, '/');
    expect(String(page.headers['content-security-policy'])).toMatch(/default-src 'none'; script-src 'self' 'sha256-[^']+'; connect-src 'self'/);
  });

  it('does not follow symbolic links out of a mounted folder', async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.js'), 'secret');
    mkdirSync(join(root, 'in'));
    writeFileSync(join(root, 'in', 'ok.js'), 'ok');
    symlinkSync(join(outside, 'secret.js'), join(root, 'in', 'link.js'));
    const server = await startLoopbackServer({ mounts: [{ prefix: '/files/', root }] });
    try {
      expect((await get(server.port, '/files/in/ok.js')).body.toString()).toBe('ok');
      expect((await get(server.port, '/files/in/link.js')).status).toBe(403);
      expect((await get(server.port, '/files/in/')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('safePath accepts plain paths and nothing else', () => {
    expect(safePath('/a/b.js?x=1')).toBe('/a/b.js');
    expect(safePath('/a%20b/c.js')).toBe('/a b/c.js');
    for (const bad of ['a/b', '/a/./b', '/a/../b', '/a/%2e%2e/b', '/a\\b', '/a%00', '//etc/passwd', '/%zz']) expect(safePath(bad), bad).toBeNull();
  });

  it('lists the session, describes its scene and hands out chunks exactly as stored', async () => {
    const sessions = JSON.parse((await get(port, '/api/sessions')).body.toString()) as SessionsResponse;
    expect(sessions.kind).toBe('stream');
    expect(sessions.sessions.map((s) => [s.id, s.task, s.hasStream])).toEqual([['stream', 'xr/place-on-detected-plane', true]]);
    const meta = JSON.parse((await get(port, '/api/session/stream/meta')).body.toString()) as StreamMeta;
    const reader = StreamReader.open(stream);
    try {
      expect(meta.frames).toBe(reader.frames);
      expect(meta.chunks.length).toBe(reader.chunks.length);
      expect(meta.sceneDescription.depthCamera?.width).toBe(reader.header.channels.find((c) => c.kind === 'depth')?.camera?.width);
      expect(meta.sceneDescription.objects.filter((o) => o.kind === 'static').length).toBeGreaterThan(3);
      expect(meta.sceneDescription.jointNames).toHaveLength(26);
      const last = reader.chunks.length - 1;
      const chunk = await get(port, `/api/session/stream/chunk/${last}`);
      expect(chunk.status).toBe(200);
      const raw = inflateRawSync(chunk.body);
      expect(raw.length).toBe(Number(chunk.headers['x-raw-bytes']));
      const decoded = unpackChunk(raw, last, reader.chunks[last].firstTick, reader.chunks[last].frames, meta.fixedBytes, meta.channels, meta.encoding);
      expect(Array.from(decoded.fixed)).toEqual(Array.from(reader.chunk(last).fixed));
    } finally {
      reader.close();
    }
  });

  it('builds the timeline: planes, events, traces and milestones scored on the replay', async () => {
    const timeline = JSON.parse((await get(port, '/api/session/stream/timeline')).body.toString()) as Timeline;
    expect(timeline.error).toBeNull();
    expect(timeline.planes.length).toBeGreaterThan(0);
    expect(timeline.tags.length).toBeGreaterThan(0);
    expect(timeline.eventCounts['tag-poses']).toBeGreaterThan(100);
    expect(timeline.events.every((e) => e.name !== 'tag-poses')).toBe(true);
    expect(timeline.milestones.map((m) => m.id)).toEqual(['placed-on-table', 'rests-where-placed', 'placed-once']);
    expect(timeline.traces.length).toBeGreaterThan(0);
  });
});
