/**
 * The seeded stream of the `seedrandom` package (3.0.5, its default ARC4 generator), number for number:
 * `new Arc4Stream(seed).double()` returns what `seedrandom(seed).double()` does, for a string seed.
 * Sessions' named random streams draw from it (`src/random.ts`).
 *
 * Why not `seedrandom` itself: it makes each stream's methods as `prng.int32 = function () {...}` and
 * `me.g = function (count) {...}`, and V8 allocates a function literal assigned straight to a property in
 * old space. Those closures hold the stream's state, so every stream (3 KB) outlived the young
 * collections after its session ended, and a session makes up to eight (docs/SWEEPS.md, "Per-session
 * garbage"). Here the state is plain fields of a class. `test/arc4.test.ts` compares the two.
 */

/** ARC4 works on bytes: outputs are 0–255 and the state is a permutation of them. */
const WIDTH = 256;
const MASK = WIDTH - 1;
/** A double starts from six outputs (48 bits) and is filled up to 52 significant bits, as seedrandom does. */
const CHUNKS = 6;
const START_DENOMINATOR = WIDTH ** CHUNKS;
const SIGNIFICANCE = 2 ** 52;
const OVERFLOW = SIGNIFICANCE * 2;

/** One seeded ARC4 stream. */
export class Arc4Stream {
  private readonly s = new Uint8Array(WIDTH);
  private i = 0;
  private j = 0;

  constructor(seed: string) {
    const key = keyOf(seed);
    const s = this.s;
    for (let k = 0; k < WIDTH; k++) s[k] = k;
    // The standard key schedule.
    for (let k = 0, j = 0; k < WIDTH; k++) {
      const t = s[k];
      j = MASK & (j + key[k % key.length] + t);
      s[k] = s[j];
      s[j] = t;
    }
    // seedrandom discards the first 256 outputs.
    this.bytes(WIDTH);
  }

  /** The next `count` outputs as one number (the first one most significant), below 256^count. */
  bytes(count: number): number {
    const s = this.s;
    let i = this.i;
    let j = this.j;
    let r = 0;
    while (count--) {
      i = MASK & (i + 1);
      const t = s[i];
      j = MASK & (j + t);
      s[i] = s[j];
      s[j] = t;
      r = r * WIDTH + s[MASK & (s[i] + t)];
    }
    this.i = i;
    this.j = j;
    return r;
  }

  /** A uniform double in [0, 1) with every bit of its mantissa random (seedrandom's `prng()`, `prng.double()`). */
  double(): number {
    let n = this.bytes(CHUNKS);
    let d = START_DENOMINATOR;
    let x = 0;
    while (n < SIGNIFICANCE) {
      n = (n + x) * WIDTH;
      d *= WIDTH;
      x = this.bytes(1);
    }
    while (n >= OVERFLOW) {
      n /= 2;
      d /= 2;
      x >>>= 1;
    }
    return (n + x) / d;
  }
}

/** seedrandom's `mixkey`: the seed's characters folded into at most 256 key bytes. An empty seed is the key [0]. */
function keyOf(seed: string): number[] {
  const key: number[] = [];
  let smear = 0;
  for (let j = 0; j < seed.length; j++) {
    const previous = key[MASK & j];
    smear ^= previous === undefined ? 0 : previous * 19;
    key[MASK & j] = MASK & (smear + seed.charCodeAt(j));
  }
  return key.length > 0 ? key : [0];
}
