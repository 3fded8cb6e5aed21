/**
 * Quantisation of pose arrays for the optional lossy stream encoding.
 * Positions are stored as integer multiples of 0.1 mm, quaternion components as multiples of 1/32767.
 * Both fit an int32 word, so a quantised frame has exactly the layout of a raw one.
 */

/** Metres per position step: 0.1 mm. */
export const POSITION_QUANTUM = 1e-4;
/** Quaternion component steps per unit. */
export const ROTATION_STEPS = 32767;

/** Quantises `count` poses (7 floats: position xyz, quaternion xyzw) from `src` into int32 words in `dst`. */
export function quantisePoses(src: Float32Array, srcOffset: number, count: number, dst: Int32Array, dstOffset: number): void {
  for (let i = 0; i < count; i++) {
    const s = srcOffset + i * 7;
    const d = dstOffset + i * 7;
    dst[d] = Math.round(src[s] / POSITION_QUANTUM);
    dst[d + 1] = Math.round(src[s + 1] / POSITION_QUANTUM);
    dst[d + 2] = Math.round(src[s + 2] / POSITION_QUANTUM);
    dst[d + 3] = Math.round(src[s + 3] * ROTATION_STEPS);
    dst[d + 4] = Math.round(src[s + 4] * ROTATION_STEPS);
    dst[d + 5] = Math.round(src[s + 5] * ROTATION_STEPS);
    dst[d + 6] = Math.round(src[s + 6] * ROTATION_STEPS);
  }
}

/** Inverse of {@link quantisePoses}, up to the quantum. */
export function dequantisePoses(src: Int32Array, srcOffset: number, count: number, dst: Float32Array, dstOffset: number): void {
  for (let i = 0; i < count; i++) {
    const s = srcOffset + i * 7;
    const d = dstOffset + i * 7;
    dst[d] = src[s] * POSITION_QUANTUM;
    dst[d + 1] = src[s + 1] * POSITION_QUANTUM;
    dst[d + 2] = src[s + 2] * POSITION_QUANTUM;
    dst[d + 3] = src[s + 3] / ROTATION_STEPS;
    dst[d + 4] = src[s + 4] / ROTATION_STEPS;
    dst[d + 5] = src[s + 5] / ROTATION_STEPS;
    dst[d + 6] = src[s + 6] / ROTATION_STEPS;
  }
}
