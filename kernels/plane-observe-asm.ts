/**
 * Plane observation's per-pixel loop (`observeLattice` in `plane-observe.ts`) as an asm.js module, as the
 * rasterizer's loops are (`raster-asm.ts`): V8 compiles it through its WebAssembly pipeline, with no checks
 * of the arrays per pixel; an engine that does not validate it runs the same code, with the same results.
 * Its arithmetic is `observeLattice`'s, operation for operation, so it marks the same cells (the JavaScript
 * loop stays as the reference, and `test/fast-paths.test.ts` compares the two).
 *
 * The module reads one heap, so everything it reads lives there: the frame's depth and face ids and ray
 * tables, the observation grids
 * (the detector's `PlaneGrids` arrays are views of this heap: see {@link ObservationHeap.bind}), per-plane
 * stamps, per-plane counts and bounds of the cells newly seen, and a batch of tiles to read with the
 * planes each is read for. Where the JavaScript pass lists each new cell for its caller to count, the
 * kernel counts them itself and sets their bits in the packed copy.
 *
 * That heap is the rasterizer's own (`DepthRaster.heapUsed` says where its free end starts) whenever the
 * kernel's part fits in that free end: the module reads the frame where the rasterizer wrote it. Where it
 * does not fit, the kernel has a heap of its own and each frame is copied in (block copies, a few
 * microseconds at 160 × 120).
 */
import type { LatticeFrame, PlaneGrids } from './plane-observe.js';
import { PLANE_COEFFICIENTS } from './plane-observe.js';

/** Tiles a batch holds before it is read. */
export const TILE_BATCH = 256;
/** Numbers per plane in `frameStats`. */
export const FRAME_STATS = 5;
/** A least and a greatest index no cell has: the bounds in `frameStats` of a plane that saw nothing new. */
export const EMPTY_BOUNDS = Int32Array.of(0x7fffffff, -1);
/** A tile's plane count that reads it for every plane. */
export const EVERY_PLANE = -1;
/** Numbers per tile in a batch: columns, rows (lattice pixels), where its planes start, how many (−1: every plane). */
const TILE_INTS = 6;

/** The module's entry points. */
interface PlaneAsm {
  layout(depth: number, ids: number, rayX: number, rayY: number, faceMap: number, k: number, cols: number, rows: number, start: number, stamp: number, seen: number, bits: number, bitsStart: number, stats: number, tiles: number, tilePlanes: number, range: number): void;
  /** Reads `count` tiles of the batch on a `width`-wide frame's lattice `stride`; returns `found` plus the cells newly seen. */
  tiles(count: number, width: number, stride: number, faces: number, planes: number, found: number): number;
}

/** The module imports nothing. */
const FOREIGN = {};

/*
 * In the asm.js subset, as `raster-asm.ts` explains: `x | 0` and `+x` declare integers and doubles, double
 * locals start at 0.5, `~~` truncates a double as `| 0` does in JavaScript, and the returned keys differ
 * from the function names.
 */
