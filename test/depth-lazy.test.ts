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
const PIXELS = join(ROOT, 'test/fixtures/apps/depth-pixels.mjs');

/**
 * Runs a spec; returns its hash, every frame's hash, the app's depth reports, and the camera's work. With
 * `readImages`, also a checksum of every frame's recorded depth image, read as the recorder reads it.
 */
async function run(spec: SessionSpec, eager: boolean, readImages = false) {
  DepthSensor.eager = eager;
  const session = await createSession(spec);
  const frameHashes: string[] = [];
  const reports: unknown[] = [];
  const images: number[] = [];
  const result = await session.run({
    onFrame(frame, s) {
      frameHashes.push(s.state.frameHash.join(':'));
      for (const e of decodeEvents(frame.events, frame.eventWords)) if (e.type === EventType.AppEvent) reports.push(e.payload);
      const image = readImages ? frame.depthImage : null;
      if (image) images.push(checksum(image));
    },
  });
  const counts = { ...session.sensing.depth!.counts };
  return { hash: result.hash, status: result.status, frameHashes, reports, images, counts, ticks: result.ticks };
}

function checksum(values: Uint16Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum = (Math.imul(sum, 31) + values[i]) | 0;
  return sum;
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
    expect(eager.counts).toEqual({ rendered: frames, latticeRendered: 0, measured: frames, windowsRendered: 0 });
    expect(lazy.counts.measured).toBeLessThan(frames * 0.6);
    expect(lazy.counts.rendered).toBeLessThan(frames * 0.6);
  });

  it('give the same recorded depth images when the recorder reads them', async () => {
    const spec: SessionSpec = { task: 'xr/depth-bounce', scene: 'kitchen', seed: 2, dominantHand: 'left' };
    const lazy = await run(spec, false, true);
    const eager = await run(spec, true, true);
    expect(lazy.status).toBe('passed');
    const frames = Math.floor((lazy.ticks / 90) * 30) + 1;
    expect(lazy.images).toHaveLength(frames);
    expect(new Set(lazy.images).size).toBeGreaterThan(frames / 2);
    expect(lazy.images).toEqual(eager.images);
    expect(lazy.frameHashes).toEqual(eager.frameHashes);
    expect(lazy.hash).toBe(eager.hash);
    expect(lazy.counts.measured).toBe(eager.counts.measured);
  });

  it('answer single pixels, of the latest frame and of one kept from long ago, as whole frames do', async () => {
    // The app reads four pixels of every frame, and pixels and then the whole image of a frame it kept at
    // tick 40, long after the camera moved on and the actors carried the tray in. Nothing else reads depth
    // (its images are recorded, but no recorder runs): the camera renders only around the pixels read.
    const spec: SessionSpec = { task: 'xr/depth-bounce', scene: 'living-room', app: PIXELS, seed: 5 };
    const lazy = await run(spec, false);
    const eager = await run(spec, true);
    expect(lazy.reports.length).toBeGreaterThan(600);
    const named = (name: string) => lazy.reports.filter((r) => Buffer.from(Uint32Array.from(r as number[]).buffer).toString().includes(name)).length;
    expect(named('kept-pixels')).toBeGreaterThan(30);
    expect(named('kept-image')).toBe(1);
    expect(lazy.reports).toEqual(eager.reports);
    expect(lazy.frameHashes).toEqual(eager.frameHashes);
    expect(lazy.hash).toBe(eager.hash);
    const frames = Math.floor((lazy.ticks / 90) * 30) + 1;
    expect(lazy.counts.measured).toBe(0);
    // Whole renders only when the room is about to change (the tray carried in, then raised).
    expect(lazy.counts.rendered).toBeLessThanOrEqual(2);
    // Four pixels a frame: each rendered in a 3×3 window (mixed pixels read their 4-neighbours).
    expect(lazy.counts.windowsRendered).toBeLessThanOrEqual(frames * 4);
    expect(lazy.counts.windowsRendered).toBeGreaterThan(frames);
  });

  it('give the recorder the same images whether or not an app read pixels of them first', async () => {
    const spec: SessionSpec = { task: 'xr/depth-bounce', scene: 'office', app: PIXELS, seed: 6, sensing: { depth: { noise: 'phone-tof', format: 'float32' } } };
    const lazy = await run(spec, false, true);
    const eager = await run(spec, true, true);
    expect(lazy.images.length).toBeGreaterThan(100);
    expect(lazy.images).toEqual(eager.images);
    expect(lazy.reports).toEqual(eager.reports);
    expect(lazy.hash).toBe(eager.hash);
  });

  it('reuse the image of a still camera in an unchanged room, and only that', async () => {
    // The hands are not drawn, so once the head has turned the image changes only with the tray.
    const spec: SessionSpec = { task: 'xr/depth-bounce', scene: 'office', seed: 4, sensing: { depth: { includeHands: false } } };
    const lazy = await run(spec, false, true);
    const eager = await run(spec, true, true);
    expect(lazy.images).toEqual(eager.images);
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
