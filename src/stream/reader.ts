/**
 * Reading a frame stream: random access to a tick, columnar access to a channel, and checks of every chunk.
 *
 * Opening refuses foreign and truncated files with an {@link XrsimInputError}. A chunk whose checksum fails
 * raises a {@link StreamDamageError} naming it, when (and only when) that chunk is read: the others stay
 * readable. If the footer index is damaged, chunks are found by scanning from the header.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32, inflateRawSync } from 'node:zlib';
import { StreamDamageError, XrsimInputError } from '../errors.js';
import { parseJsonText } from '../json/load.js';
import { Frame } from '../frame/frame.js';
import { findChannel, POSE_FLOATS, type FrameLayout } from '../frame/layout.js';
import { STREAM_FORMAT_VERSION } from '../version.js';
import { chunkSizeProblem } from './chunk-bounds.js';
import { depthCameraOf, depthImageBytes, unpackChunk, type DecodedChunk } from './chunk-codec.js';
import {
  CHUNK_HEADER_BYTES,
  CHUNK_MAGIC,
  FOOTER_ENTRY_BYTES,
  FOOTER_FIXED_BYTES,
  FOOTER_MAGIC,
  HEADER_MAGIC,
  HEADER_PREFIX_BYTES,
  TRAILER_BYTES,
  TRAILER_MAGIC,
  type ChunkIndexEntry,
  type StreamHeader,
} from './format.js';

/** The result of checking one chunk. */
export interface ChunkCheck {
  index: number;
  firstTick: number;
  frames: number;
  /** Bytes on disk: chunk header and deflated payload. */
  storedBytes: number;
  /** Bytes of the decoded frames (fixed sections and events); only for intact chunks. */
  rawFrameBytes?: number;
  ok: boolean;
  error?: string;
}

/** How the chunk index was obtained. */
export type IndexSource = 'footer' | 'scan (footer damaged)' | 'scan (truncated)';

/** Options for {@link StreamReader.open}. */
export interface OpenOptions {
  /** Open a stream with no footer (a crashed or killed writer) by scanning its complete chunks. */
  allowTruncated?: boolean;
  /**
   * Decode recorded depth images (default true). Readers that never look at them (videos of the scene)
   * pass false: frames then carry none, and reading a chunk skips unpacking them.
   */
  depthImages?: boolean;
}

/** A stream opened for reading. Call `close` when done. */
export class StreamReader {
  readonly header: StreamHeader;
  readonly layout: FrameLayout;
  /** Chunk index: offsets, first ticks and frame counts. */
  readonly chunks: readonly ChunkIndexEntry[];
  /** Total frames. */
  readonly frames: number;
  /** The chained session hash from the footer, as 16 hex digits; null when the footer is missing or damaged. */
  readonly sessionHash: string | null;
  readonly indexSource: IndexSource;
  /** Size of the file in bytes. */
  readonly fileBytes: number;
  /** Whether chunks are read with their depth images ({@link OpenOptions.depthImages}). */
  private depthImages = true;
  private readonly fd: number;
  private cached: DecodedChunk | undefined;
  private readonly frame: Frame;

  private constructor(
    readonly path: string,
    fd: number,
    parts: { header: StreamHeader; chunks: ChunkIndexEntry[]; sessionHash: string | null; indexSource: IndexSource; fileBytes: number },
  ) {
    this.fd = fd;
    this.header = parts.header;
    this.layout = { channels: parts.header.channels, fixedBytes: parts.header.fixedBytes };
    this.chunks = parts.chunks;
    this.frames = parts.chunks.reduce((sum, c) => sum + c.frames, 0);
    this.sessionHash = parts.sessionHash;
    this.indexSource = parts.indexSource;
    this.fileBytes = parts.fileBytes;
    this.frame = new Frame(this.layout);
  }