/* eslint-disable */
// prettier-ignore
export function planeObserveAsm(stdlib: typeof globalThis, foreign: typeof FOREIGN, heap: ArrayBuffer): PlaneAsm {
  'use asm';
  var F32 = new stdlib.Float32Array(heap);
  var I32 = new stdlib.Int32Array(heap);
  var F64 = new stdlib.Float64Array(heap);
  var U8 = new stdlib.Uint8Array(heap);
  var imul = stdlib.Math.imul;
  var depthAt = 0, idsAt = 0, rayXAt = 0, rayYAt = 0, faceMapAt = 0, kAt = 0, colsAt = 0, rowsAt = 0, startAt = 0;
  var stampAt = 0, seenAt = 0, bitsAt = 0, bitsStartAt = 0, statsAt = 0, tilesAt = 0, tilePlanesAt = 0, rangeAt = 0, serial = 0;

  function setLayout(depth: number, ids: number, rayX: number, rayY: number, faceMap: number, k: number, cols: number, rows: number, start: number, stamp: number, seen: number, bits: number, bitsStart: number, stats: number, tiles: number, tilePlanes: number, range: number) {
    depth = depth | 0; ids = ids | 0; rayX = rayX | 0; rayY = rayY | 0; faceMap = faceMap | 0; k = k | 0; cols = cols | 0;
    rows = rows | 0; start = start | 0; stamp = stamp | 0; seen = seen | 0; bits = bits | 0; bitsStart = bitsStart | 0;
    stats = stats | 0; tiles = tiles | 0; tilePlanes = tilePlanes | 0; range = range | 0;
    depthAt = depth; idsAt = ids; rayXAt = rayX; rayYAt = rayY; faceMapAt = faceMap; kAt = k; colsAt = cols; rowsAt = rows;
    startAt = start; stampAt = stamp; seenAt = seen; bitsAt = bits; bitsStartAt = bitsStart; statsAt = stats;
    tilesAt = tiles; tilePlanesAt = tilePlanes; rangeAt = range;
    serial = 0;
  }

  function readTiles(count: number, width: number, stride: number, faces: number, planes: number, found: number) {
    count = count | 0; width = width | 0; stride = stride | 0; faces = faces | 0; planes = planes | 0; found = found | 0;
    var t = 0, at = 0, c0 = 0, c1 = 0, r0 = 0, r1 = 0, list = 0, listEnd = 0, stamped = 0, p = 0;
    var lr = 0, lc = 0, row = 0, line = 0, col = 0, i = 0, id = 0, plane = 0, last = 0, o = 0;
    var planeCols = 0, planeRows = 0, start = 0, c = 0, r = 0, cell = 0, words = 0, bitsStart = 0, word = 0, stat = 0;
    var minRange = 0.5, maxRange = 0.5, ry = 0.5, z = 0.5, rx = 0.5;
    var k0 = 0.5, cx = 0.5, cy = 0.5, cz = 0.5, k4 = 0.5, rx_ = 0.5, ry_ = 0.5, rz = 0.5;
    minRange = +F64[rangeAt >> 3];
    maxRange = +F64[(rangeAt + 8) >> 3];
    for (t = 0; (t | 0) < (count | 0); t = (t + 1) | 0) {
      at = (tilesAt + imul(t, 24)) | 0;
      c0 = I32[at >> 2] | 0;
      c1 = I32[(at + 4) >> 2] | 0;
      r0 = I32[(at + 8) >> 2] | 0;
      r1 = I32[(at + 12) >> 2] | 0;
      list = I32[(at + 16) >> 2] | 0;
      listEnd = (list + (I32[(at + 20) >> 2] | 0)) | 0;
      // A tile read for some planes only: stamp them with a serial of their own.
      stamped = 0;
      if ((I32[(at + 20) >> 2] | 0) >= 0) stamped = 1;
      if (stamped) {
        if ((serial | 0) >= 1073741823) {
          for (p = 0; (p | 0) < (planes | 0); p = (p + 1) | 0) I32[(stampAt + (p << 2)) >> 2] = 0;
          serial = 0;
        }
        serial = (serial + 1) | 0;
        for (p = list; (p | 0) < (listEnd | 0); p = (p + 1) | 0) I32[(stampAt + (I32[(tilePlanesAt + (p << 2)) >> 2] << 2)) >> 2] = serial;
      }
      for (lr = r0; (lr | 0) <= (r1 | 0); lr = (lr + 1) | 0) {
        row = imul(lr, stride) | 0;
        ry = +F64[(rayYAt + (row << 3)) >> 3];
        line = imul(row, width) | 0;
        // The coefficients of the plane met last in this row (see observeLattice).
        last = -1;
        col = imul(c0, stride) | 0;
        i = (line + col) | 0;
        for (lc = c0; (lc | 0) <= (c1 | 0); lc = (lc + 1) | 0, col = (col + stride) | 0, i = (i + stride) | 0) {
          id = I32[(idsAt + (i << 2)) >> 2] | 0;
          if ((id | 0) < 0) continue;
          if ((id | 0) >= (faces | 0)) continue;
          plane = I32[(faceMapAt + (id << 2)) >> 2] | 0;
          if ((plane | 0) < 0) continue;
          if (stamped) if ((I32[(stampAt + (plane << 2)) >> 2] | 0) != (serial | 0)) continue;
          z = +F32[(depthAt + (i << 2)) >> 2];
          if (z < minRange) continue;
          if (z > maxRange) continue;
          if ((plane | 0) != (last | 0)) {
            last = plane;
            o = (kAt + (plane << 6)) | 0;
            k0 = +F64[o >> 3];
            cx = +F64[(o + 8) >> 3];
            cy = +F64[(o + 16) >> 3] * ry;
            cz = +F64[(o + 24) >> 3];
            k4 = +F64[(o + 32) >> 3];
            rx_ = +F64[(o + 40) >> 3];
            ry_ = +F64[(o + 48) >> 3] * ry;
            rz = +F64[(o + 56) >> 3];
            planeCols = I32[(colsAt + (plane << 2)) >> 2] | 0;
            planeRows = I32[(rowsAt + (plane << 2)) >> 2] | 0;
            start = I32[(startAt + (plane << 2)) >> 2] | 0;
            words = (planeCols + 31) >>> 5;
            bitsStart = I32[(bitsStartAt + (plane << 2)) >> 2] | 0;
            stat = (statsAt + imul(plane, 20)) | 0;
          }
          rx = +F64[(rayXAt + (col << 3)) >> 3];
          c = ~~(k0 + z * (cx * rx + cy - cz));
          r = ~~(k4 + z * (rx_ * rx + ry_ - rz));
          if ((c | 0) < 0) c = 0;
          else if ((c | 0) >= (planeCols | 0)) c = (planeCols - 1) | 0;
          if ((r | 0) < 0) r = 0;
          else if ((r | 0) >= (planeRows | 0)) r = (planeRows - 1) | 0;
          cell = (imul(r, planeCols) + c) | 0;
          if (U8[(seenAt + start + cell) | 0] | 0) continue;
          U8[(seenAt + start + cell) | 0] = 1;
          // The packed copy the culled pass tests, and the plane's count and bounds of cells seen this frame.
          word = (bitsAt + ((bitsStart + imul(r, words) + (c >>> 5)) << 2)) | 0;
          I32[word >> 2] = I32[word >> 2] | (1 << (c & 31));
          I32[stat >> 2] = (I32[stat >> 2] | 0) + 1;
          if ((c | 0) < (I32[(stat + 4) >> 2] | 0)) I32[(stat + 4) >> 2] = c;
          if ((c | 0) > (I32[(stat + 8) >> 2] | 0)) I32[(stat + 8) >> 2] = c;
          if ((r | 0) < (I32[(stat + 12) >> 2] | 0)) I32[(stat + 12) >> 2] = r;
          if ((r | 0) > (I32[(stat + 16) >> 2] | 0)) I32[(stat + 16) >> 2] = r;
          found = (found + 1) | 0;
        }
      }
    }
    return found | 0;
  }

  return { layout: setLayout, tiles: readTiles };
}

