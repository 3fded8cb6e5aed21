/**
 * A small, fast sequential PRNG: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), with Gaussian
 * draws by the polar Box–Muller method, seeded with four 32-bit words. The sweep ranking bootstrap draws
 * its resamples from it. (Per-pixel depth noise and per-joint perturbation use the counter-based
 * generator in `counter-rng.ts` instead, so that any pixel's or joint's draw stands alone.)
 */

/** Generator state: four 32-bit words, and a cached second Gaussian. */
export class Sfc32 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare = 0;
  private hasSpare = false;

  /** Seeds from four 32-bit words (draw them from a seedrandom stream). */
  constructor(a: number, b: number, c: number, d: number) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
    // Discard the first outputs, as the generator's author recommends.
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  /** Next 32-bit unsigned integer. */
  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Next uniform number in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Next standard normal number. */
  gaussian(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const k = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * k;
    this.hasSpare = true;
    return u * k;
  }
}
