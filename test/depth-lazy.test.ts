/**
 * Depth frames are rendered only when and where something reads them (DepthSensor). These tests run the
 * same sessions with a lazy camera and with one that renders and measures every frame in full when it is
 * taken, and require the same stream: the same hash, frame for frame, and the same depth wherever an app,
 * a hit test, plane detection or the recorder reads it. They also check that laziness did skip work.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createSession, DepthSensor, decodeEvents, EventType, type SessionSpec } from '../src/index.js';
import { ROOT } from './helpers/cli.js';

const SAMPLER = join(ROOT, 'test/fixtures/apps/depth-sampler.mjs');

/** Runs a spec; returns its hash, every frame's hash, the app's depth reports, and the camera's work. */
async function run(spec: SessionSpec, eager: boolean) {
  DepthSensor.eager = eager;
  const session = await createSession(spec);
  const frameHashes: string[] = [];
  const reports: unknown[] = [];
  const result = await session.run({
    onFrame(frame, s) {
      frameHashes.push(s.state.frameHash.join(':'));
      for (const e of decodeEvents(frame.events, frame.eventWords)) if (e.type === EventType.AppEvent) reports.push(e.payload);
    },
  });
  const counts = { ...session.sensing.depth!.counts };
  return { hash: result.hash, status: result.status, frameHashes, reports, counts, ticks: result.ticks };
}

afterEach(() => {
  DepthSensor.eager = false;
});

describe('lazy depth frames', () => {
  it('give the same stream as frames rendered in full when taken, read between frames, across room changes', async () => {
    // Unrecorded depth with noise and plane detection; the app reads depth and depth hit tests on every
    // 7th tick only; the actors carry a tray in and raise it (the room changes between frames).
    const spec: SessionSpec = {
      task: 'xr/depth-bounce',
      scene: 'living-room',
      app: SAMPLER,
      seed: 3,
      sensing: { depth: { record: false, noise: 'headset' }, planes: true },
    };
    const lazy = await run(spec, false);
    const eager = await run(spec, true);
    expect(lazy.reports.length).toBeGreaterThan(50);
    expect(lazy.reports).toEqual(eager.reports);
    expect(lazy.frameHashes).toEqual(eager.frameHashes);
    expect(lazy.hash).toBe(eager.hash);
    // Eager: every frame rendered and measured. Lazy: in full only what was read (or needed before a room
    // change), the half lattice for plane detection otherwise.
    const frames = Math.floor((lazy.ticks / 90) * 30) + 1;
    expect(eager.counts).toEqual({ rendered: frames, latticeRendered: 0, measured: frames });
    expect(lazy.counts.measured).toBeLessThan(frames * 0.6);
    expect(lazy.counts.rendered).toBeLessThan(frames * 0.6);
  });

  it('give the same recorded depth images (every frame is read by the recorder)', async () => {
    const spec: SessionSpec = { task: 'xr/depth-bounce', scene: 'kitchen', seed: 2, dominantHand: 'left' };
    const lazy = await run(spec, false);
    const eager = await run(spec, true);
    expect(lazy.status).toBe('passed');
    expect(lazy.frameHashes).toEqual(eager.frameHashes);
    expect(lazy.hash).toBe(eager.hash);
    expect(lazy.counts.measured).toBe(eager.counts.measured);
  });

  it('reuse the image of a still camera in an unchanged room, and only that', async () => {
    // The hands are not drawn, so once the head has turned the image changes only with the tray.
    const spec: SessionSpec = { task: 'xr/depth-bounce', scene: 'office', seed: 4, sensing: { depth: { includeHands: false } } };
    const lazy = await run(spec, false);
    const eager = await run(spec, true);
    expect(lazy.frameHashes).toEqual(eager.frameHashes);
    expect(lazy.hash).toBe(eager.hash);
    expect(lazy.counts.measured).toBe(eager.counts.measured);
    expect(lazy.counts.rendered).toBeLessThan(eager.counts.rendered * 0.6);
  });

  it('give the same detected planes when plane detection reads every other pixel of every other row', async () => {
    const spec: SessionSpec = { task: 'xr/place-on-detected-plane', scene: 'office', seed: 1 };
    const lazy = await run(spec, false);
    const eager = await run(spec, true);
    expect(lazy.status).toBe('passed');
    expect(lazy.frameHashes).toEqual(eager.frameHashes);
    expect(lazy.hash).toBe(eager.hash);
    expect(lazy.counts.measured).toBe(0);
  });
});