/**
 * The module's heap and the views of it: the frame being observed, the observation grids, and the batch of
 * tiles. Laid out again only when a size changes (the frame's, the number of faces, planes, cells) or the
 * frame comes from another rasterizer.
 */
export class ObservationHeap {
  private asm: PlaneAsm | null = null;
  private buffer = new ArrayBuffer(0);
  /** Whether the heap is the frame's own (the rasterizer's), the kernel's part in its free end. */
  private shared = false;
  /** The sizes the heap is laid out for: width, height, faces, planes, cells, packed words. */
  private readonly sizes = new Int32Array(6).fill(-1);
  private depth = new Float32Array(0);
  private ids = new Int32Array(0);
  private rayX = new Float64Array(0);
  private rayY = new Float64Array(0);
  private range = new Float64Array(2);
  private faceMap = new Int32Array(0);
  private coefficients = new Float64Array(0);
  private cols = new Int32Array(0);
  private rows = new Int32Array(0);
  private seenStart = new Int32Array(0);
  private seen = new Uint8Array(0);
  private seenBits = new Int32Array(0);
  private seenBitsStart = new Int32Array(0);
  private tiles = new Int32Array(0);
  private tilePlanes = new Int32Array(0);
  /**
   * Per plane, FRAME_STATS numbers about the cells newly seen in the frame being observed: how many, then
   * their least and greatest column and row (EMPTY_BOUNDS when none).
   */
  frameStats = new Int32Array(0);
  private tileCount = 0;
  private planesListed = 0;
  private width = 0;
  private stride = 1;