  /** Opens `path`. Throws {@link XrsimInputError} for a foreign or (unless allowed) truncated file. */
  static open(path: string, options: OpenOptions = {}): StreamReader {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new XrsimInputError(code === 'ENOENT' ? 'no such file' : String(err), { file: path, expected: 'an .xrs stream' });
    }
    try {
      const reader = new StreamReader(path, fd, readStructure(path, fd, options));
      reader.depthImages = options.depthImages !== false;
      return reader;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Frame for `tick`, decoded. The returned object is reused by the next call. */
  frameAt(tick: number): Frame {
    const { chunk, row } = this.locate(tick);
    this.fillFrame(chunk, row);
    return this.frame;
  }

  /** The stored 64-bit hash of the frame at `tick`, as [hi, lo]. */
  hashAt(tick: number): [number, number] {
    const { chunk, row } = this.locate(tick);
    return [chunk.hashes[row * 2], chunk.hashes[row * 2 + 1]];
  }

  /** Every frame in tick order. Each yielded frame is reused by the next iteration. */
  *framesInOrder(): Generator<Frame> {
    for (let i = 0; i < this.chunks.length; i++) {
      const chunk = this.chunk(i);
      for (let row = 0; row < chunk.frames; row++) {
        this.fillFrame(chunk, row);
        yield this.frame;
      }
    }
  }

  /**
   * Columnar access: one pose channel's entries over time, `frames × entries × 7` floats; or, with
   * `entryId` (`task:ball`), one entry's `frames × 7` floats. Ticks `from` (inclusive) to `to` (exclusive).
   */
  poseTrack(channel: string, entryId?: string, from = 0, to = this.frames): Float32Array {
    const descriptor = findChannel(this.layout, channel);
    if (!descriptor || descriptor.kind !== 'poses') {
      throw new XrsimInputError(`no pose channel "${channel}"`, { file: this.path, expected: this.poseChannelNames().join(', ') });
    }
    const ids = descriptor.ids ?? [];
    const entry = entryId === undefined ? -1 : ids.indexOf(entryId);
    if (entryId !== undefined && entry < 0) {
      throw new XrsimInputError(`no entry "${entryId}" in channel "${channel}"`, { file: this.path, expected: `one of ${ids.join(', ')}` });
    }
    const floats = entry < 0 ? ids.length * POSE_FLOATS : POSE_FLOATS;
    const firstWord = descriptor.offset! / 4 + (entry < 0 ? 0 : entry * POSE_FLOATS);
    const out = new Float32Array(Math.max(0, to - from) * floats);
    const wordsPerFrame = this.layout.fixedBytes / 4;
    for (let i = 0; i < this.chunks.length; i++) {
      const entryMeta = this.chunks[i];
      if (entryMeta.firstTick + entryMeta.frames <= from || entryMeta.firstTick >= to) continue;
      const chunk = this.chunk(i);
      const asFloat = new Float32Array(chunk.fixed.buffer);
      for (let row = 0; row < chunk.frames; row++) {
        const tick = chunk.firstTick + row;
        if (tick < from || tick >= to) continue;
        const start = row * wordsPerFrame + firstWord;
        out.set(asFloat.subarray(start, start + floats), (tick - from) * floats);
      }
    }
    return out;
  }

  /** Decodes chunk `i`, checking its CRC. Throws {@link StreamDamageError} naming it if damaged. */
  chunk(i: number): DecodedChunk {
    if (this.cached?.index === i) return this.cached;
    const { stored, rawBytes, damaged } = this.storedChunk(i);
    const entry = this.chunks[i];
    const { fixedBytes, channels, encoding } = this.header;
    let raw: Buffer;
    try {
      raw = inflateRawSync(stored, { maxOutputLength: rawBytes });
    } catch (err) {
      const tooLarge = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      throw damaged(tooLarge ? `it inflates to more than its recorded ${rawBytes} bytes` : `cannot inflate: ${(err as Error).message}`);
    }
    if (raw.length !== rawBytes) throw damaged(`it inflates to ${raw.length} bytes, not its recorded ${rawBytes}`);
    try {
      this.cached = unpackChunk(raw, i, entry.firstTick, entry.frames, fixedBytes, channels, encoding.mode, this.depthImages);
    } catch (err) {
      throw damaged(`its sections do not add up (${(err as Error).message})`);
    }
    return this.cached;
  }

  /**
   * Chunk `i` as stored (the deflated payload), its CRC and sizes checked, and its inflated size: random access for
   * readers that inflate elsewhere (the viewer's page). Throws {@link StreamDamageError} naming it if damaged.
   */
  storedChunk(i: number): { stored: Buffer; rawBytes: number; damaged: (why: string) => StreamDamageError } {
    const entry = this.chunks[i];
    if (!entry) throw new RangeError(`chunk ${i} is outside the stream (0–${this.chunks.length - 1})`);
    const head = Buffer.alloc(CHUNK_HEADER_BYTES);
    const damaged = (why: string) =>
      new StreamDamageError(`chunk ${i} (ticks ${entry.firstTick}–${entry.firstTick + entry.frames - 1}) is damaged: ${why}`, this.path, i);
    if (readSync(this.fd, head, 0, CHUNK_HEADER_BYTES, entry.offset) !== CHUNK_HEADER_BYTES) throw damaged('cut short');
    if (head.readUInt32LE(0) !== CHUNK_MAGIC) throw damaged('bad chunk marker');
    const storedBytes = head.readUInt32LE(20);
    if (entry.offset + CHUNK_HEADER_BYTES + storedBytes > this.fileBytes) throw damaged('stored size runs past the end of the file');
    // Sizes are checked before they size anything: a few stored bytes can claim, or inflate to, gigabytes.
    const rawBytes = head.readUInt32LE(16);
    const camera = depthCameraOf(this.header.channels);
    const shape = { fixedBytes: this.header.fixedBytes, chunkFrames: this.header.encoding.chunkFrames, depthImageBytes: camera && depthImageBytes(camera) };
    const problem = chunkSizeProblem(entry.frames, rawBytes, storedBytes, shape);
    if (problem) throw damaged(problem);
    const stored = Buffer.alloc(storedBytes);
    readSync(this.fd, stored, 0, storedBytes, entry.offset + CHUNK_HEADER_BYTES);
    if (crc32(stored, crc32(head.subarray(0, 24))) !== head.readUInt32LE(24)) throw damaged('CRC32 mismatch');
    if (head.readUInt32LE(4) !== i || head.readUInt32LE(8) !== entry.firstTick || head.readUInt32LE(12) !== entry.frames) {
      throw damaged('chunk header disagrees with the index');
    }
    return { stored, rawBytes, damaged };
  }

  /** Checks every chunk's CRC and decodability. Never throws for damage; reports it. */
  checkChunks(): ChunkCheck[] {
    return this.chunks.map((entry, index) => {
      const next = this.chunks[index + 1]?.offset ?? this.footerOffsetOrEnd();
      const base = { index, firstTick: entry.firstTick, frames: entry.frames, storedBytes: next - entry.offset };
      try {
        const chunk = this.chunk(index);
        return { ...base, ok: true, rawFrameBytes: chunk.frames * this.layout.fixedBytes + chunk.events.length * 4 + chunk.depth.length * 2 };
      } catch (err) {
        if (!(err instanceof StreamDamageError)) throw err;
        return { ...base, ok: false, error: err.message };
      }
    });
  }

  /** Releases the file. */
  close(): void {
    closeSync(this.fd);
  }

  private footerOffsetOrEnd(): number {
    if (this.indexSource !== 'footer') return this.fileBytes;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    readSync(this.fd, trailer, 0, TRAILER_BYTES, this.fileBytes - TRAILER_BYTES);
    return trailer.readDoubleLE(0);
  }

  private poseChannelNames(): string[] {
    return this.layout.channels.filter((c) => c.kind === 'poses').map((c) => c.name);
  }

  private locate(tick: number): { chunk: DecodedChunk; row: number } {
    if (!Number.isInteger(tick) || tick < 0 || tick >= this.frames) {
      throw new RangeError(`tick ${tick} is outside the stream (0–${this.frames - 1})`);
    }
    // Chunks are in tick order; binary search the index.
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.chunks[mid].firstTick <= tick) lo = mid;
      else hi = mid - 1;
    }
    const chunk = this.chunk(lo);
    return { chunk, row: tick - chunk.firstTick };
  }

  private fillFrame(chunk: DecodedChunk, row: number): void {
    const words = this.layout.fixedBytes / 4;
    this.frame.words.set(chunk.fixed.subarray(row * words, (row + 1) * words));
    this.frame.setEvents(chunk.events.subarray(chunk.eventStarts[row]), chunk.eventStarts[row + 1] - chunk.eventStarts[row]);
    const image = chunk.depthIndex[row];
    this.frame.hasDepth = image >= 0;
    const pixels = this.frame.depthPixels;
    if (pixels && image >= 0) pixels.set(chunk.depth.subarray(image * pixels.length, (image + 1) * pixels.length));
  }
}

