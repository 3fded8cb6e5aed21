/**
 * The depth noise pass in WebAssembly SIMD (source: `depth-noise.wat`, bytes: `depth-noise-wasm.ts`): bit for
 * bit the reference pass of `depth-noise.ts` over a whole frame, four pixels at a time. One instance per
 * thread holds the frame: the ideal image is copied in (about 4 µs for 160×120), measured, and the reading
 * copied out; the few pixels whose Gaussian draw is a tail draw of the ziggurat (about 11 a frame: they
 * need Math.log) are listed for the caller to finish as the reference does, and the caller draws dropouts.
 * The design and its proof of bit-identity are in the header of `depth-noise.wat`.
 *
 * It serves the parameters a sensor has (`simdServes`); anything else, a window smaller than the frame, or a
 * runtime without WebAssembly SIMD runs the JS reference. The memory grows only for a larger frame than any
 * before, and the views of it are made again only when the frame size changes: nothing is allocated per frame.
 */
import { ZIGGURAT_F, ZIGGURAT_K, ZIGGURAT_W, type CounterStream } from './counter-rng.js';
import type { DepthNoiseModel } from './depth-noise-model.js';
import { DEPTH_NOISE_WASM } from './depth-noise-wasm.js';

type Measure = (
  w: number, h: number, depth: number, incidence: number, out: number, slowIdx: number, slowZ: number,
  em: number, eo: number, mm: number, mo: number, gm: number, go: number,
  minRange: number, maxRange: number, bias1: number, s0: number, s1: number, s2: number,
  edgesOn: number, edgeLo: number, edgeStep: number, mixedT: number, mixedPixel: number,
  grazeUp: number, gFull: number, gStart: number, gSpan: number,
  minUp: number, maxDown: number, plain: number, list: number, rejected: number, rowFlags: number,
) => number;

/** The part of the WebAssembly API used here (the project's TS libs do not declare it; Node and browsers have it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** The streams of `DepthNoiseStreams` the pass draws from, seeked to the frame. */
interface NoiseStreams {
  readonly error: CounterStream;
  readonly mixed: CounterStream;
  readonly grazing: CounterStream;
}

/** Bytes the module keeps for itself: the ziggurat's tables (128 × 16 and 128 × 8) and the lane-packing table. */
const RESERVED = 4096;
const PAGE = 65536;

/** The module's instance and its views of the current frame's buffers. */
class SimdPass {
  readonly measure: Measure;
  readonly memory: WasmMemory;
  pixels = 0;
  depth = new Float32Array(0);
  incidence = new Float32Array(0);
  out = new Uint16Array(0);
  /** The tail draws of the last pass: pixel indices and their depths before the error. */
  slowIndex = new Int32Array(0);
  slowDepth = new Float64Array(0);
  private readonly offsets = { depth: 0, incidence: 0, out: 0, slowIndex: 0, slowDepth: 0, list: 0, rejected: 0, rowFlags: 0 };

  constructor(exports: Record<string, unknown>) {
    this.measure = exports.measure as Measure;
    this.memory = exports.memory as WasmMemory;
    const table = new DataView(this.memory.buffer);
    for (let layer = 0; layer < 128; layer++) {
      table.setFloat64(layer * 16, ZIGGURAT_W[layer], true);
      table.setInt32(layer * 16 + 8, ZIGGURAT_K[layer], true);
      table.setFloat64(2048 + layer * 8, ZIGGURAT_F[layer], true);
    }
    // For each 4-bit lane mask, the numbers of its lanes packed to the front (lists lanes without a branch).
    for (let mask = 0; mask < 16; mask++) {
      let packed = 0;
      for (let lane = 0; lane < 4; lane++) if (mask & (1 << lane)) table.setInt32(3200 + mask * 16 + 4 * packed++, lane, true);
    }
  }

