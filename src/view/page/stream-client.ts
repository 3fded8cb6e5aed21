/**
 * Random access to a stream from the page: chunks are fetched as stored, inflated with fflate and decoded
 * with the same `unpackChunk` the Node reader uses. A few decoded chunks are kept (the one on screen and
 * its neighbours), and the next one is fetched ahead while playing.
 */
import { inflateSync } from 'fflate';
import { unpackChunk, type DecodedChunk } from '../../stream/chunk-codec.js';
import type { StreamMeta } from '../api-types.js';

/** Decoded chunks kept in memory. */
const CACHED_CHUNKS = 12;

/** One frame of a decoded chunk. Views share the chunk's buffers: copy what must outlive the next fetch. */
export class FrameAccess {
  private readonly wordsPerFrame: number;
  private readonly floats: Float32Array;

  constructor(
    readonly meta: StreamMeta,
    readonly chunk: DecodedChunk,
    readonly row: number,
  ) {
    this.wordsPerFrame = meta.fixedBytes / 4;
    this.floats = new Float32Array(chunk.fixed.buffer, chunk.fixed.byteOffset, chunk.fixed.length);
  }

  get tick(): number {
    return this.chunk.firstTick + this.row;
  }

  /** A fixed channel's floats, or undefined when the stream has no such channel. */
  channel(name: string, row = this.row): Float32Array | undefined {
    const c = this.meta.channels.find((d) => d.name === name);
    if (!c || c.offset === undefined || c.bytes === undefined) return undefined;
    const start = row * this.wordsPerFrame + c.offset / 4;
    return this.floats.subarray(start, start + c.bytes / 4);
  }

  /** This frame's event words. */
  events(): Uint32Array {
    return this.chunk.events.subarray(this.chunk.eventStarts[this.row], this.chunk.eventStarts[this.row + 1]);
  }

  /** The latest depth image at or before this frame within its chunk, with the row it was taken in. */
  latestDepth(): { image: Uint16Array; row: number } | null {
    const camera = this.meta.sceneDescription.depthCamera;
    if (!camera) return null;
    const pixels = camera.width * camera.height;
    for (let row = this.row; row >= 0; row--) {
      const k = this.chunk.depthIndex[row];
      if (k >= 0) return { image: this.chunk.depth.subarray(k * pixels, (k + 1) * pixels), row };
    }
    return null;
  }
}

/** Fetches and decodes chunks of one session. */
export class StreamClient {
  private readonly cache = new Map<number, Promise<DecodedChunk>>();
  /** Chunks fetched so far (for the page's status line and the tests). */
  fetched = 0;

  constructor(readonly meta: StreamMeta) {}

  /** The chunk holding `tick`. */
  chunkOf(tick: number): number {
    const chunks = this.meta.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (chunks[mid].firstTick <= tick) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The frame at `tick` (fetching its chunk if needed). */
  async frame(tick: number): Promise<FrameAccess> {
    const index = this.chunkOf(tick);
    const chunk = await this.chunk(index);
    return new FrameAccess(this.meta, chunk, tick - chunk.firstTick);
  }

  /** Starts fetching the chunk after the one holding `tick`. */
  prefetchAfter(tick: number): void {
    const next = this.chunkOf(tick) + 1;
    if (next < this.meta.chunks.length) void this.chunk(next).catch(() => undefined);
  }

  /** Chunk `index`, decoded. */
  chunk(index: number): Promise<DecodedChunk> {
    let pending = this.cache.get(index);
    if (pending) {
      // Most recently used last.
      this.cache.delete(index);
      this.cache.set(index, pending);
      return pending;
    }
    pending = this.load(index);
    pending.catch(() => this.cache.delete(index));
    this.cache.set(index, pending);
    while (this.cache.size > CACHED_CHUNKS) this.cache.delete(this.cache.keys().next().value!);
    return pending;
  }

  private async load(index: number): Promise<DecodedChunk> {
    const response = await fetch(`/api/session/${encodeURIComponent(this.meta.id)}/chunk/${index}`);
    if (!response.ok) throw new Error(`chunk ${index}: ${await response.text()}`);
    const rawBytes = Number(response.headers.get('X-Raw-Bytes'));
    const stored = new Uint8Array(await response.arrayBuffer());
    const raw = inflateSync(stored, { out: new Uint8Array(rawBytes) });
    this.fetched++;
    const { firstTick, frames } = this.meta.chunks[index];
    return unpackChunk(raw, index, firstTick, frames, this.meta.fixedBytes, this.meta.channels, this.meta.encoding);
  }
}
