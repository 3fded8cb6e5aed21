/**
 * The depth noise model's parameters, shared by the JS pass (`depth-noise.ts`, which re-exports them) and the
 * SIMD pass (`depth-noise-simd.ts`). The values of the presets are in `src/task/noise-presets.ts`.
 */

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