  /**
   * Lays out buffers for frames of `pixels` pixels, growing the memory if it must (views of exactly that
   * size, made again only when the frame size changes: a sensor keeps its size).
   */
  reserve(pixels: number): void {
    if (this.pixels === pixels) return;
    const aligned = (bytes: number) => Math.ceil(bytes / 16) * 16;
    const o = this.offsets;
    // The depth image has 16 bytes to spare on both sides: the SIMD loads of a row's neighbours reach past it.
    o.depth = RESERVED + 16;
    o.incidence = o.depth + aligned(pixels * 4) + 16;
    o.out = o.incidence + aligned(pixels * 4);
    o.slowIndex = o.out + aligned(pixels * 2);
    o.slowDepth = o.slowIndex + aligned(pixels * 4);
    o.list = o.slowDepth + aligned(pixels * 8);
    o.rejected = o.list + aligned(pixels * 4) + 16;
    o.rowFlags = o.rejected + aligned(pixels * 4) + 16;
    // The rows' flags need a row's width (at most the pixels) in i32.
    const bytes = o.rowFlags + aligned(pixels * 4);
    if (bytes > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE));
    const buffer = this.memory.buffer;
    this.depth = new Float32Array(buffer, o.depth, pixels);
    this.incidence = new Float32Array(buffer, o.incidence, pixels);
    this.out = new Uint16Array(buffer, o.out, pixels);
    this.slowIndex = new Int32Array(buffer, o.slowIndex, pixels);
    this.slowDepth = new Float64Array(buffer, o.slowDepth, pixels);
    this.pixels = pixels;
  }

  /** Measures a whole frame into `out` (see measureDepth) but for dropouts; returns the number of tail draws listed. */
  run(depth: Float32Array, incidence: Float32Array, width: number, height: number, p: DepthNoiseModel, noise: NoiseStreams, out: Uint16Array): number {
    this.reserve(width * height);
    this.depth.set(depth);
    this.incidence.set(incidence);
    const o = this.offsets;
    const { error, mixed, grazing } = noise;
    const edgesOn = p.mixedPixel > 0 && Number.isFinite(p.edgeStep);
    const slow = this.measure(
      width, height, o.depth, o.incidence, o.out, o.slowIndex, o.slowDepth,
      error.multiplier, error.offset, mixed.multiplier, mixed.offset, grazing.multiplier, grazing.offset,
      p.minRange, p.maxRange, p.bias1, p.sigma0, p.sigma1, p.sigma2,
      edgesOn ? 1 : 0, edgesOn ? f32Below(p.edgeStep) : 0, p.edgeStep, mixedThreshold(p.mixedPixel), p.mixedPixel,
      leastF32AtLeast(p.grazingCosStart), p.grazingCosFull, p.grazingCosStart, p.grazingCosStart - p.grazingCosFull,
      leastF32AtLeast(p.minRange), -leastF32AtLeast(-p.maxRange), p.bias1 === 0 && p.sigma0 === 0 && p.sigma1 === 0 ? 1 : 0, o.list, o.rejected, o.rowFlags,
    );
    out.set(this.out);
    return slow;
  }
}

let pass: SimdPass | null | undefined;

/** The thread's SIMD pass, or null where WebAssembly SIMD is missing (compiled on first use). */
export function simdPass(): SimdPass | null {
  if (pass === undefined) {
    pass = null;
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (wasm && wasm.validate(DEPTH_NOISE_WASM)) pass = new SimdPass(new wasm.Instance(new wasm.Module(DEPTH_NOISE_WASM), {}).exports);
  }
  return pass;
}

/**
 * Whether the SIMD pass computes exactly the reference's result for these parameters and buffers: rows a
 * whole number of lanes wide, an edge step whose f32 prefilter is sound (a normal float) and a mixed-pixel
 * probability below 1.
 */
export function simdServes(p: DepthNoiseModel, width: number, height: number, depth: Float32Array, incidence: Float32Array, out: Uint16Array): boolean {
  const pixels = width * height;
  if (width % 4 !== 0 || pixels === 0 || depth.length !== pixels || incidence.length !== pixels || out.length < pixels) return false;
  if (p.mixedPixel > 0 && Number.isFinite(p.edgeStep) && !(p.edgeStep >= 1e-30 && p.edgeStep <= 1e30)) return false;
  // A finite range and bounded error terms keep every valid depth finite and never NaN through the error.
  if (!Number.isFinite(p.minRange) || !Number.isFinite(p.maxRange)) return false;
  return bounded(p.bias1) && bounded(p.sigma0) && bounded(p.sigma1) && bounded(p.sigma2) && !(mixedThreshold(p.mixedPixel) > 0xffffffff);
}

function bounded(term: number): boolean {
  return Math.abs(term) <= 1e6;
}

/** The mixed draw h (as u32) is below mixedPixel, h·2^-32 < p, exactly when h < ⌈p·2^32⌉. */
function mixedThreshold(mixedPixel: number): number {
  const t = Math.ceil(mixedPixel * 4294967296);
  return t > 0 ? t : 0;
}

/**
 * An f32 below x by more than f32 rounding can move a difference: |a − b| > x in f64 implies |a − b| > it
 * in f32 (the f32 difference is within 2^-24 of the exact one), so the f32 test misses no edge.
 */
function f32Below(x: number): number {
  return Math.fround(x * (1 - 2 ** -16));
}

const bits = new Uint32Array(1);
const asFloat = new Float32Array(bits.buffer);

/** The least f32 at least x: for an f32 c, c < x exactly when c < it. */
function leastF32AtLeast(x: number): number {
  if (Number.isNaN(x)) return -Infinity;
  asFloat[0] = x;
  if (asFloat[0] < x) {
    // The next f32 up: one more in magnitude above 0, one less below it (±0 go to the least positive).
    if (asFloat[0] === 0) bits[0] = 1;
    else bits[0] += asFloat[0] > 0 ? 1 : -1;
  }
  return asFloat[0];
}
