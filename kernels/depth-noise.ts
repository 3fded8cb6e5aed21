/**
 * From an ideal depth image to what a depth sensor reports: mixed pixels at depth edges, range limits,
 * holes at grazing angles, random dropouts, a distance-dependent Gaussian error and bias, then quantisation
 * to whole millimetres (0 = no reading). The parameters are documented in `src/task/noise-presets.ts`.
 *
 * Every random draw is counter-based (`counter-rng.ts`): a pure function of the session's noise key, the
 * sensor frame number and the pixel, so rows can be measured in any order, or only some of them, with the
 * same result. Dropouts are a Bernoulli process along each row, drawn as geometric gaps between dropped
 * pixels (one draw per dropout rather than one per pixel). Nothing is allocated per frame.
 */
import { CounterStream, mix32, normalFromInt32, ZIGGURAT_K, ZIGGURAT_LAYER_MASK, ZIGGURAT_W } from './counter-rng.js';

/** The parameters of the depth noise model (all distances in metres). */
export interface DepthNoiseModel {
  /** Nearest and farthest depth the sensor reports; outside it a pixel reads 0 (no reading). */
  minRange: number;
  maxRange: number;
  /** Standard deviation of the Gaussian error at depth z: `sigma0 + sigma1·z + sigma2·z²`. */
  sigma0: number;
  sigma1: number;
  sigma2: number;
  /** Mean error (bias) at depth z: `bias1·z`. */
  bias1: number;
  /**
   * Grazing-angle holes: where the cosine of the angle between the pixel's ray and the surface normal is
   * below `grazingCosFull` a pixel is always a hole; between that and `grazingCosStart` the probability of a
   * hole falls linearly to zero.
   */
  grazingCosFull: number;
  grazingCosStart: number;
  /** Probability that any valid pixel drops out anyway (specular spots, low return). */
  dropout: number;
  /** A pixel next to a depth step larger than this (4-neighbourhood) is an edge pixel, metres. */
  edgeStep: number;
  /** Probability that an edge pixel is a mixed ("flying") pixel: a blend of its depth and its neighbour's. */
  mixedPixel: number;
}

