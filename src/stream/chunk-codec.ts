/**
 * Packing frames into a chunk payload and back (the layout is documented in `format.ts`).
 * The buffers are allocated once per writer or reader and reused for every chunk.
 */
import { decodeFrames, DeltaMode, encodeFrames } from '../../kernels/chunk-transform.js';
import { packDepthImage, unpackDepthImage } from '../../kernels/depth-codec.js';
import { dequantiseRow, quantiseRow } from '../../kernels/quantise.js';
import type { Frame } from '../frame/frame.js';
import { quantisationClasses, type ChannelDescriptor, type DepthCameraDescriptor } from '../frame/layout.js';
import type { StreamEncoding } from './format.js';

/** Accumulates frames and packs them into a raw (not yet deflated) chunk payload. */
export class ChunkPacker {
  readonly capacity: number;
  frames = 0;
  firstTick = 0;
  private readonly wordsPerFrame: number;
  private readonly fixed: Uint32Array;
  private readonly fixedAsInt: Int32Array;
  private readonly fixedAsFloat: Float32Array;
  private readonly hashes: Uint32Array;
  private readonly eventCounts: Uint32Array;
  private events = new Uint32Array(1024);
  private eventWords = 0;
  private payload: Uint8Array;
  private readonly quantised: boolean;
  private readonly classes: Uint8Array;
  /** Depth: the camera (null without a depth channel), which frames carry an image, and the packed images. */
  private readonly depthCamera: DepthCameraDescriptor | null;
  private readonly depthFlags: Uint32Array;
  private depthBytes = new Uint8Array(0);
  private depthUsed = 0;

  constructor(fixedBytes: number, chunkFrames: number, channels: readonly ChannelDescriptor[], encoding: StreamEncoding) {
    this.capacity = chunkFrames;
    this.wordsPerFrame = fixedBytes / 4;
    const fixedBuffer = new ArrayBuffer(chunkFrames * fixedBytes);
    this.fixed = new Uint32Array(fixedBuffer);
    this.fixedAsInt = new Int32Array(fixedBuffer);
    this.fixedAsFloat = new Float32Array(fixedBuffer);
    this.hashes = new Uint32Array(chunkFrames * 2);
    this.eventCounts = new Uint32Array(chunkFrames);
    this.payload = new Uint8Array(chunkFrames * (12 + fixedBytes) + 4096);
    this.quantised = encoding === 'quantised';
    this.classes = quantisationClasses({ channels: [...channels], fixedBytes });
    this.depthCamera = depthCameraOf(channels);
    this.depthFlags = new Uint32Array(chunkFrames);
  }

  /** Bytes of events in the frames added since the last {@link pack}. */
  get eventBytes(): number {
    return this.eventWords * 4;
  }

  /** Adds a frame and its 64-bit hash. */
  add(frame: Frame, hash: Uint32Array): void {
    const f = this.frames;
    if (f === 0) this.firstTick = frame.tick;
    const row = f * this.wordsPerFrame;
    this.fixed.set(frame.words, row);
    if (this.quantised) quantiseRow(this.fixedAsFloat, this.fixedAsInt, row, this.classes);
    this.hashes[f * 2] = hash[0];
    this.hashes[f * 2 + 1] = hash[1];
    this.eventCounts[f] = frame.eventWords;
    if (this.eventWords + frame.eventWords > this.events.length) {
      const grown = new Uint32Array(Math.max(this.events.length * 2, this.eventWords + frame.eventWords));
      grown.set(this.events.subarray(0, this.eventWords));
      this.events = grown;
    }
    this.events.set(frame.events.subarray(0, frame.eventWords), this.eventWords);
    this.eventWords += frame.eventWords;
    if (this.depthCamera) this.addDepth(f, frame);
    this.frames = f + 1;
  }

  private addDepth(f: number, frame: Frame): void {
    const camera = this.depthCamera!;
    this.depthFlags[f] = frame.hasDepth ? 1 : 0;
    if (!frame.hasDepth) return;
    const bytes = depthImageBytes(camera);
    if (this.depthUsed + bytes > this.depthBytes.length) {
      const grown = new Uint8Array(Math.max(this.depthBytes.length * 2, this.depthUsed + bytes));
      grown.set(this.depthBytes.subarray(0, this.depthUsed));
      this.depthBytes = grown;
    }
    packDepthImage(frame.depthImage!, camera.width, camera.height, this.depthBytes.subarray(this.depthUsed, this.depthUsed + bytes));
    this.depthUsed += bytes;
  }

  /** Packs the frames added so far and resets. The returned view is valid until the next call. */
  pack(): Uint8Array {
    const f = this.frames;
    const fixedBytes = this.wordsPerFrame * 4;
    const eventsEnd = f * 12 + f * fixedBytes + this.eventWords * 4;
    const total = eventsEnd + (this.depthCamera ? f * 4 + this.depthUsed : 0);
    if (this.payload.length < total) this.payload = new Uint8Array(total * 2);
    const words = new Uint32Array(this.payload.buffer, 0, f * 3);
    words.set(this.hashes.subarray(0, f * 2), 0);
    words.set(this.eventCounts.subarray(0, f), f * 2);
    const fixedOut = this.payload.subarray(f * 12, f * 12 + f * fixedBytes);
    encodeFrames(this.fixed, f, this.wordsPerFrame, this.quantised ? DeltaMode.Subtract : DeltaMode.Xor, fixedOut);
    const eventBytes = new Uint8Array(this.events.buffer, 0, this.eventWords * 4);
    this.payload.set(eventBytes, f * 12 + f * fixedBytes);
    if (this.depthCamera) {
      // Which frames carry an image (u32 each), then the packed images in frame order.
      const view = new DataView(this.payload.buffer);
      for (let i = 0; i < f; i++) view.setUint32(eventsEnd + i * 4, this.depthFlags[i], true);
      this.payload.set(this.depthBytes.subarray(0, this.depthUsed), eventsEnd + f * 4);
    }
    this.frames = 0;
    this.eventWords = 0;
    this.depthUsed = 0;
    return this.payload.subarray(0, total);
  }
}

