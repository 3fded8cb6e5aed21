/**
 * verify: an untouched stream is identical; a deliberately perturbed re-run names the first divergent tick,
 * channel and body.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Frame } from '../src/frame/frame.js';
import { FrameHasher } from '../src/frame/hash.js';
import { StreamReader, StreamWriter, verifyStream } from '../src/index.js';
import { tempDir } from './helpers/cli.js';
import { recordWithFrames } from './helpers/streams.js';

describe('verifyStream', () => {
  it('reports identical for an untouched stream', async () => {
    const { path, result } = await recordWithFrames({ task: 'physics/stack-settle', seed: 4, dominantHand: 'left' });
    const report = await verifyStream(path);
    expect(report.identical).toBe(true);
    expect(report.firstDivergence).toBeNull();
    expect(report.compared).toBe(result.ticks + 1);
    expect(report.sessionHash.rerun).toBe(result.hash);
    expect(report.sessionHash.stream).toBe(result.hash);
  });

  it('names the first divergent tick, channel and body when the physics is perturbed', async () => {
    const { path } = await recordWithFrames({ task: 'physics/rolling-ball-checkpoints', seed: 2 });
    const report = await verifyStream(path, {
      beforeStep: (session, tick) => {
        if (tick === 121) session.applyImpulse('task:ball', [0, 0, 1e-4]);
      },
    });
    expect(report.identical).toBe(false);
    expect(report.firstDivergence).toMatchObject({ tick: 121, channel: 'bodies' });
    expect(report.firstDivergence!.detail).toMatch(/^task:ball /);
    expect(report.compared).toBe(122);
  });

  it('names the events channel when only the events differ', async () => {
    const { path } = await recordWithFrames({ task: 'physics/rolling-ball-checkpoints', seed: 2 });
    // Rewrite the stream with the first event of the first frame that has any dropped; poses untouched.
    const reader = StreamReader.open(path);
    const forged = join(tempDir(), 'forged.xrs');
    const writer = new StreamWriter(forged, reader.header);
    const frame = new Frame(reader.layout);
    const hasher = new FrameHasher(reader.layout, false);
    const hash = new Uint32Array(2);
    let editedTick = -1;
    for (const stored of reader.framesInOrder()) {
      frame.words.set(stored.words);
      let words = stored.events.subarray(0, stored.eventWords);
      if (editedTick < 0 && words.length > 0) {
        editedTick = stored.tick;
        words = words.subarray(1 + (words[0] & 0xffff));
      }
      frame.setEvents(words, words.length);
      hasher.digest(frame.words, frame.events, frame.eventWords, hash);
      writer.append(frame, hash);
    }
    writer.close(new Uint32Array(2));
    reader.close();

    const report = await verifyStream(forged);
    expect(report.identical).toBe(false);
    expect(report.firstDivergence).toMatchObject({ tick: editedTick, channel: 'events' });
  });

  it('names the depth channel when only a recorded depth pixel differs', async () => {
    // Frame hashes cover what fixes a depth image, not its pixels: verify compares the images themselves.
    const { path } = await recordWithFrames({ task: 'xr/depth-bounce', scene: 'office', seed: 3, duration: 1.5 });
    const reader = StreamReader.open(path);
    const forged = join(tempDir(), 'forged-depth.xrs');
    const writer = new StreamWriter(forged, reader.header);
    const frame = new Frame(reader.layout);
    const hash = new Uint32Array(2);
    let editedTick = -1;
    for (const stored of reader.framesInOrder()) {
      frame.words.set(stored.words);
      frame.setEvents(stored.events.subarray(0, stored.eventWords), stored.eventWords);
      frame.hasDepth = stored.hasDepth;
      if (stored.hasDepth) frame.depthPixels!.set(stored.depthImage!);
      if (stored.hasDepth && stored.tick > 60 && editedTick < 0) {
        editedTick = stored.tick;
        frame.depthPixels![4321] += 7;
      }
      [hash[0], hash[1]] = reader.hashAt(stored.tick);
      writer.append(frame, hash);
    }
    writer.close(new Uint32Array(2));
    reader.close();
    expect((await verifyStream(path)).identical).toBe(true);
    const report = await verifyStream(forged);
    expect(report.identical).toBe(false);
    expect(report.firstDivergence).toMatchObject({ tick: editedTick, channel: 'depth' });
    expect(report.firstDivergence!.detail).toMatch(/^pixel 4321: stored \d+ mm, re-run \d+ mm$/);
  });

  it('verifies a quantised stream by its raw-frame hashes', async () => {
    const { path } = await recordWithFrames({ task: 'physics/material-curling', seed: 9 }, 'quantised');
    expect((await verifyStream(path)).identical).toBe(true);
  });
});

describe('verifyStream on sessions built from a model', () => {
  it('rebuilds the exact model, overrides included', async () => {
    const { buildModel, loadScene, loadTask, Session } = await import('../src/index.js');
    const task = loadTask('physics/stack-settle');
    const model = buildModel(loadScene('kitchen'), task, { substeps: 2, duration: 1.5 });
    const path = join(tempDir(), 'from-model.xrs');
    const session = await Session.create(model, { seed: 6, dominantHand: 'left', record: { path } });
    const result = await session.run();
    const report = await verifyStream(path);
    expect(report.modelHash.rerun).toBe(model.hash);
    expect(report.identical).toBe(true);
    expect(report.sessionHash.rerun).toBe(result.hash);
  });
});
