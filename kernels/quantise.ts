/**
 * Quantisation of frames for the optional lossy stream encoding. Each 32-bit word of a frame's fixed
 * section has a class (see `quantisationClasses` in src/frame/layout.ts): positions are stored as integer
 * multiples of 0.1 mm, quaternion components as multiples of 1/32767, everything else (ticks, flags,
 * indices, button values) raw. A quantised frame has exactly the layout of a raw one.
 */

/** Metres per position step: 0.1 mm. */
export const POSITION_QUANTUM = 1e-4;
/** Quaternion component steps per unit. */
export const ROTATION_STEPS = 32767;

/**
 * Quantises the words `[row, row + classes.length)` in place: `asFloat` and `asInt` view the same memory.
 * Class 1 = position, 2 = rotation, 0 = left as is.
 */
export function quantiseRow(asFloat: Float32Array, asInt: Int32Array, row: number, classes: Uint8Array): void {
  for (let w = 0; w < classes.length; w++) {
    const c = classes[w];
    if (c === 1) asInt[row + w] = Math.round(asFloat[row + w] / POSITION_QUANTUM);
    else if (c === 2) asInt[row + w] = Math.round(asFloat[row + w] * ROTATION_STEPS);
  }
}

/** Inverse of {@link quantiseRow}, up to the quantum, in place. */
export function dequantiseRow(asInt: Int32Array, asFloat: Float32Array, row: number, classes: Uint8Array): void {
  for (let w = 0; w < classes.length; w++) {
    const c = classes[w];
    if (c === 1) asFloat[row + w] = asInt[row + w] * POSITION_QUANTUM;
    else if (c === 2) asFloat[row + w] = asInt[row + w] / ROTATION_STEPS;
  }
}