/** A decoded chunk: frames in tick order, fixed sections as raw words (floats dequantised). */
export interface DecodedChunk {
  index: number;
  firstTick: number;
  frames: number;
  /** 2 words per frame: the stored 64-bit frame hashes (hi, lo). */
  hashes: Uint32Array;
  /** `frames × fixedBytes / 4` words. */
  fixed: Uint32Array;
  /** Start of each frame's events in `events`; `frames + 1` entries. */
  eventStarts: Uint32Array;
  events: Uint32Array;
  /** Per frame: which of `depth`'s images it carries, or −1. */
  depthIndex: Int32Array;
  /** The chunk's depth images, width × height u16 each (empty without a depth channel). */
  depth: Uint16Array;
}

/** Unpacks a raw chunk payload. Throws when the payload's sizes do not add up. */
export function unpackChunk(
  raw: Uint8Array,
  index: number,
  firstTick: number,
  frames: number,
  fixedBytes: number,
  channels: readonly ChannelDescriptor[],
  encoding: StreamEncoding,
  /** False: leave the depth images packed and report none (readers that never look at them). */
  depthImages = true,
): DecodedChunk {
  const wordsPerFrame = fixedBytes / 4;
  const headWords = frames * 3;
  if (raw.byteLength < headWords * 4 + frames * fixedBytes) throw new Error('chunk payload too short');
  // Copy into an aligned buffer: the inflated bytes may start at any offset.
  const aligned = new Uint8Array(raw.byteLength + ((4 - (raw.byteLength % 4)) % 4));
  aligned.set(raw);
  const words = new Uint32Array(aligned.buffer);
  const hashes = words.slice(0, frames * 2);
  const counts = words.subarray(frames * 2, headWords);
  const eventStarts = new Uint32Array(frames + 1);
  for (let f = 0; f < frames; f++) eventStarts[f + 1] = eventStarts[f] + counts[f];
  const eventWordStart = headWords + (frames * fixedBytes) / 4;
  if (eventWordStart + eventStarts[frames] > words.length) throw new Error('chunk payload too short for its events');
  const fixed = new Uint32Array(frames * wordsPerFrame);
  const quantised = encoding === 'quantised';
  decodeFrames(aligned.subarray(headWords * 4, headWords * 4 + frames * fixedBytes), frames, wordsPerFrame, quantised ? DeltaMode.Subtract : DeltaMode.Xor, fixed);
  if (quantised) {
    const asInt = new Int32Array(fixed.buffer);
    const asFloat = new Float32Array(fixed.buffer);
    const classes = quantisationClasses({ channels: [...channels], fixedBytes });
    for (let f = 0; f < frames; f++) dequantiseRow(asInt, asFloat, f * wordsPerFrame, classes);
  }
  const events = words.slice(eventWordStart, eventWordStart + eventStarts[frames]);
  const depth = unpackDepth(aligned, (eventWordStart + eventStarts[frames]) * 4, raw.byteLength, frames, depthImages ? depthCameraOf(channels) : null);
  return { index, firstTick, frames, hashes, fixed, eventStarts, events, ...depth };
}

/** The depth section of a chunk: which frames carry an image, and the images. */
function unpackDepth(bytes: Uint8Array, start: number, end: number, frames: number, camera: DepthCameraDescriptor | null): Pick<DecodedChunk, 'depthIndex' | 'depth'> {
  const depthIndex = new Int32Array(frames).fill(-1);
  if (!camera) return { depthIndex, depth: new Uint16Array(0) };
  if (start + frames * 4 > end) throw new Error('chunk payload too short for its depth flags');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  let images = 0;
  for (let f = 0; f < frames; f++) if (view.getUint32(start + f * 4, true) === 1) depthIndex[f] = images++;
  const pixels = camera.width * camera.height;
  const stride = depthImageBytes(camera);
  if (start + frames * 4 + images * stride > end) throw new Error('chunk payload too short for its depth images');
  const depth = new Uint16Array(images * pixels);
  for (let k = 0; k < images; k++) {
    const offset = start + frames * 4 + k * stride;
    unpackDepthImage(bytes.subarray(offset, offset + stride), camera.width, camera.height, depth.subarray(k * pixels, (k + 1) * pixels));
  }
  return { depthIndex, depth };
}

/** The camera of a layout's `depth` channel, or null. */
export function depthCameraOf(channels: readonly ChannelDescriptor[]): DepthCameraDescriptor | null {
  return channels.find((c) => c.kind === 'depth')?.camera ?? null;
}

/** Bytes of one packed depth image, padded to whole words. */
export function depthImageBytes(camera: DepthCameraDescriptor): number {
  return Math.ceil((camera.width * camera.height * 2) / 4) * 4;
}
