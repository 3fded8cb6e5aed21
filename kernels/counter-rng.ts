/**
 * Counter-based random numbers: each draw is a pure function of (key, frame, counter), so any pixel's or
 * joint's noise can be computed alone, in any order, or not at all, with bit-identical results.
 *
 * A stream is a 32-bit key (drawn once from a session's seedrandom stream). For each frame, the key and the
 * frame number are mixed into a Weyl sequence: an odd multiplier (with enough bit transitions, as
 * SplitMix chooses its gammas) and an offset. Draw c of that frame is Murmur3's 32-bit finaliser of
 * `c · multiplier + offset`, a bijective avalanche mix. Two frames get unrelated multipliers, so their
 * sequences are not shifted copies of each other.
 *
 * Gaussian draws use the ziggurat method (Marsaglia & Tsang, "The Ziggurat Method for Generating Random
 * Variables", J. Stat. Softw. 5(8), 2000) with 128 layers: 7 bits of the draw choose the layer and the other
 * 25 bits the signed position in it, so about 99 % of draws cost one hash and one table lookup. The rare
 * rejections draw further numbers from a sequence seeded by the draw itself, still a pure function of the
 * counter.
 * Only `Math.imul`, shifts, adds, `Math.exp`, `Math.log` and `Math.sqrt` are used (as seedrandom's
 * Box–Muller draws did), so results are the same on every machine.
 */

/** Murmur3's 32-bit finaliser: a bijection on 32-bit integers whose every output bit depends on every input bit. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

/** 2^-32: turns a 32-bit draw into [0, 1). */
export const U32_TO_UNIT = 1 / 4294967296;

/**
 * One stream's Weyl sequence for one frame: draw c is `mix32(c · multiplier + offset)`. Seek it to a frame
 * with {@link CounterStream.seek}; nothing is allocated per draw or per frame.
 */
export class CounterStream {
  /** Odd multiplier of the current frame's sequence. */
  multiplier = 1;
  /** Offset of the current frame's sequence. */
  offset = 0;
  /** The frame the sequence is for (−1 before the first seek). */
  frame = -1;

  /** @param key the stream's 32-bit key, drawn from a session's named seedrandom stream */
  constructor(readonly key: number) {}

  /** Points the sequence at `frame` (a tick or a sensor frame number, 0 ≤ frame < 2^32). */
  seek(frame: number): this {
    if (frame === this.frame) return this;
    this.frame = frame;
    const h = mix32(this.key ^ mix32(frame + 0x632be5ab));
    let m = mix32(h + 0x9e3779b9) | 1;
    // Multipliers with few bit transitions make weak Weyl sequences (SplitMix's mixGamma rule).
    if (popcount32(m ^ (m >>> 1)) < 12) m ^= 0xaaaaaaaa;
    this.multiplier = m;
    this.offset = mix32(h ^ 0x5bd1e995);
    return this;
  }

  /** Draw `counter` of the current frame, as a signed 32-bit integer. */
  int32(counter: number): number {
    return mix32((Math.imul(counter, this.multiplier) + this.offset) | 0);
  }

  /** Draw `counter` of the current frame, uniform in [0, 1). */
  uniform(counter: number): number {
    return (this.int32(counter) >>> 0) * U32_TO_UNIT;
  }

  /** Draw `counter` of the current frame, uniform in (0, 1): never 0, for logarithms. */
  uniformOpen(counter: number): number {
    return (this.int32(counter) >>> 0) * U32_TO_UNIT + U32_TO_UNIT / 2;
  }

  /** A standard normal number for `counter` of the current frame. */
  normal(counter: number): number {
    return normalFromInt32(this.int32(counter));
  }
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

// The ziggurat's tables: 128 layers of equal area under the standard normal density (Marsaglia & Tsang).
const LAYERS = 128;
/** x coordinate of the base strip's right edge. */
const R = 3.442619855899;
/** Area of each layer. */
const AREA = 9.91256303526217e-3;
/** Positions inside a layer are signed 25-bit integers: |m| < 2^24. */
const SCALE = 16777216;
/** Per layer: accept |m| below this without evaluating the density. */
const K = new Int32Array(LAYERS);
/** Per layer: m · W[layer] is the candidate x. */
const W = new Float64Array(LAYERS);
/**
 * The fast path's tables, for hot loops that inline it: with `layer = h & ZIGGURAT_LAYER_MASK` and
 * `m = h >> 7`, if |m| < ZIGGURAT_K[layer] the normal number is m · ZIGGURAT_W[layer]; else call
 * {@link normalFromInt32}(h).
 */
export const ZIGGURAT_K: Readonly<Int32Array> = K;
export const ZIGGURAT_W: Readonly<Float64Array> = W;
export const ZIGGURAT_LAYER_MASK = LAYERS - 1;
/** Per layer: the density at the layer's edge (for the rejection test of a pass that inlines it). */
const F = new Float64Array(LAYERS);
export const ZIGGURAT_F: Readonly<Float64Array> = F;
{
  let dn = R;
  let tn = dn;
  const q = AREA / Math.exp(-0.5 * dn * dn);
  K[0] = Math.floor((dn / q) * SCALE);
  K[1] = 0;
  W[0] = q / SCALE;
  W[LAYERS - 1] = dn / SCALE;
  F[0] = 1;
  F[LAYERS - 1] = Math.exp(-0.5 * dn * dn);
  for (let i = LAYERS - 2; i >= 1; i--) {
    dn = Math.sqrt(-2 * Math.log(AREA / dn + Math.exp(-0.5 * dn * dn)));
    K[i + 1] = Math.floor((dn / tn) * SCALE);
    tn = dn;
    F[i] = Math.exp(-0.5 * dn * dn);
    W[i] = dn / SCALE;
  }
}

/**
 * A standard normal number from a 32-bit draw `h` (for a random `h`). The ziggurat's fast path takes about
 * 99 % of draws; rejections continue with a sequence of further draws seeded by `h` itself, so the result
 * is a pure function of `h`.
 */
export function normalFromInt32(h: number): number {
  const layer = h & (LAYERS - 1);
  const m = h >> 7;
  if ((m < 0 ? -m : m) < K[layer]) return m * W[layer];
  return normalSlow(h);
}

/** Weyl increment of the rejection sequence. */
const GOLDEN = 0x9e3779b9;
let rejectionState = 0;

/** Next uniform in (0, 1) of the rejection sequence. */
function rejectionUniform(): number {
  rejectionState = (rejectionState + GOLDEN) | 0;
  return (mix32(rejectionState) >>> 0) * U32_TO_UNIT + U32_TO_UNIT / 2;
}

function normalSlow(h: number): number {
  rejectionState = h ^ 0x68e31da4;
  for (;;) {
    const layer = h & (LAYERS - 1);
    const m = h >> 7;
    const x = m * W[layer];
    if ((m < 0 ? -m : m) < K[layer]) return x;
    if (layer === 0) {
      // The tail beyond R (Marsaglia's method).
      let tx: number;
      let ty: number;
      do {
        tx = -Math.log(rejectionUniform()) / R;
        ty = -Math.log(rejectionUniform());
      } while (ty + ty < tx * tx);
      return m > 0 ? R + tx : -R - tx;
    }
    // The wedge between the layer's rectangle and the density.
    if (F[layer] + rejectionUniform() * (F[layer - 1] - F[layer]) < Math.exp(-0.5 * x * x)) return x;
    rejectionState = (rejectionState + GOLDEN) | 0;
    h = mix32(rejectionState);
  }
}
