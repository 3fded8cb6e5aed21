/**
 * From an ideal depth image to what a depth sensor reports: mixed pixels at depth edges, range limits,
 * holes at grazing angles, random dropouts, a distance-dependent Gaussian error and bias, then quantisation
 * to whole millimetres (0 = no reading). The parameters are documented in `src/task/noise-presets.ts`.
 *
 * Every random draw is counter-based (`counter-rng.ts`): a pure function of the session's noise key, the
 * sensor frame number and the pixel, so rows can be measured in any order, or only some of them, with the
 * same result. Dropouts are a Bernoulli process along each row, drawn as geometric gaps between dropped
 * pixels (one draw per dropout rather than one per pixel). Nothing is allocated per frame.
 *
 * A whole frame is measured in WebAssembly SIMD (`depth-noise-simd.ts`, from `depth-noise.wat`), bit for bit
 * what the JS pass here (`measureDepthReference`) gives, at about a third of its time; the JS pass measures
 * windows and single pixels, and anything the SIMD pass does not serve. Either way the tail draws of the
 * ziggurat and the dropouts are finished here.
 */
import { CounterStream, mix32, U32_TO_UNIT, ZIGGURAT_K, ZIGGURAT_LAYER_MASK, ZIGGURAT_W } from './counter-rng.js';
import type { DepthNoiseModel } from './depth-noise-model.js';
import { simdPass, simdServes } from './depth-noise-simd.js';

export type { DepthNoiseModel } from './depth-noise-model.js';

// The literals the hot loop uses for these constants (see measureDepth).
if (U32_TO_UNIT !== 2.3283064365386963e-10 || ZIGGURAT_LAYER_MASK !== 127) throw new Error('depth-noise: the literals in measureDepth no longer match counter-rng.ts');

/** Largest value a uint16 millimetre reading holds. */
export const MAX_DEPTH_MM = 65535;

/** The noise model's random streams: one per kind of draw, all from one 32-bit key. */
export class DepthNoiseStreams {
  /** The Gaussian error: draw i of a frame is pixel i's. */
  readonly error: CounterStream;
  /** Mixed pixels: draw i decides pixel i and gives its blend. */
  readonly mixed: CounterStream;
  /** Grazing holes: draw i decides pixel i. */
  readonly grazing: CounterStream;
  /** Dropouts: row r's gaps are draws r·(width + 1), r·(width + 1) + 1, ... */
  readonly dropout: CounterStream;

  /**
   * Scratch for measureDepth (reused from frame to frame): the pixels whose Gaussian draw is one of the
   * ziggurat's rare rejections, and their depth before the error, finished after the main pass.
   */
  slowIndex = new Int32Array(0);
  slowDepth = new Float64Array(0);

  /** @param key 32 bits drawn from the session's `depth-noise` stream */
  constructor(key: number) {
    this.error = new CounterStream(mix32(key ^ 0x2545f491));
    this.mixed = new CounterStream(mix32(key ^ 0x6c8e9cf5));
    this.grazing = new CounterStream(mix32(key ^ 0x1b873593));
    this.dropout = new CounterStream(mix32(key ^ 0x7f4a7c15));
  }

  /** Makes the scratch big enough for images of `pixels` pixels (allocated once per size). */
  reserve(pixels: number): void {
    if (this.slowIndex.length < pixels) {
      this.slowIndex = new Int32Array(pixels);
      this.slowDepth = new Float64Array(pixels);
    }
  }

  /** Points every stream at sensor frame `frame`. */
  seek(frame: number): void {
    this.error.seek(frame);
    this.mixed.seek(frame);
    this.grazing.seek(frame);
    this.dropout.seek(frame);
  }
}

/**
 * Writes the sensor's reading of the ideal image `depth` (z-depth in metres, Infinity for nothing) into
 * `out` as millimetres, for rows `rowStart` to `rowEnd − 1` and columns `colStart` to `colEnd − 1` (all by
 * default). `incidence` is |cos| of each pixel's angle to the surface. `frame` is the sensor frame number,
 * which with `noise` fixes every draw. With `noise` null only the range limits and quantisation apply (the
 * `ideal` preset). Mixed pixels read the ideal depth of their 4-neighbours (also outside the window), so
 * those must be rendered too. Whole frames go to the SIMD pass where it serves them.
 */
export function measureDepth(
  depth: Float32Array,
  incidence: Float32Array,
  width: number,
  height: number,
  p: DepthNoiseModel,
  noise: DepthNoiseStreams | null,
  out: Uint16Array,
  frame = 0,
  rowStart = 0,
  rowEnd = height,
  colStart = 0,
  colEnd = width,
): void {
  const whole = rowStart === 0 && rowEnd === height && colStart === 0 && colEnd === width;
  const simd = noise && whole ? simdPass() : null;
  if (!noise || !simd || !simdServes(p, width, height, depth, incidence, out)) {
    measureDepthReference(depth, incidence, width, height, p, noise, out, frame, rowStart, rowEnd, colStart, colEnd);
    return;
  }
  noise.seek(frame);
  const slow = simd.run(depth, incidence, width, height, p, noise, out);
  finishRejections(noise.error, p, simd.slowIndex, simd.slowDepth, slow, out);
  if (p.dropout > 0) dropOut(noise.dropout, p.dropout, width, out, 0, height, 0, width);
}