  /**
   * Makes the arrays of `grids` the kernel reads and writes (face map, coefficients, grid sizes, seen cells
   * and their packed copy) views of this heap, copying in any that were replaced since (a plane added, the
   * face map rebuilt); copies in `frame`'s depth, face ids and ray tables unless the heap is theirs (see the
   * file comment; `heapUsed`: the bytes of their heap its owner uses, 0 when unknown), and its range; clears
   * `frameStats`. Call before writing the frame's coefficients.
   */
  bind(grids: PlaneGrids, frame: LatticeFrame, heapUsed: number): void {
    const { width, height } = frame;
    const s = this.sizes;
    if (
      s[0] !== width || s[1] !== height || s[2] !== grids.faceMap.length || s[3] !== grids.cols.length || s[4] !== grids.seen.length ||
      s[5] !== grids.seenBits.length || (this.shared && frame.depth.buffer !== this.buffer)
    ) {
      // The new layout may reuse the bytes these lie in: move them out first.
      keepOut(grids, frame.depth.buffer);
      keepOut(grids, this.buffer);
      this.layOut(frame, heapUsed, grids.faceMap.length, grids.cols.length, grids.seen.length, grids.seenBits.length);
    }
    if (grids.faceMap !== this.faceMap) grids.faceMap = adopt(this.faceMap, grids.faceMap);
    if (grids.coefficients !== this.coefficients) grids.coefficients = adopt(this.coefficients, grids.coefficients);
    if (grids.cols !== this.cols) grids.cols = adopt(this.cols, grids.cols);
    if (grids.rows !== this.rows) grids.rows = adopt(this.rows, grids.rows);
    if (grids.seenStart !== this.seenStart) grids.seenStart = adopt(this.seenStart, grids.seenStart);
    if (grids.seen !== this.seen) grids.seen = adopt(this.seen, grids.seen);
    if (grids.seenBits !== this.seenBits) grids.seenBits = adopt(this.seenBits, grids.seenBits);
    if (grids.seenBitsStart !== this.seenBitsStart) grids.seenBitsStart = adopt(this.seenBitsStart, grids.seenBitsStart);
    const stats = this.frameStats;
    for (let o = 0; o < stats.length; o += FRAME_STATS) {
      stats[o] = 0;
      stats[o + 1] = EMPTY_BOUNDS[0];
      stats[o + 2] = EMPTY_BOUNDS[1];
      stats[o + 3] = EMPTY_BOUNDS[0];
      stats[o + 4] = EMPTY_BOUNDS[1];
    }
    if (!this.shared) {
      // The rasterizer's buffers are exactly this size (a longer one would throw here, never misread).
      this.depth.set(frame.depth);
      this.ids.set(frame.ids);
      this.rayX.set(frame.rayX);
      this.rayY.set(frame.rayY);
    }
    this.range[0] = frame.minRange;
    this.range[1] = frame.maxRange;
    this.width = width;
    this.stride = frame.stride;
    this.tileCount = 0;
    this.planesListed = 0;
  }

  /** Reads lattice columns `c0`..`c1`, rows `r0`..`r1` of the bound frame for every plane; returns `found` plus the cells newly seen. */
  observeAll(c0: number, c1: number, r0: number, r1: number, found: number): number {
    this.push(c0, c1, r0, r1, EVERY_PLANE);
    return this.flush(found);
  }

  /**
   * Adds a tile to read for the planes `list[from]`..`list[from + count − 1]` (every plane when `count` is
   * EVERY_PLANE); reads the batch when it is full. Returns `found` plus the cells newly seen so far (call
   * {@link flush} after the last tile).
   */
  addTile(c0: number, c1: number, r0: number, r1: number, list: Int32Array, from: number, count: number, found: number): number {
    const listed = count === EVERY_PLANE ? 0 : count;
    if (this.tileCount === TILE_BATCH || this.planesListed + listed > this.tilePlanes.length) found = this.flush(found);
    for (let i = 0; i < listed; i++) this.tilePlanes[this.planesListed + i] = list[from + i];
    this.push(c0, c1, r0, r1, count);
    this.planesListed += listed;
    return found;
  }

  /** Reads the tiles added; returns `found` plus the cells they newly saw. */
  flush(found: number): number {
    if (this.tileCount > 0) found = this.asm!.tiles(this.tileCount, this.width, this.stride, this.faceMap.length, this.cols.length, found);
    this.tileCount = 0;
    this.planesListed = 0;
    return found;
  }

  private push(c0: number, c1: number, r0: number, r1: number, count: number): void {
    const t = this.tiles, o = this.tileCount * TILE_INTS;
    t[o] = c0;
    t[o + 1] = c1;
    t[o + 2] = r0;
    t[o + 3] = r1;
    t[o + 4] = this.planesListed;
    t[o + 5] = count;
    this.tileCount++;
  }