/** Scratch for the ziggurat's rare slow path (see measureDepth). */
const slowNormal = new Float64Array(1);

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

  private edges = new Uint8Array(0);

  /** @param key 32 bits drawn from the session's `depth-noise` stream */
  constructor(key: number) {
    this.error = new CounterStream(mix32(key ^ 0x2545f491));
    this.mixed = new CounterStream(mix32(key ^ 0x6c8e9cf5));
    this.grazing = new CounterStream(mix32(key ^ 0x1b873593));
    this.dropout = new CounterStream(mix32(key ^ 0x7f4a7c15));
  }

  /** Scratch flags for `pixels` pixels (reused from frame to frame). */
  edgeFlags(pixels: number): Uint8Array {
    if (this.edges.length < pixels) this.edges = new Uint8Array(pixels);
    return this.edges;
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
 * those must be rendered too.
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
  if (!noise) {
    for (let row = rowStart; row < rowEnd; row++) {
      for (let i = row * width + colStart; i < row * width + colEnd; i++) out[i] = quantise(depth[i], p.minRange, p.maxRange);
    }
    return;
  }
  noise.seek(frame);
  const edges = p.mixedPixel > 0 ? noise.edgeFlags(width * height) : null;
  if (edges) flagSteps(depth, width, height, p.edgeStep, edges, rowStart, rowEnd, colStart, colEnd);
  const { error, mixed, grazing } = noise;
  const grazingSpan = p.grazingCosStart - p.grazingCosFull;
  const { minRange, maxRange, bias1, sigma0, sigma1, sigma2, edgeStep, mixedPixel, grazingCosFull, grazingCosStart } = p;
  const em = error.multiplier;
  const eo = error.offset;
  for (let row = rowStart; row < rowEnd; row++) {
    const o = row * width;
    for (let col = colStart; col < colEnd; col++) {
      const i = o + col;
      let z = depth[i];
      if (z === Infinity) {
        out[i] = 0;
        continue;
      }
      if (edges !== null && edges[i] === 1) {
        // One draw decides whether an edge pixel is mixed and, given that it is (uniform in [0, mixedPixel)),
        // how much: drawn first, since most edge pixels are not mixed and need no more than that.
        const u = mixed.uniform(i);
        if (u < mixedPixel) {
          // The neighbour across the largest depth step, if it is a step at all (neighbours with no surface
          // do not count).
          let step = 0;
          if (col > 0) step = largerStep(step, depth[i - 1] - z);
          if (col < width - 1) step = largerStep(step, depth[i + 1] - z);
          if (row > 0) step = largerStep(step, depth[i - width] - z);
          if (row < height - 1) step = largerStep(step, depth[i + width] - z);
          if (Math.abs(step) > edgeStep) z += (u / mixedPixel) * step;
        }
      }
      const cos = incidence[i];
      if (cos < grazingCosFull || (cos < grazingCosStart && grazing.uniform(i) < (grazingCosStart - cos) / grazingSpan) || z < minRange || z > maxRange) {
        out[i] = 0;
        continue;
      }
      // mix32 and the ziggurat's fast path, written out: V8 would box their int32 and double results if it
      // did not inline the calls, and that allocation costs more than the arithmetic.
      let h = (Math.imul(i, em) + eo) | 0;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      const layer = h & ZIGGURAT_LAYER_MASK;
      const m = h >> 7;
      // |m| without a branch: the sign is random, so a branch would be mispredicted half the time.
      let gaussian = m * ZIGGURAT_W[layer];
      if ((m ^ (m >> 31)) - (m >> 31) >= ZIGGURAT_K[layer]) {
        // The rare rejection, through a typed array: merged with the fast path's number, a call's result
        // (if V8 does not inline it) would make it box every pixel's number.
        slowNormal[0] = normalFromInt32(h);
        gaussian = slowNormal[0];
      }
      z += bias1 * z + (sigma0 + sigma1 * z + sigma2 * z * z) * gaussian;
      out[i] = millimetres(z);
    }
  }
  if (p.dropout > 0) dropOut(noise.dropout, p.dropout, width, out, rowStart, rowEnd, colStart, colEnd);
}

/**
 * Marks in `edges` (1) every pixel of the window (rows `rowStart`..`rowEnd − 1`, columns `colStart`..
 * `colEnd − 1`) that differs from a 4-neighbour by more than `edgeStep` (or has no surface next to a
 * surface): the only candidates for mixed pixels. Each horizontal and vertical pair is compared once.
 * (Flags just outside the window may be set too; they are not read.)
 */
function flagSteps(depth: Float32Array, width: number, height: number, edgeStep: number, edges: Uint8Array, rowStart: number, rowEnd: number, colStart: number, colEnd: number): void {
  for (let row = rowStart; row < rowEnd; row++) edges.fill(0, row * width + colStart, row * width + colEnd);
  const firstCol = Math.max(0, colStart - 1);
  for (let row = Math.max(0, rowStart - 1); row < Math.min(height, rowEnd + 1); row++) {
    const o = row * width;
    const below = row < height - 1;
    for (let col = firstCol; col < colEnd; col++) {
      const i = o + col;
      const z = depth[i];
      if (col < width - 1 && Math.abs(depth[i + 1] - z) > edgeStep) {
        edges[i] = 1;
        edges[i + 1] = 1;
      }
      if (below && Math.abs(depth[i + width] - z) > edgeStep) {
        edges[i] = 1;
        edges[i + width] = 1;
      }
    }
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
 * z metres in whole millimetres, 1 to MAX_DEPTH_MM. ⌊x + 0.5⌋ equals Math.round(x) for every x of at least
 * 1 (and anything smaller becomes 1 either way); unlike Math.round it compiles without a branch on the
 * fraction, which noise makes random.
 */
function millimetres(z: number): number {
  const mm = Math.floor(z * 1000 + 0.5);
  return mm < 1 ? 1 : mm > MAX_DEPTH_MM ? MAX_DEPTH_MM : mm;
}

/** The step of larger magnitude, ignoring neighbours with no surface. */
function largerStep(current: number, candidate: number): number {
  return candidate !== Infinity && Math.abs(candidate) > Math.abs(current) ? candidate : current;
}
