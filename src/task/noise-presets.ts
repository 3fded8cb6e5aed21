/**
 * Depth noise presets. Each parameter is documented with where its value comes from; docs/SENSING.md has
 * the full model. The numbers give the right order of magnitude and the right shape (how error grows with
 * distance, where holes appear); they are not a calibration of any one device.
 */
import type { DepthNoiseModel } from '../../kernels/depth-noise.js';

/** The parameters of the depth noise model (documented on the kernel's {@link DepthNoiseModel}). */
export type DepthNoiseParams = DepthNoiseModel;

/** Preset names. */
export const DEPTH_NOISE_PRESETS = ['ideal', 'headset', 'phone-tof'] as const;
/** One of {@link DEPTH_NOISE_PRESETS}. */
export type DepthNoisePreset = (typeof DEPTH_NOISE_PRESETS)[number];

/** The presets. */
export const DEPTH_NOISE: Record<DepthNoisePreset, DepthNoiseParams> = {
  /** Exact depth, quantised to the 1 mm of the uint16 format. Range 0.05–20 m. */
  ideal: {
    minRange: 0.05,
    maxRange: 20,
    sigma0: 0,
    sigma1: 0,
    sigma2: 0,
    bias1: 0,
    grazingCosFull: 0,
    grazingCosStart: 0,
    dropout: 0,
    edgeStep: Infinity,
    mixedPixel: 0,
  },
  /**
   * A headset's active-stereo depth camera (the class of sensor behind Quest 3's Depth API). Stereo depth
   * error grows with the square of distance, σ_z = z²·σ_d / (f·b) (Szeliski, "Computer Vision", §12.1);
   * with a ~0.1 px disparity error, f ≈ 200 px and a ~7 cm baseline, σ ≈ 3.5 mm at 1 m and 3 cm at 3 m.
   * Range 0.3–5 m (Meta's Depth API documentation gives about 5 m as the useful range). Stereo matching
   * fails at grazing angles (below about 15° to the surface, cos 0.26) and on a fraction of low-texture
   * pixels (~1 %); edges smear over one pixel (30 % flying pixels, the usual figure for stereo
   * block matching at occlusion boundaries).
   */
  headset: {
    minRange: 0.3,
    maxRange: 5,
    sigma0: 0,
    sigma1: 0,
    sigma2: 0.0035,
    bias1: 0,
    grazingCosFull: 0.1,
    grazingCosStart: 0.26,
    dropout: 0.01,
    edgeStep: 0.05,
    mixedPixel: 0.3,
  },
  /**
   * A phone's time-of-flight sensor (iPhone LiDAR, Android ToF cameras behind ARCore's Depth API). ToF error
   * grows roughly linearly with distance: Luetzenburg et al., "Evaluation of the Apple iPhone 12 Pro LiDAR
   * for an application in geosciences" (Sci. Rep. 11, 22221, 2021) report about ±1 cm at 1–2 m and a range
   * of 5 m; Azure Kinect's ToF datasheet gives a systematic error under 11 mm + 0.1 % of distance. Here
   * σ = 4 mm + 0.4 %·z with a +0.1 %·z bias. ToF loses signal at grazing angles (below about 11°, cos 0.2)
   * and on dark or specular patches (~2 %); at depth edges ToF pixels integrate both surfaces, so about
   * half of edge pixels are mixed.
   */
  'phone-tof': {
    minRange: 0.2,
    maxRange: 5,
    sigma0: 0.004,
    sigma1: 0.004,
    sigma2: 0,
    bias1: 0.001,
    grazingCosFull: 0.08,
    grazingCosStart: 0.2,
    dropout: 0.02,
    edgeStep: 0.05,
    mixedPixel: 0.5,
  },
};

/** Standard deviation of the Gaussian error of a preset at depth z. */
export function noiseSigma(p: DepthNoiseParams, z: number): number {
  return p.sigma0 + p.sigma1 * z + p.sigma2 * z * z;
}