/**
 * The pass in plain JS: the reference the SIMD pass (`depth-noise-simd.ts`) must match bit for bit, and what
 * measures windows (single pixels) and parameters or runtimes the SIMD pass does not serve. Same arguments
 * as {@link measureDepth}.
 */
export function measureDepthReference(
  depth: Float32Array,
  incidence: Float32Array,
  width: number,
  height: number,
  p: DepthNoiseModel,
  noise: DepthNoiseStreams | null,
  out: Uint16Array,
  frame = 0,
  rowStart = 0,
  rowEnd = height,
  colStart = 0,
  colEnd = width,
): void {
  if (!noise) {
    for (let row = rowStart; row < rowEnd; row++) {
      for (let i = row * width + colStart; i < row * width + colEnd; i++) out[i] = quantise(depth[i], p.minRange, p.maxRange);
    }
    return;
  }
  noise.seek(frame);
  noise.reserve(width * height);
  const { slowIndex, slowDepth } = noise;
  let slow = 0;
  const { minRange, maxRange, bias1, sigma0, sigma1, sigma2, mixedPixel, grazingCosFull, grazingCosStart } = p;
  const grazingSpan = grazingCosStart - grazingCosFull;
  // With no mixed pixels nothing is an edge: an infinite step is never exceeded.
  const edgeStep = mixedPixel > 0 ? p.edgeStep : Infinity;
  // The streams' Weyl sequences and the ziggurat's tables as locals, and constants as literals below (V8
  // reloads a module's constants every pixel but folds a literal). The loop calls nothing: a call anywhere
  // in it, even a rare one, makes V8 reload every array's length and address every pixel.
  const em = noise.error.multiplier, eo = noise.error.offset;
  const mm = noise.mixed.multiplier, mo = noise.mixed.offset;
  const gm = noise.grazing.multiplier, go = noise.grazing.offset;
  const zigguratW = ZIGGURAT_W, zigguratK = ZIGGURAT_K;
  const lastRow = height - 1, lastCol = width - 1;
  for (let row = rowStart; row < rowEnd; row++) {
    const o = row * width;
    // Offsets of the 4-neighbours above and below; at the image's edge the pixel itself (a step of 0).
    const up = row > 0 ? -width : 0;
    const down = row < lastRow ? width : 0;
    for (let col = colStart; col < colEnd; col++) {
      const i = o + col;
      let z = depth[i];
      if (z === Infinity) {
        out[i] = 0;
        continue;
      }
      // Edge pixels (a 4-neighbour more than edgeStep away, or with no surface) may be mixed. The test is
      // made here rather than in a pass of its own: four loads that hit the cache beat a flag per pixel.
      const left = col > 0 ? depth[i - 1] : z;
      const right = col < lastCol ? depth[i + 1] : z;
      if (Math.abs(left - z) > edgeStep || Math.abs(right - z) > edgeStep || Math.abs(depth[i + up] - z) > edgeStep || Math.abs(depth[i + down] - z) > edgeStep) {
        // One draw decides whether an edge pixel is mixed and, given that it is (uniform in [0, mixedPixel)),
        // how much: drawn first, since most edge pixels are not mixed and need no more than that.
        // (mix32 of the mixed stream's draw i, written out like every draw in this loop.)
        let hm = (Math.imul(i, mm) + mo) | 0;
        hm ^= hm >>> 16;
        hm = Math.imul(hm, 0x85ebca6b);
        hm ^= hm >>> 13;
        hm = Math.imul(hm, 0xc2b2ae35);
        hm ^= hm >>> 16;
        const u = (hm >>> 0) * 2.3283064365386963e-10; // U32_TO_UNIT
        if (u < mixedPixel) {
          // The neighbour across the largest depth step, if it is a step at all (neighbours with no surface
          // do not count; at the image's edge the pixel itself is its neighbour, a step of 0).
          let step = 0;
          let candidate = left - z;
          if (candidate !== Infinity && Math.abs(candidate) > Math.abs(step)) step = candidate;
          candidate = right - z;
          if (candidate !== Infinity && Math.abs(candidate) > Math.abs(step)) step = candidate;
          candidate = depth[i + up] - z;
          if (candidate !== Infinity && Math.abs(candidate) > Math.abs(step)) step = candidate;
          candidate = depth[i + down] - z;
          if (candidate !== Infinity && Math.abs(candidate) > Math.abs(step)) step = candidate;
          if (Math.abs(step) > edgeStep) z += (u / mixedPixel) * step;
        }
      }
      const cos = incidence[i];
      if (cos < grazingCosStart) {
        if (cos < grazingCosFull) {
          out[i] = 0;
          continue;
        }
        let hg = (Math.imul(i, gm) + go) | 0;
        hg ^= hg >>> 16;
        hg = Math.imul(hg, 0x85ebca6b);
        hg ^= hg >>> 13;
        hg = Math.imul(hg, 0xc2b2ae35);
        hg ^= hg >>> 16;
        if ((hg >>> 0) * 2.3283064365386963e-10 < (grazingCosStart - cos) / grazingSpan) {
          out[i] = 0;
          continue;
        }
      }
      if (z < minRange || z > maxRange) {
        out[i] = 0;
        continue;
      }
      // The error stream's draw i and the ziggurat's fast path, written out: V8 would box their int32 and
      // double results if it did not inline the calls, and that allocation costs more than the arithmetic.
      let h = (Math.imul(i, em) + eo) | 0;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      const layer = h & 127; // ZIGGURAT_LAYER_MASK
      const m = h >> 7;
      // |m| without a branch: the sign is random, so a branch would be mispredicted half the time.
      if ((m ^ (m >> 31)) - (m >> 31) >= zigguratK[layer]) {
        // A rejection (about 1 % of draws): finished after this loop, which then needs no call.
        slowIndex[slow] = i;
        slowDepth[slow] = z;
        slow++;
        continue;
      }
      z += bias1 * z + (sigma0 + sigma1 * z + sigma2 * z * z) * (m * zigguratW[layer]);
      // millimetres(z), written out: V8 does not inline it here.
      const x = z * 1000 + 0.5;
      out[i] = x < 1 ? 1 : x >= 65536 ? 65535 : x | 0; // MAX_DEPTH_MM = 65535
    }
  }
  finishRejections(noise.error, p, slowIndex, slowDepth, slow, out);
  if (p.dropout > 0) dropOut(noise.dropout, p.dropout, width, out, rowStart, rowEnd, colStart, colEnd);
}