function readStructure(path: string, fd: number, options: OpenOptions) {
  const fileBytes = fstatSync(fd).size;
  const foreign = (why: string) =>
    new XrsimInputError(`not an xrsim frame stream: ${why}`, { file: path, expected: `a file starting with "${HEADER_MAGIC}"` });
  const prefix = Buffer.alloc(HEADER_PREFIX_BYTES);
  if (readSync(fd, prefix, 0, HEADER_PREFIX_BYTES, 0) < HEADER_PREFIX_BYTES) {
    if (prefix.subarray(0, 8).toString('latin1') === HEADER_MAGIC) {
      throw new XrsimInputError(`truncated: the file ends inside the header (${fileBytes} bytes)`, { file: path });
    }
    throw foreign(`only ${fileBytes} bytes long`);
  }
  if (prefix.subarray(0, 8).toString('latin1') !== HEADER_MAGIC) throw foreign('bad magic bytes');
  const version = prefix.readUInt32LE(8);
  if (version !== STREAM_FORMAT_VERSION) {
    throw new XrsimInputError(`stream format version ${version} is not supported`, { file: path, expected: `version ${STREAM_FORMAT_VERSION}` });
  }
  const jsonBytes = prefix.readUInt32LE(12);
  if (HEADER_PREFIX_BYTES + jsonBytes > fileBytes) {
    throw new XrsimInputError(`truncated: the file ends inside the header (${fileBytes} bytes)`, { file: path });
  }
  const json = Buffer.alloc(jsonBytes);
  readSync(fd, json, 0, jsonBytes, HEADER_PREFIX_BYTES);
  if (crc32(json) !== prefix.readUInt32LE(16)) throw new StreamDamageError('the header is damaged (CRC32 mismatch)', path, -1);
  const header = parseJsonText(json.toString('utf8'), path) as StreamHeader;
  const firstChunk = HEADER_PREFIX_BYTES + jsonBytes;

  const trailer = Buffer.alloc(TRAILER_BYTES);
  const hasTrailer =
    fileBytes >= firstChunk + TRAILER_BYTES &&
    readSync(fd, trailer, 0, TRAILER_BYTES, fileBytes - TRAILER_BYTES) === TRAILER_BYTES &&
    trailer.subarray(8).toString('latin1') === TRAILER_MAGIC;
  if (!hasTrailer) {
    const scanned = scanChunks(fd, firstChunk, fileBytes);
    if (!options.allowTruncated) {
      throw new XrsimInputError(
        `truncated: the stream has no footer (the writer did not finish); ${scanned.length} complete chunk(s) with ` +
          `${scanned.reduce((s, c) => s + c.frames, 0)} frames are recoverable`,
        { file: path, expected: `a stream ending with the "${TRAILER_MAGIC.replace(/\0/g, '')}" trailer` },
      );
    }
    return { header, chunks: scanned, sessionHash: null, indexSource: 'scan (truncated)' as const, fileBytes };
  }
  const footerOffset = trailer.readDoubleLE(0);
  const footer = readFooter(fd, footerOffset, fileBytes);
  if (!footer) {
    const scanned = scanChunks(fd, firstChunk, fileBytes);
    return { header, chunks: scanned, sessionHash: null, indexSource: 'scan (footer damaged)' as const, fileBytes };
  }
  return { header, chunks: footer.chunks, sessionHash: footer.sessionHash, indexSource: 'footer' as const, fileBytes };
}

