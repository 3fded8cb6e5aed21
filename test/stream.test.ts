/**
 * The .xrs frame stream: lossless round trip, quantised bounds, random and columnar access, layout,
 * determinism of the bytes, and what happens to damaged, truncated and foreign files.
 */
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeEvents, inspectStream, runSession, StreamDamageError, StreamReader, XrsimInputError } from '../src/index.js';
import { CHUNK_HEADER_BYTES, HEADER_PREFIX_BYTES } from '../src/stream/format.js';
import { tempDir } from './helpers/cli.js';
import { recordWithFrames, type CapturedFrame } from './helpers/streams.js';

const SPEC = { task: 'physics/rolling-ball-checkpoints', seed: 5 };

let lossless: { path: string; frames: CapturedFrame[]; hash: string };

beforeAll(async () => {
  const recorded = await recordWithFrames(SPEC);
  lossless = { path: recorded.path, frames: recorded.frames, hash: recorded.result.hash };
});

describe('lossless round trip', () => {
  it('every frame reads back bit for bit, with its events', () => {
    const reader = StreamReader.open(lossless.path);
    try {
      expect(reader.frames).toBe(lossless.frames.length);
      let n = 0;
      for (const frame of reader.framesInOrder()) {
        const live = lossless.frames[n++];
        expect(frame.tick).toBe(live.tick);
        expect(frame.time).toBe(live.time);
        expect(Buffer.from(frame.bodyPoses.buffer, frame.bodyPoses.byteOffset, frame.bodyPoses.byteLength)).toEqual(
          Buffer.from(live.bodyPoses.buffer),
        );
        expect(Array.from(frame.events.subarray(0, frame.eventWords))).toEqual(Array.from(live.events));
      }
      expect(n).toBe(lossless.frames.length);
      expect(reader.sessionHash).toBe(lossless.hash);
    } finally {
      reader.close();
    }
  });

  it('the recorded events include the ball entering each checkpoint', () => {
    const reader = StreamReader.open(lossless.path);
    const names = new Set<string>();
    for (const frame of reader.framesInOrder()) for (const e of decodeEvents(frame.events, frame.eventWords)) names.add(e.name);
    reader.close();
    expect(names).toContain('sensor-enter');
    expect(names).toContain('contact-start');
  });

  it('gives random access to any tick, in any order', () => {
    const reader = StreamReader.open(lossless.path);
    try {
      for (const tick of [300, 0, 179, 180, 89, 90, reader.frames - 1, 45]) {
        const frame = reader.frameAt(tick);
        expect(frame.tick).toBe(tick);
        expect(Array.from(frame.bodyPoses)).toEqual(Array.from(lossless.frames[tick].bodyPoses));
      }
      expect(() => reader.frameAt(reader.frames)).toThrow(RangeError);
    } finally {
      reader.close();
    }
  });

  it('gives columnar access to one body over time', () => {
    const reader = StreamReader.open(lossless.path);
    try {
      const ids = reader.header.channels.find((c) => c.name === 'bodies')!.ids!;
      const ball = ids.indexOf('task:ball');
      const track = reader.poseTrack('bodies', 'task:ball');
      expect(track.length).toBe(reader.frames * 7);
      for (const tick of [0, 100, reader.frames - 1]) {
        expect(Array.from(track.subarray(tick * 7, tick * 7 + 7))).toEqual(Array.from(lossless.frames[tick].bodyPoses.subarray(ball * 7, ball * 7 + 7)));
      }
      const window = reader.poseTrack('bodies', undefined, 85, 95);
      expect(window.length).toBe(10 * ids.length * 7);
      expect(() => reader.poseTrack('bodies', 'task:nothing')).toThrow(XrsimInputError);
    } finally {
      reader.close();
    }
  });
});

describe('layout', () => {
  it('has a header with version, model hash, seed, full spec and channel table, chunks of ≥ 90 frames, a footer index', () => {
    const reader = StreamReader.open(lossless.path);
    try {
      const h = reader.header;
      expect(h.formatVersion).toBe(1);
      expect(h.modelHash).toMatch(/^[0-9a-f]{64}$/);
      expect(h.seed).toBe(5);
      expect(h.spec).toMatchObject({ task: 'physics/rolling-ball-checkpoints', scene: 'empty-lab', seed: 5, dominantHand: 'right' });
      expect(h.sources.task.id).toBe('physics/rolling-ball-checkpoints');
      expect(h.channels.map((c) => c.name)).toEqual(['time', 'bodies', 'head', 'hand-left', 'hand-right', 'contacts', 'events']);
      expect(reader.indexSource).toBe('footer');
      reader.chunks.slice(0, -1).forEach((c) => expect(c.frames).toBeGreaterThanOrEqual(90));
      expect(reader.chunks.reduce((s, c) => s + c.frames, 0)).toBe(reader.frames);
    } finally {
      reader.close();
    }
  });

  it('the same spec writes byte-identical files', async () => {
    const again = await recordWithFrames(SPEC);
    expect(readFileSync(again.path)).toEqual(readFileSync(lossless.path));
  });

  it('compresses lossless frames (XOR delta + byte shuffle + deflate)', () => {
    const report = inspectStream(lossless.path);
    expect(report.ok).toBe(true);
    expect(report.ratio).toBeGreaterThan(3);
  });
});