/** The pixels whose error draw is a ziggurat rejection: `count` pixel indices and their depths before the error. */
function finishRejections(error: CounterStream, p: DepthNoiseModel, slowIndex: Int32Array, slowDepth: Float64Array, count: number, out: Uint16Array): void {
  const { bias1, sigma0, sigma1, sigma2 } = p;
  for (let k = 0; k < count; k++) {
    const z = slowDepth[k];
    out[slowIndex[k]] = millimetres(z + bias1 * z + (sigma0 + sigma1 * z + sigma2 * z * z) * error.normal(slowIndex[k]));
  }
}

/**
 * Dropouts: any pixel reads 0 with probability `probability`, independently of everything else, so they
 * are applied last. Along each row, the gaps between dropped pixels are geometric, ⌊ln u / ln(1 − p)⌋:
 * one draw per dropout (row r's are draws r·(width + 1), r·(width + 1) + 1, ...).
 */
function dropOut(stream: CounterStream, probability: number, width: number, out: Uint16Array, rowStart: number, rowEnd: number, colStart: number, colEnd: number): void {
  if (probability >= 1) {
    for (let row = rowStart; row < rowEnd; row++) out.fill(0, row * width + colStart, row * width + colEnd);
    return;
  }
  const gapScale = 1 / Math.log1p(-probability);
  for (let row = rowStart; row < rowEnd; row++) {
    // The gaps are walked from the row's start, whatever the window: a dropout's place depends on those before it.
    let draw = row * (width + 1);
    for (let col = Math.floor(Math.log(stream.uniformOpen(draw++)) * gapScale); col < colEnd; col += 1 + Math.floor(Math.log(stream.uniformOpen(draw++)) * gapScale)) {
      if (col >= colStart) out[row * width + col] = 0;
    }
  }
}

/** The reading of an exact depth: 0 outside the range, else whole millimetres (at least 1). */
function quantise(z: number, minRange: number, maxRange: number): number {
  if (z === Infinity || z < minRange || z > maxRange) return 0;
  return millimetres(z);
}

/**
 * z metres in whole millimetres, 1 to MAX_DEPTH_MM: ⌊x⌋ for x = z·1000 + 0.5, which equals Math.round(z·1000)
 * for every x of at least 1 (anything smaller becomes 1 either way). Clamped before it is truncated, so
 * `| 0` is ⌊x⌋ (x is then in [1, 65536)); unlike Math.round or Math.floor it needs no branch on the
 * fraction, which noise makes random, and no double result. (NaN, which no finite depth gives, reads 0 as
 * it did before.)
 */
function millimetres(z: number): number {
  const x = z * 1000 + 0.5;
  return x < 1 ? 1 : x >= MAX_DEPTH_MM + 1 ? MAX_DEPTH_MM : x | 0;
}
