/**
 * From an ideal depth image to what a depth sensor reports: mixed pixels at depth edges, range limits,
 * holes at grazing angles, random dropouts, a distance-dependent Gaussian error and bias, then quantisation
 * to whole millimetres (0 = no reading). The parameters are documented in `src/task/noise-presets.ts`.
 * Nothing is allocated per frame; the random draws happen in pixel order, so a seed fixes the image.
 */
import type { Sfc32 } from './prng.js';

/** The parameters of the depth noise model (all distances in metres). */
export interface DepthNoiseModel {
  /** Nearest and farthest depth the sensor reports; outside it a pixel reads 0 (no reading). */
  minRange: number;
  maxRange: number;
  /** Standard deviation of the Gaussian error at depth z: `sigma0 + sigma1·z + sigma2·z²`. */
  sigma0: number;
  sigma1: number;
  sigma2: number;
  /** Mean error (bias) at depth z: `bias1·z`. */
  bias1: number;
  /**
   * Grazing-angle holes: where the cosine of the angle between the pixel's ray and the surface normal is
   * below `grazingCosFull` a pixel is always a hole; between that and `grazingCosStart` the probability of a
   * hole falls linearly to zero.
   */
  grazingCosFull: number;
  grazingCosStart: number;
  /** Probability that any valid pixel drops out anyway (specular spots, low return). */
  dropout: number;
  /** A pixel next to a depth step larger than this (4-neighbourhood) is an edge pixel, metres. */
  edgeStep: number;
  /** Probability that an edge pixel is a mixed ("flying") pixel: a blend of its depth and its neighbour's. */
  mixedPixel: number;
}

/** Largest value a uint16 millimetre reading holds. */
export const MAX_DEPTH_MM = 65535;

/**
 * Writes the sensor's reading of the ideal image `depth` (z-depth in metres, Infinity for nothing) into
 * `out` as millimetres. `incidence` is |cos| of each pixel's angle to the surface. With `rng` null only the
 * range limits and quantisation apply (the `ideal` preset).
 */
export function measureDepth(
  depth: Float32Array,
  incidence: Float32Array,
  width: number,
  height: number,
  p: DepthNoiseModel,
  rng: Sfc32 | null,
  out: Uint16Array,
): void {
  const grazingSpan = p.grazingCosStart - p.grazingCosFull;
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = row * width + col;
      let z = depth[i];
      if (z === Infinity) {
        out[i] = 0;
        continue;
      }
      if (rng) {
        if (p.mixedPixel > 0) {
          // The neighbour across the largest depth step, if it is a step at all.
          let step = 0;
          if (col > 0) step = largerStep(step, depth[i - 1] - z);
          if (col < width - 1) step = largerStep(step, depth[i + 1] - z);
          if (row > 0) step = largerStep(step, depth[i - width] - z);
          if (row < height - 1) step = largerStep(step, depth[i + width] - z);
          if (Math.abs(step) > p.edgeStep && rng.next() < p.mixedPixel) z += rng.next() * step;
        }
        const cos = incidence[i];
        if (cos < p.grazingCosFull || (cos < p.grazingCosStart && rng.next() < (p.grazingCosStart - cos) / grazingSpan) || rng.next() < p.dropout) {
          out[i] = 0;
          continue;
        }
      }
      if (z < p.minRange || z > p.maxRange) {
        out[i] = 0;
        continue;
      }
      if (rng) z += p.bias1 * z + (p.sigma0 + p.sigma1 * z + p.sigma2 * z * z) * rng.gaussian();
      const mm = Math.round(z * 1000);
      out[i] = mm < 1 ? 1 : mm > MAX_DEPTH_MM ? MAX_DEPTH_MM : mm;
    }
  }
}

/** The step of larger magnitude, ignoring neighbours with no surface. */
function largerStep(current: number, candidate: number): number {
  return candidate !== Infinity && Math.abs(candidate) > Math.abs(current) ? candidate : current;
}
