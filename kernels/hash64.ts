/**
 * A fast, allocation-free, non-cryptographic 64-bit hash over 32-bit words.
 *
 * Two independent 32-bit lanes (a MurmurHash3 round and an xxHash32 round) consume every word; the
 * finaliser mixes in the length and cross-mixes the lanes. It detects divergence between runs; it is not
 * meant to resist an adversary. Only `Math.imul`, shifts and 32-bit adds are used, which are exact in
 * every JavaScript engine, so the digest is the same on every machine.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;

/** Incremental hasher; call `reset`, any number of `update`s, then `digest`. */
export class Hasher64 {
  private h1 = 0;
  private h2 = 0;
  private words = 0;

  /** Starts a new digest. */
  reset(seed = 0): void {
    this.h1 = (seed ^ 0x243f6a88) | 0;
    this.h2 = (seed ^ 0x85a308d3) | 0;
    this.words = 0;
  }

  /** Consumes `count` words of `data` starting at `offset`. */
  update(data: Uint32Array, count: number, offset = 0): void {
    let h1 = this.h1;
    let h2 = this.h2;
    const end = offset + count;
    for (let i = offset; i < end; i++) {
      const w = data[i];
      let k = Math.imul(w, C1);
      k = (k << 15) | (k >>> 17);
      h1 ^= Math.imul(k, C2);
      h1 = (h1 << 13) | (h1 >>> 19);
      h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
      h2 = (h2 + Math.imul(w, P2)) | 0;
      h2 = (h2 << 13) | (h2 >>> 19);
      h2 = Math.imul(h2, P1);
    }
    this.h1 = h1;
    this.h2 = h2;
    this.words += count;
  }

  /** Writes the 64-bit digest as two words, high then low, into `out[offset]` and `out[offset + 1]`. */
  digest(out: Uint32Array, offset = 0): void {
    let h1 = this.h1 ^ this.words;
    let h2 = this.h2 ^ Math.imul(this.words, P1);
    h1 = (h1 + h2) | 0;
    h2 = (h2 + h1) | 0;
    h1 = fmix32(h1);
    h2 = fmix32(h2);
    h1 = (h1 + h2) | 0;
    h2 = (h2 + h1) | 0;
    out[offset] = h1 >>> 0;
    out[offset + 1] = h2 >>> 0;
  }
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** Formats a digest written by {@link Hasher64.digest} as 16 lowercase hex digits. */
export function hashToHex(words: Uint32Array, offset = 0): string {
  return words[offset].toString(16).padStart(8, '0') + words[offset + 1].toString(16).padStart(8, '0');
}
