/**
 * The numeric kernels: the frame hash, the chunk transform, quantisation and signed distances.
 */
import { describe, expect, it } from 'vitest';
import { decodeFrames, DeltaMode, encodeFrames } from '../kernels/chunk-transform.js';
import { Hasher64, hashToHex } from '../kernels/hash64.js';
import { dequantiseRow, quantiseRow } from '../kernels/quantise.js';
import { PrimitiveKind, PrimitiveType, SceneGeometry } from '../kernels/scene-geometry.js';
import { signedDistance } from '../kernels/sdf.js';
import { RandomStreams } from '../src/index.js';

function digest(words: number[], seed = 0): string {
  const h = new Hasher64();
  const out = new Uint32Array(2);
  h.reset(seed);
  h.update(new Uint32Array(words), words.length);
  h.digest(out);
  return hashToHex(out);
}

describe('Hasher64', () => {
  it('is stable: these digests are part of the stream format', () => {
    expect(digest([])).toBe(digest([]));
    expect(digest([1, 2, 3])).toMatchInlineSnapshot(`"3334cb3205e6c766"`);
    expect(digest([0xffffffff, 0, 42])).toMatchInlineSnapshot(`"c4c74f55acf871ee"`);
  });

  it('changes with any bit, with word order, with length and with the seed', () => {
    const base = digest([10, 20, 30, 40]);
    const seen = new Set([base]);
    for (let word = 0; word < 4; word++) {
      for (let bit = 0; bit < 32; bit++) {
        const words = [10, 20, 30, 40];
        words[word] = (words[word] ^ (1 << bit)) >>> 0;
        seen.add(digest(words));
      }
    }
    expect(seen.size).toBe(1 + 128);
    expect(digest([20, 10, 30, 40])).not.toBe(base);
    expect(digest([10, 20, 30, 40, 0])).not.toBe(base);
    expect(digest([10, 20, 30, 40], 1)).not.toBe(base);
  });

  it('hashes incrementally the same as in one call, however the words are split', () => {
    const data = new Uint32Array([1, 2, 3, 4, 5, 6, 7]);
    const whole = digest(Array.from(data));
    const h = new Hasher64();
    const a = new Uint32Array(2);
    for (const cuts of [[2], [1], [3, 4], [1, 2, 5], [0, 7]]) {
      h.reset();
      let from = 0;
      for (const cut of [...cuts, data.length]) {
        h.update(data, cut - from, from);
        from = cut;
      }
      h.digest(a);
      expect(hashToHex(a), `cut at ${cuts}`).toBe(whole);
    }
  });
});

describe('chunk transform', () => {
  it.each([DeltaMode.Xor, DeltaMode.Subtract])('round-trips random frames exactly (mode %i)', (mode) => {
    const rng = new RandomStreams(1).get('test');
    for (const [frames, words] of [[1, 1], [90, 7], [37, 64], [120, 1]]) {
      const src = new Uint32Array(frames * words).map(() => Math.floor(rng.next() * 2 ** 32));
      const bytes = new Uint8Array(frames * words * 4);
      encodeFrames(src, frames, words, mode, bytes);
      const back = new Uint32Array(frames * words);
      decodeFrames(bytes, frames, words, mode, back);
      expect(Array.from(back)).toEqual(Array.from(src));
    }
  });

  it('turns frames that do not change into zero bytes after the first', () => {
    const frames = 90;
    const words = 8;
    const src = new Uint32Array(frames * words);
    for (let f = 0; f < frames; f++) src.set([1, 2, 3, 4, 5, 6, 7, 8], f * words);
    const bytes = new Uint8Array(frames * words * 4);
    encodeFrames(src, frames, words, DeltaMode.Xor, bytes);
    const nonZero = bytes.reduce((n, b) => n + (b !== 0 ? 1 : 0), 0);
    expect(nonZero).toBe(8);
  });
});

describe('quantisation', () => {
  it('keeps positions within 0.05 mm, quaternion components within 1/65534, and raw words exact', () => {
    const rng = new RandomStreams(2).get('test');
    // Class per word: position, rotation or raw, cycling.
    const classes = new Uint8Array(3 * 60).map((_, i) => [1, 2, 0][i % 3]);
    const buffer = new ArrayBuffer(classes.length * 4);
    const asFloat = new Float32Array(buffer);
    const asInt = new Int32Array(buffer);
    asFloat.forEach((_, i) => (asFloat[i] = classes[i] === 1 ? (rng.next() - 0.5) * 20 : rng.next() * 2 - 1));
    const original = asFloat.slice();
    quantiseRow(asFloat, asInt, 0, classes);
    dequantiseRow(asInt, asFloat, 0, classes);
    for (let i = 0; i < classes.length; i++) {
      const tolerance = classes[i] === 1 ? 0.5e-4 + 1e-6 : classes[i] === 2 ? 0.5 / 32767 + 1e-7 : 0;
      expect(Math.abs(asFloat[i] - original[i])).toBeLessThanOrEqual(tolerance);
    }
  });
});

describe('RandomStreams', () => {
  it('gives each subsystem its own reproducible stream', () => {
    const a = new RandomStreams(5);
    const b = new RandomStreams(5);
    const firstA = [a.get('x').next(), a.get('x').next()];
    b.get('y').next(); // drawing from another subsystem does not shift x
    expect([b.get('x').next(), b.get('x').next()]).toEqual(firstA);
    expect(new RandomStreams(6).get('x').next()).not.toBe(firstA[0]);
  });
});

describe('signed distance to slabs and boxes', () => {
  it('gives a rectangular polygon slab the same distance and normal as the equal box, in either winding', () => {
    const random = new RandomStreams(5).get('sdf');
    const rotation = [0.1, 0.3, -0.2, 0.927];
    const norm = Math.hypot(...rotation);
    const q = rotation.map((v) => v / norm);
    const geometry = new SceneGeometry();
    geometry.add({ type: PrimitiveType.Box, kind: PrimitiveKind.Static, owner: 0, params: [0.4, 0.02, 0.25], position: [1, 0.7, -1], rotation: q });
    const slabs = [
      [[-0.4, -0.25], [0.4, -0.25], [0.4, 0.25], [-0.4, 0.25]],
      [[-0.4, -0.25], [-0.4, 0.25], [0.4, 0.25], [0.4, -0.25]],
    ] as [number, number][][];
    const slabGeometry = slabs.map((polygon) => {
      const g = new SceneGeometry();
      g.add({ type: PrimitiveType.Prism, kind: PrimitiveKind.Static, owner: 0, params: [0.02], polygon, position: [1, 0.7, -1], rotation: q });
      return g;
    });
    const n1 = new Float64Array(3), n2 = new Float64Array(3), owner = new Int32Array(1);
    for (let i = 0; i < 500; i++) {
      const p = [random.uniform(0.3, 1.7), random.uniform(0.4, 1.0), random.uniform(-1.7, -0.3)];
      const box = signedDistance(geometry, PrimitiveKind.Static, p[0], p[1], p[2], 1, n1, owner);
      for (const g of slabGeometry) {
        const slab = signedDistance(g, PrimitiveKind.Static, p[0], p[1], p[2], 1, n2, owner);
        expect(slab).toBeCloseTo(box, 9);
        if (box < 1) for (let k = 0; k < 3; k++) expect(n2[k]).toBeCloseTo(n1[k], 6);
      }
    }
  });
});
