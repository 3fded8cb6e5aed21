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
 * What is wrong with a chunk's recorded sizes, in words naming the field, or null: it holds 1 to
 * `chunkFrames` frames (the header's encoding), its raw size is whole words, at least what its frames' hashes,
 * event counts and fixed sections take, and no more than its stored bytes can inflate to.
 */
export function chunkSizeProblem(frames: number, rawBytes: number, storedBytes: number, fixedBytes: number, chunkFrames: number): string | null {
  if (!(frames >= 1 && frames <= chunkFrames)) return `it claims ${frames} frames; a chunk holds 1 to ${chunkFrames} (the header's encoding.chunkFrames)`;
  const minimum = frames * (12 + fixedBytes);
  if (rawBytes % 4 !== 0 || rawBytes < minimum) return `its recorded raw size ${rawBytes} is not the whole words, at least ${minimum} bytes, that ${frames} frames take`;
  if (rawBytes > MAX_DEFLATE_RATIO * storedBytes) return `its recorded raw size ${rawBytes} is more than its ${storedBytes} stored bytes can inflate to`;
  return null;
}
