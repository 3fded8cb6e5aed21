/**
 * The size fields of a chunk, checked before they size anything. A chunk's CRC guards against accidents;
 * these checks also hold against a chunk made to look valid: a megabyte that inflates to a gigabyte, or a
 * header claiming 2³¹ frames.
 */

/**
 * Deflate's largest ratio (zlib's documentation: 1032:1, a 258-byte match coded in 2 bits): a chunk that
 * records more raw bytes than that many times its stored bytes cannot inflate to them.
 */
export const MAX_DEFLATE_RATIO = 1032;

/**
 * The most bytes of events one chunk holds. The writer ends a chunk early rather than go past it, and
 * refuses a frame with more on its own (no session records that much: a frame's events are a few
 * hundred bytes). With it a chunk's raw size is bounded by its frame count, so a forged chunk that
 * records a gigabyte as its raw size, and inflates to it, is refused before anything is inflated.
 */
export const MAX_CHUNK_EVENT_BYTES = 16 * 1024 * 1024;

/** What sizes a chunk of a stream: from its header. */
export interface ChunkShape {
  /** Bytes of a frame's fixed section. */
  fixedBytes: number;
  /** The most frames a chunk holds (`encoding.chunkFrames`). */
  chunkFrames: number;
  /** Bytes of one packed depth image, or null for a stream without depth. */
  depthImageBytes: number | null;
}

/**
 * What is wrong with a chunk's recorded sizes, in words naming the field, or null: it holds 1 to
 * `chunkFrames` frames (the header's encoding), its raw size is whole words, at least what its frames' hashes,
 * event counts and fixed sections take, at most that plus a depth image a frame and
 * {@link MAX_CHUNK_EVENT_BYTES} of events, and no more than its stored bytes can inflate to.
 */
export function chunkSizeProblem(frames: number, rawBytes: number, storedBytes: number, shape: ChunkShape): string | null {
  const { fixedBytes, chunkFrames, depthImageBytes } = shape;
  if (!(frames >= 1 && frames <= chunkFrames)) return `it claims ${frames} frames; a chunk holds 1 to ${chunkFrames} (the header's encoding.chunkFrames)`;
  const minimum = frames * (12 + fixedBytes) + (depthImageBytes === null ? 0 : frames * 4);
  if (rawBytes % 4 !== 0 || rawBytes < minimum) return `its recorded raw size ${rawBytes} is not the whole words, at least ${minimum} bytes, that ${frames} frames take`;
  const maximum = minimum + (depthImageBytes ?? 0) * frames + MAX_CHUNK_EVENT_BYTES;
  if (rawBytes > maximum) return `its recorded raw size ${rawBytes} is more than ${frames} frames can take (at most ${maximum} bytes)`;
  if (rawBytes > MAX_DEFLATE_RATIO * storedBytes) return `its recorded raw size ${rawBytes} is more than its ${storedBytes} stored bytes can inflate to`;
  return null;
}