function readFooter(fd: number, offset: number, fileBytes: number): { chunks: ChunkIndexEntry[]; sessionHash: string } | null {
  const length = fileBytes - TRAILER_BYTES - offset;
  if (!Number.isInteger(offset) || offset < 0 || length < FOOTER_FIXED_BYTES + 4) return null;
  const footer = Buffer.alloc(length);
  readSync(fd, footer, 0, length, offset);
  if (footer.readUInt32LE(0) !== FOOTER_MAGIC) return null;
  if (crc32(footer.subarray(0, length - 4)) !== footer.readUInt32LE(length - 4)) return null;
  const count = footer.readUInt32LE(4);
  if (FOOTER_FIXED_BYTES + count * FOOTER_ENTRY_BYTES + 4 !== length) return null;
  const chunks: ChunkIndexEntry[] = [];
  for (let i = 0; i < count; i++) {
    const o = FOOTER_FIXED_BYTES + i * FOOTER_ENTRY_BYTES;
    chunks.push({ offset: footer.readDoubleLE(o), firstTick: footer.readUInt32LE(o + 8), frames: footer.readUInt32LE(o + 12) });
  }
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return { chunks, sessionHash: hex(footer.readUInt32LE(16)) + hex(footer.readUInt32LE(20)) };
}

/** Finds complete chunks by walking their headers from the end of the stream header. */
function scanChunks(fd: number, start: number, fileBytes: number): ChunkIndexEntry[] {
  const chunks: ChunkIndexEntry[] = [];
  const head = Buffer.alloc(CHUNK_HEADER_BYTES);
  let offset = start;
  while (offset + CHUNK_HEADER_BYTES <= fileBytes) {
    readSync(fd, head, 0, CHUNK_HEADER_BYTES, offset);
    if (head.readUInt32LE(0) !== CHUNK_MAGIC || head.readUInt32LE(4) !== chunks.length) break;
    const end = offset + CHUNK_HEADER_BYTES + head.readUInt32LE(20);
    if (end > fileBytes) break;
    chunks.push({ offset, firstTick: head.readUInt32LE(8), frames: head.readUInt32LE(12) });
    offset = end;
  }
  return chunks;
}
