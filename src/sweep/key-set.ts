/**
 * A set of 16-hex-digit session keys in flat typed arrays (16 bytes a slot, at most half full): a million
 * finished sessions cost about 32 MB instead of the several hundred a `Set<string>` of them would.
 */

const EMPTY = 0;

/** Session keys seen so far. */
export class KeySet {
  private high = new Uint32Array(1024);
  private low = new Uint32Array(1024);
  /** 1 where a slot is used: key 0 is a valid key, so emptiness needs its own flag. */
  private used = new Uint8Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `key`; false when it was already there. */
  add(key: string): boolean {
    if ((this.count + 1) * 2 > this.used.length) this.grow();
    split(key);
    const hi = splitHigh;
    const lo = splitLow;
    const slot = this.find(hi, lo);
    if (this.used[slot] !== EMPTY) return false;
    this.used[slot] = 1;
    this.high[slot] = hi;
    this.low[slot] = lo;
    this.count++;
    return true;
  }

  has(key: string): boolean {
    split(key);
    return this.used[this.find(splitHigh, splitLow)] !== EMPTY;
  }

  /** The slot holding the key, or the empty slot where it would go (linear probing). */
  private find(hi: number, lo: number): number {
    const mask = this.used.length - 1;
    let slot = (Math.imul(lo ^ (hi >>> 7), 0x9e3779b1) >>> 0) & mask;
    while (this.used[slot] !== EMPTY && (this.high[slot] !== hi || this.low[slot] !== lo)) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { high, low, used } = this;
    this.high = new Uint32Array(used.length * 2);
    this.low = new Uint32Array(used.length * 2);
    this.used = new Uint8Array(used.length * 2);
    for (let i = 0; i < used.length; i++) {
      if (used[i] === EMPTY) continue;
      const slot = this.find(high[i], low[i]);
      this.used[slot] = 1;
      this.high[slot] = high[i];
      this.low[slot] = low[i];
    }
  }
}

/** The halves of the last key split (module scratch: no array per lookup, three lookups a session). */
let splitHigh = 0;
let splitLow = 0;

function split(key: string): void {
  const hi = key.length === 16 ? hexWord(key, 0) : -1;
  const lo = key.length === 16 ? hexWord(key, 8) : -1;
  if (hi < 0 || lo < 0) throw new TypeError(`a session key is 16 hex digits, got ${JSON.stringify(key)}`);
  splitHigh = hi;
  splitLow = lo;
}

/** The 8 hex digits of `key` from `from` as an unsigned 32-bit number, or -1 if one is not a hex digit. */
function hexWord(key: string, from: number): number {
  let value = 0;
  for (let i = from; i < from + 8; i++) {
    const c = key.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}
