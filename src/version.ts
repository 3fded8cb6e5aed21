/**
 * Versions that decide whether two runs can be compared bit for bit.
 */

/**
 * The kernel's behaviour version. Bump it whenever the same model and seed would produce different frames
 * (a pipeline change, a Rapier upgrade, a new channel). It is part of every model hash.
 */
export const KERNEL_VERSION = '5';

/** Version of the `.xrs` container layout. Readers refuse other versions. */
export const STREAM_FORMAT_VERSION = 1;
