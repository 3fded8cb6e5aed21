/**
 * One frame in memory. The live session and the stream reader both hand validators a {@link FrameView}.
 */
import { POSE_FLOATS, type FrameLayout } from './layout.js';

/** Read-only view of a frame: what validators and `onFrame` callbacks see. Valid only during the call. */
export interface FrameView {
  /** Tick number; frame 0 is the initial state. */
  readonly tick: number;
  /** Simulated seconds: `tick * dt`. */
  readonly time: number;
  /** World poses of the model's dynamic bodies, 7 floats each (position xyz, quaternion xyzw). */
  readonly bodyPoses: Float32Array;
  /** Event records (see `frame/events.ts`); only the first `eventWords` words are valid. */
  readonly events: Uint32Array;
  readonly eventWords: number;
  /** A fixed-size channel's floats by name (`head`, `hand-left`, `contacts`, ...), or undefined if absent. */
  channel(name: string): Float32Array | undefined;
  /**
   * The depth image this frame carries (u16 millimetres, 0 = no reading; see the `depth` channel's camera),
   * or null in frames without one (depth runs at its own rate) and in streams without a depth channel.
   */
  readonly depthImage: Uint16Array | null;
}

/** The f32 quiet NaN JavaScript itself uses (positive, zero payload). */
const CANONICAL_NAN_BITS = 0x7fc00000;
const wordScratch = new Uint32Array(1);
const floatScratch = new Float32Array(wordScratch.buffer);

/** A mutable frame: the fixed section plus a growable event buffer. Reused every tick. */
export class Frame implements FrameView {
  /** The fixed section as words (hashing, encoding). */
  readonly words: Uint32Array;
  /** The fixed section as bytes. */
  readonly bytes: Uint8Array;
  readonly bodyPoses: Float32Array;
  events: Uint32Array;
  eventWords = 0;
  private recordStart = 0;
  private readonly view: DataView;
  private readonly channels = new Map<string, Float32Array>();

  constructor(readonly layout: FrameLayout) {
    const buffer = new ArrayBuffer(layout.fixedBytes);
    this.words = new Uint32Array(buffer);
    this.bytes = new Uint8Array(buffer);
    this.view = new DataView(buffer);
    for (const c of layout.channels) {
      if (c.kind !== 'time' && c.offset !== undefined && c.bytes !== undefined) this.channels.set(c.name, new Float32Array(buffer, c.offset, c.bytes / 4));
    }
    this.bodyPoses = this.channels.get('bodies') ?? new Float32Array(0);
    this.events = new Uint32Array(64);
    const camera = layout.channels.find((c) => c.kind === 'depth')?.camera;
    const pixels = camera ? camera.width * camera.height : 0;
    // Whole 32-bit words, so the image hashes like every other part of the frame.
    const depthBuffer = new ArrayBuffer(Math.ceil(pixels / 2) * 4);
    this.depthPixels = camera ? new Uint16Array(depthBuffer, 0, pixels) : null;
    this.depthWords = new Uint32Array(depthBuffer);
  }

  /** Pixels of the depth image slot (null without a depth channel); valid when {@link hasDepth}. */
  readonly depthPixels: Uint16Array | null;
  /** The same slot as words (the last one zero-padded). */
  readonly depthWords: Uint32Array;
  /** Whether this frame carries a depth image. */
  hasDepth = false;
  /**
   * In a live session, fills {@link depthPixels} when the image is first read (the depth sensor renders
   * lazily); null once they are filled, and in frames read from a stream.
   */
  depthFill: ((out: Uint16Array) => void) | null = null;
  /**
   * What a live frame's depth image is a pure function of (with the scene in the other channels): the depth
   * frame's number, the noise key and the camera's world pose as f64 (16 words). The frame hash covers this
   * instead of the pixels (see `frame/hash.ts`).
   */
  readonly depthStamp = new Uint32Array(16);
  private readonly depthStampView = new DataView(this.depthStamp.buffer);

  get depthImage(): Uint16Array | null {
    if (!this.hasDepth) return null;
    if (this.depthFill) {
      const fill = this.depthFill;
      this.depthFill = null;
      fill(this.depthPixels!);
    }
    return this.depthPixels;
  }

  /** Writes the depth stamp: frame number, noise key, camera pose (7 numbers). */
  setDepthStamp(frameIndex: number, noiseKey: number, pose: ArrayLike<number>): void {
    this.depthStamp[0] = frameIndex;
    this.depthStamp[1] = noiseKey;
    for (let k = 0; k < 7; k++) this.depthStampView.setFloat64(8 + k * 8, pose[k], true);
  }

  channel(name: string): Float32Array | undefined {
    return this.channels.get(name);
  }

  get tick(): number {
    return this.words[0];
  }

  get time(): number {
    return this.view.getFloat64(8, true);
  }

  /** Number of bodies in the `bodies` channel. */
  get bodyCount(): number {
    return this.bodyPoses.length / POSE_FLOATS;
  }

  /** Writes the time channel. */
  setTime(tick: number, seconds: number): void {
    this.words[0] = tick;
    this.words[1] = 0;
    this.view.setFloat64(8, seconds, true);
  }

  /** Makes room for `extra` more event words (allocates only when the buffer must grow). */
  reserveEvents(extra: number): void {
    const needed = this.eventWords + extra;
    if (needed <= this.events.length) return;
    let size = this.events.length * 2;
    while (size < needed) size *= 2;
    const grown = new Uint32Array(size);
    grown.set(this.events.subarray(0, this.eventWords));
    this.events = grown;
  }

  /** Appends a record with a two-word payload. */
  pushEvent2(type: number, a: number, b: number): void {
    this.reserveEvents(3);
    const e = this.events;
    const i = this.eventWords;
    e[i] = (type << 16) | 2;
    e[i + 1] = a;
    e[i + 2] = b;
    this.eventWords = i + 3;
  }

  /** Starts a record of `type`; append its payload with {@link word} and {@link float}, then {@link endRecord}. */
  beginRecord(type: number): void {
    this.reserveEvents(1);
    this.recordStart = this.eventWords;
    this.events[this.eventWords++] = type << 16;
  }

  /** Appends a u32 to the open record. */
  word(value: number): void {
    this.reserveEvents(1);
    this.events[this.eventWords++] = value >>> 0;
  }

  /**
   * Appends a number as f32 bits to the open record. NaN is written as one canonical pattern: the sign and
   * payload of a computed NaN depend on which JIT tier ran the code, and must not reach a frame's hash.
   */
  float(value: number): void {
    if (value !== value) {
      this.word(CANONICAL_NAN_BITS);
      return;
    }
    floatScratch[0] = value;
    this.word(wordScratch[0]);
  }

  /** Closes the open record, writing its length into its header. */
  endRecord(): void {
    const length = this.eventWords - this.recordStart - 1;
    if (length > 0xffff) throw new RangeError(`event record of ${length} words exceeds 65535`);
    this.events[this.recordStart] = (this.events[this.recordStart] & 0xffff0000) | length;
  }

  /** Copies the event words from another buffer (used when decoding streams). */
  setEvents(source: Uint32Array, count: number): void {
    this.eventWords = 0;
    this.reserveEvents(count);
    this.events.set(source.subarray(0, count));
    this.eventWords = count;
  }
}
