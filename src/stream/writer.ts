/**
 * Writing a frame stream to disk while the session runs. Memory stays flat: one chunk of frames is held,
 * deflated and written when full, then its buffers are reused.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';
import { XrsimInputError } from '../errors.js';
import { checkOutputFile } from '../output-file.js';
import type { Frame } from '../frame/frame.js';
import { MAX_CHUNK_EVENT_BYTES } from './chunk-bounds.js';
import { ChunkPacker } from './chunk-codec.js';
import {
  CHUNK_HEADER_BYTES,
  CHUNK_MAGIC,
  FOOTER_ENTRY_BYTES,
  FOOTER_FIXED_BYTES,
  FOOTER_MAGIC,
  HEADER_MAGIC,
  HEADER_PREFIX_BYTES,
  STREAM_OUTPUT,
  TRAILER_BYTES,
  TRAILER_MAGIC,
  type ChunkIndexEntry,
  type StreamHeader,
} from './format.js';

/** What a closed stream holds. */
export interface StreamSummary {
  path: string;
  frames: number;
  chunks: number;
  /** Bytes of the whole file. */
  bytes: number;
  /** Bytes the frames would take raw (fixed sections and events). */
  rawFrameBytes: number;
}

/** Writes one `.xrs` file. Call `append` per frame, then `close` (or `abort` if the session failed). */
export class StreamWriter {
  private readonly fd: number;
  private offset = 0;
  private readonly packer: ChunkPacker;
  private readonly index: ChunkIndexEntry[] = [];
  private readonly chunkHeader = Buffer.alloc(CHUNK_HEADER_BYTES);
  private frames = 0;
  private rawFrameBytes = 0;
  private closed = false;

  constructor(
    readonly path: string,
    readonly header: StreamHeader,
    options: { replace?: boolean } = {},
  ) {
    this.packer = new ChunkPacker(header.fixedBytes, header.encoding.chunkFrames, header.channels, header.encoding.mode);
    refuseToOverwriteForeignFile(path, options.replace === true);
    try {
      this.fd = openSync(path, 'w');
    } catch (err) {
      throw new XrsimInputError(`cannot write the stream: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
        file: path,
        expected: 'a writable file path in an existing folder',
      });
    }
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const prefix = Buffer.alloc(HEADER_PREFIX_BYTES);
    prefix.write(HEADER_MAGIC, 0, 'latin1');
    prefix.writeUInt32LE(header.formatVersion, 8);
    prefix.writeUInt32LE(json.length, 12);
    prefix.writeUInt32LE(crc32(json), 16);
    this.write(prefix);
    this.write(json);
  }

  /**
   * Adds one frame with its 64-bit hash (hi, lo). A chunk ends early rather than hold more than
   * {@link MAX_CHUNK_EVENT_BYTES} of events (what lets readers bound a chunk's size); a frame with more than
   * that on its own is refused with a RangeError.
   */
  append(frame: Frame, hash: Uint32Array): void {
    const eventBytes = frame.eventWords * 4;
    if (eventBytes > MAX_CHUNK_EVENT_BYTES) {
      throw new RangeError(`frame ${frame.tick} records ${eventBytes} bytes of events; a stream holds at most ${MAX_CHUNK_EVENT_BYTES} bytes of events a frame`);
    }
    if (this.packer.frames > 0 && this.packer.eventBytes + eventBytes > MAX_CHUNK_EVENT_BYTES) this.flushChunk();
    this.packer.add(frame, hash);
    this.frames++;
    this.rawFrameBytes += frame.words.byteLength + frame.eventWords * 4;
    if (this.packer.frames === this.packer.capacity) this.flushChunk();
  }

  /** Writes the last chunk, the footer index and the trailer, and closes the file. */
  close(sessionHash: Uint32Array): StreamSummary {
    if (this.packer.frames > 0) this.flushChunk();
    const footer = Buffer.alloc(FOOTER_FIXED_BYTES + this.index.length * FOOTER_ENTRY_BYTES + 4);
    footer.writeUInt32LE(FOOTER_MAGIC, 0);
    footer.writeUInt32LE(this.index.length, 4);
    footer.writeUInt32LE(this.frames, 8);
    footer.writeUInt32LE(0, 12);
    footer.writeUInt32LE(sessionHash[0], 16);
    footer.writeUInt32LE(sessionHash[1], 20);
    this.index.forEach((entry, i) => {
      const o = FOOTER_FIXED_BYTES + i * FOOTER_ENTRY_BYTES;
      footer.writeDoubleLE(entry.offset, o);
      footer.writeUInt32LE(entry.firstTick, o + 8);
      footer.writeUInt32LE(entry.frames, o + 12);
    });
    footer.writeUInt32LE(crc32(footer.subarray(0, footer.length - 4)), footer.length - 4);
    const footerOffset = this.offset;
    this.write(footer);
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeDoubleLE(footerOffset, 0);
    trailer.write(TRAILER_MAGIC, 8, 'latin1');
    this.write(trailer);
    closeSync(this.fd);
    this.closed = true;
    return { path: this.path, frames: this.frames, chunks: this.index.length, bytes: this.offset, rawFrameBytes: this.rawFrameBytes };
  }

  /** Closes the file without a footer. Readers will report it as truncated, with its complete chunks readable. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private flushChunk(): void {
    const frames = this.packer.frames;
    const firstTick = this.packer.firstTick;
    const raw = this.packer.pack();
    const stored = deflateRawSync(raw, { level: this.header.encoding.level });
    const h = this.chunkHeader;
    h.writeUInt32LE(CHUNK_MAGIC, 0);
    h.writeUInt32LE(this.index.length, 4);
    h.writeUInt32LE(firstTick, 8);
    h.writeUInt32LE(frames, 12);
    h.writeUInt32LE(raw.byteLength, 16);
    h.writeUInt32LE(stored.length, 20);
    h.writeUInt32LE(crc32(stored, crc32(h.subarray(0, 24))), 24);
    this.index.push({ offset: this.offset, firstTick, frames });
    this.write(h);
    this.write(stored);
  }

  private write(data: Uint8Array): void {
    let done = 0;
    while (done < data.length) done += writeSync(this.fd, data, done, data.length - done);
    this.offset += data.length;
  }
}

/**
 * A recording replaces an existing stream, but never another kind of file: `--out precious.json` must not
 * destroy it (src/output-file.ts). Checked before the file is opened for writing.
 */
function refuseToOverwriteForeignFile(path: string, replace: boolean): void {
  checkOutputFile(path, STREAM_OUTPUT, { option: 'recording to', force: replace });
}
