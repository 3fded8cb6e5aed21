/**
 * Versions that decide whether two runs can be compared bit for bit.
 */

/**
 * The kernel's behaviour version. Bump it whenever the same model and seed would produce different frames
 * (a pipeline change, a Rapier upgrade, a new channel). It is part of every model hash.
 *
 * Version 5 (this development round, not yet released before these changes): counter-based noise and the
 * raw Rapier pipeline; non-finite event floats written as one canonical NaN; app-error stacks that keep only
 * the app's own frames.
 */
export const KERNEL_VERSION = '6';

/** Version of the `.xrs` container layout. Readers refuse other versions. */
export const STREAM_FORMAT_VERSION = 1;