describe('quantised encoding', () => {
  it('stays within 0.1 mm and 1/32767, keeps raw-frame hashes, and is smaller than lossless', async () => {
    const q = await recordWithFrames(SPEC, 'quantised');
    expect(q.result.hash).toBe(lossless.hash);
    const reader = StreamReader.open(q.path);
    try {
      expect(reader.header.encoding.mode).toBe('quantised');
      let worstPosition = 0;
      let worstRotation = 0;
      for (const frame of reader.framesInOrder()) {
        const live = q.frames[frame.tick].bodyPoses;
        for (let i = 0; i < live.length; i++) {
          const error = Math.abs(frame.bodyPoses[i] - live[i]);
          if (i % 7 < 3) worstPosition = Math.max(worstPosition, error);
          else worstRotation = Math.max(worstRotation, error);
        }
      }
      expect(worstPosition).toBeLessThanOrEqual(0.5e-4 + 1e-6);
      expect(worstRotation).toBeLessThanOrEqual(0.5 / 32767 + 1e-6);
    } finally {
      reader.close();
    }
    expect(statSync(q.path).size).toBeLessThan(statSync(lossless.path).size);
  });
});

describe('damage', () => {
  function copyOf(path: string): string {
    const copy = join(tempDir(), 'copy.xrs');
    copyFileSync(path, copy);
    return copy;
  }

  it('one flipped byte in a chunk names that chunk; the chunks before it stay readable', () => {
    const path = copyOf(lossless.path);
    const reader = StreamReader.open(path);
    const target = reader.chunks[2];
    reader.close();
    const bytes = readFileSync(path);
    bytes[target.offset + CHUNK_HEADER_BYTES + 10] ^= 0x01;
    writeFileSync(path, bytes);

    const report = inspectStream(path);
    expect(report.ok).toBe(false);
    expect(report.damagedChunks).toEqual([2]);
    expect(report.chunks[2].error).toMatch(/chunk 2 \(ticks 180–269\).*CRC32 mismatch/);

    const damaged = StreamReader.open(path);
    try {
      expect(damaged.frameAt(0).tick).toBe(0);
      expect(damaged.frameAt(179).tick).toBe(179);
      expect(Array.from(damaged.frameAt(100).bodyPoses)).toEqual(Array.from(lossless.frames[100].bodyPoses));
      expect(() => damaged.frameAt(200)).toThrow(StreamDamageError);
      expect(damaged.frameAt(270).tick).toBe(270);
    } finally {
      damaged.close();
    }
  });

  it('a damaged footer falls back to scanning the chunks', () => {
    const path = copyOf(lossless.path);
    const bytes = readFileSync(path);
    bytes[bytes.length - 30] ^= 0xff; // inside the footer
    writeFileSync(path, bytes);
    const reader = StreamReader.open(path);
    try {
      expect(reader.indexSource).toBe('scan (footer damaged)');
      expect(reader.frames).toBe(lossless.frames.length);
      expect(reader.sessionHash).toBeNull();
    } finally {
      reader.close();
    }
  });

  it('a truncated file is refused as bad input, saying how much is recoverable', () => {
    const path = copyOf(lossless.path);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(() => StreamReader.open(path)).toThrow(XrsimInputError);
    expect(() => StreamReader.open(path)).toThrow(/truncated.*no footer.*complete chunk/);
    const recovered = StreamReader.open(path, { allowTruncated: true });
    try {
      expect(recovered.indexSource).toBe('scan (truncated)');
      expect(recovered.frames).toBeGreaterThan(0);
      expect(recovered.frameAt(0).tick).toBe(0);
    } finally {
      recovered.close();
    }
  });

  it('a file cut inside the header, a foreign file and a missing file are refused', () => {
    const dir = tempDir();
    const cut = join(dir, 'cut.xrs');
    writeFileSync(cut, readFileSync(lossless.path).subarray(0, HEADER_PREFIX_BYTES + 5));
    expect(() => StreamReader.open(cut)).toThrow(/truncated/);
    const foreign = join(dir, 'foreign.xrs');
    writeFileSync(foreign, JSON.stringify({ frames: [] }));
    expect(() => StreamReader.open(foreign)).toThrow(/not an xrsim frame stream/);
    expect(() => StreamReader.open(join(dir, 'missing.xrs'))).toThrow(/no such file/);
  });

  it('a session that crashes leaves a truncated stream whose complete chunks are readable', async () => {
    const path = join(tempDir(), 'crashed.xrs');
    const result = await runSession(
      { ...SPEC, record: { path } },
      {
        beforeStep: (_s, tick) => {
          if (tick === 200) throw new Error('simulated crash');
        },
      },
    );
    expect(result.status).toBe('errored');
    expect(result.error?.message).toBe('simulated crash');
    const reader = StreamReader.open(path, { allowTruncated: true });
    try {
      expect(reader.frames).toBe(180);
    } finally {
      reader.close();
    }
  });
});
