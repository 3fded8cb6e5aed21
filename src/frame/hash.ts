/**
 * The 64-bit frame hash, defined in two levels: the time channel's words, then for each other fixed channel
 * (in layout order) that channel's own 64-bit digest, then the event words, then (in frames that carry a
 * depth image) the frame's depth stamp, all fed to one `Hasher64`. The stamp (the depth frame's number, the
 * noise key and the camera's f64 pose, `Frame.depthStamp`) fixes the image together with the scene the
 * other channels show, so a session hashes depth without rendering images nothing reads (kernel version 6;
 * before it, the image's words were hashed). Apart from the stamp, the hash is a pure function of the
 * frame's bytes; `verify` compares recorded depth images pixel for pixel.
 *
 * The two levels let a session skip rehashing channels that did not change since the last tick (sleeping
 * bodies, a resting hand): it compares their words with last tick's copy, which is several times cheaper
 * than hashing them, and reuses the digest. Readers recompute the same function without the cache.
 */
import { Hasher64 } from '../../kernels/hash64.js';
import type { FrameLayout } from './layout.js';

interface Segment {
  first: number;
  count: number;
  /** Time is hashed word by word; every other channel by its digest. */
  summarised: boolean;
  /** Last tick's words and their digest (only when caching). */
  copy: Uint32Array | null;
  digest: Uint32Array;
  valid: boolean;
}

/** Computes frame hashes for one layout. */
export class FrameHasher {
  private readonly segments: Segment[];
  private readonly outer = new Hasher64();
  private readonly inner = new Hasher64();

  /** @param cache reuse digests of channels unchanged since the previous call (a session's frames, in order). */
  constructor(layout: FrameLayout, readonly cache: boolean) {
    this.segments = layout.channels
      .filter((c) => c.offset !== undefined && c.bytes !== undefined && c.bytes > 0)
      .map((c) => ({
        first: c.offset! / 4,
        count: c.bytes! / 4,
        summarised: c.kind !== 'time',
        copy: cache && c.kind !== 'time' ? new Uint32Array(c.bytes! / 4) : null,
        digest: new Uint32Array(2),
        valid: false,
      }));
  }

  /**
   * Writes the hash of a frame (its fixed words, the first `eventWords` event words and its depth stamp,
   * if it carries a depth image) into `out[0..1]`.
   */
  digest(words: Uint32Array, events: Uint32Array, eventWords: number, out: Uint32Array, depth: Uint32Array | null = null): void {
    const h = this.outer;
    h.reset();
    for (const s of this.segments) {
      if (!s.summarised) {
        h.update(words, s.count, s.first);
        continue;
      }
      if (!(s.copy && s.valid && same(words, s.first, s.copy))) {
        this.inner.reset();
        this.inner.update(words, s.count, s.first);
        this.inner.digest(s.digest);
        if (s.copy) {
          // A loop, not set(subarray()): a view object per changed channel per frame is garbage.
          for (let i = 0; i < s.count; i++) s.copy[i] = words[s.first + i];
          s.valid = true;
        }
      }
      h.update(s.digest, 2);
    }
    h.update(events, eventWords);
    if (depth) h.update(depth, depth.length);
    h.digest(out);
  }
}

function same(words: Uint32Array, first: number, copy: Uint32Array): boolean {
  for (let i = 0; i < copy.length; i++) if (words[first + i] !== copy[i]) return false;
  return true;
}