  /**
   * Lays the heap out for these sizes, its views and module: in the free end of the frame's own heap when
   * `heapUsed` says where that starts and the rest fits there, so the frame needs no copy; else in a new heap.
   */
  private layOut(frame: LatticeFrame, heapUsed: number, faces: number, planes: number, cells: number, words: number): void {
    const { width, height } = frame;
    const pixels = width * height;
    const source = frame.depth.buffer;
    const inOne = heapUsed > 0 && source instanceof ArrayBuffer && frame.ids.buffer === source && frame.rayX.buffer === source && frame.rayY.buffer === source;
    let at = inOne ? Math.ceil(heapUsed / 8) * 8 : 0;
    const take = (bytes: number) => {
      const start = at;
      at += Math.ceil(bytes / 8) * 8;
      return start;
    };
    // 8-byte numbers first, as asm.js aligns them.
    const k = take(8 * planes * PLANE_COEFFICIENTS), range = take(16);
    const faceMap = take(4 * faces), cols = take(4 * planes), rows = take(4 * planes), start = take(4 * planes), stamp = take(4 * planes);
    const bits = take(4 * words), bitsStart = take(4 * planes), stats = take(4 * FRAME_STATS * planes);
    const tiles = take(4 * TILE_BATCH * TILE_INTS), tilePlanes = take(4 * TILE_BATCH * Math.max(1, planes));
    const seen = take(cells);
    this.shared = inOne && at <= source.byteLength;
    let rayX: number, rayY: number, depth: number, ids: number;
    if (this.shared) {
      rayX = frame.rayX.byteOffset;
      rayY = frame.rayY.byteOffset;
      depth = frame.depth.byteOffset;
      ids = frame.ids.byteOffset;
    } else {
      if (inOne) return this.layOut(frame, 0, faces, planes, cells, words);
      rayX = take(8 * width);
      rayY = take(8 * height);
      depth = take(4 * pixels);
      ids = take(4 * pixels);
    }
    let bytes = 4096;
    while (bytes < at && bytes < 1 << 24) bytes *= 2;
    if (bytes < at) bytes = Math.ceil(at / (1 << 24)) * (1 << 24);
    const buffer = (this.buffer = this.shared ? (source as ArrayBuffer) : new ArrayBuffer(bytes));
    this.rayX = new Float64Array(buffer, rayX, width);
    this.rayY = new Float64Array(buffer, rayY, height);
    this.depth = new Float32Array(buffer, depth, pixels);
    this.ids = new Int32Array(buffer, ids, pixels);
    this.coefficients = new Float64Array(buffer, k, planes * PLANE_COEFFICIENTS);
    this.range = new Float64Array(buffer, range, 2);
    this.faceMap = new Int32Array(buffer, faceMap, faces);
    this.cols = new Int32Array(buffer, cols, planes);
    this.rows = new Int32Array(buffer, rows, planes);
    this.seenStart = new Int32Array(buffer, start, planes);
    this.seenBits = new Int32Array(buffer, bits, words);
    this.seenBitsStart = new Int32Array(buffer, bitsStart, planes);
    this.frameStats = new Int32Array(buffer, stats, FRAME_STATS * planes);
    this.tiles = new Int32Array(buffer, tiles, TILE_BATCH * TILE_INTS);
    this.tilePlanes = new Int32Array(buffer, tilePlanes, TILE_BATCH * Math.max(1, planes));
    this.seen = new Uint8Array(buffer, seen, cells);
    // The free end of a heap is not zeroed by its owner: the stamps start at zero.
    new Int32Array(buffer, stamp, planes).fill(0);
    this.asm = planeObserveAsm(globalThis, FOREIGN, buffer);
    this.asm.layout(depth, ids, rayX, rayY, faceMap, k, cols, rows, start, stamp, seen, bits, bitsStart, stats, tiles, tilePlanes, range);
    this.sizes.set([width, height, faces, planes, cells, words]);
  }
}

/** Replaces the arrays of `grids` kept in `buffer` with copies (before the heap there is laid out again). */
function keepOut(grids: PlaneGrids, buffer: ArrayBufferLike): void {
  if (grids.faceMap.buffer === buffer) grids.faceMap = grids.faceMap.slice();
  if (grids.coefficients.buffer === buffer) grids.coefficients = grids.coefficients.slice();
  if (grids.cols.buffer === buffer) grids.cols = grids.cols.slice();
  if (grids.rows.buffer === buffer) grids.rows = grids.rows.slice();
  if (grids.seenStart.buffer === buffer) grids.seenStart = grids.seenStart.slice();
  if (grids.seen.buffer === buffer) grids.seen = grids.seen.slice();
  if (grids.seenBits.buffer === buffer) grids.seenBits = grids.seenBits.slice();
  if (grids.seenBitsStart.buffer === buffer) grids.seenBitsStart = grids.seenBitsStart.slice();
}

/** Copies `from` into `view` (a view of the heap, the same length) and returns the view. */
function adopt<T extends Int32Array | Float64Array | Uint8Array>(view: T, from: T): T {
  view.set(from as never);
  return view;
}
