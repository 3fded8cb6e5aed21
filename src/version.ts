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
 *
 * Version 6: a frame's hash covers its depth image's stamp (depth frame, noise key, camera pose), not its
 * pixels, so unrecorded sessions never render an image nobody reads (docs/SENSING.md).
 */
/**
 * Version 7: a browser app's frame 0 records how its session started (`EventType.PageStart`: by the page,
 * or by the simulated user's click on an element), and a page's `start` selector joins the model hash.
 */
/**
 * Version 8: the fist's thumb flexes over the index and middle fingers and its fingers close fully; the open
 * hand's thumb lies in the palm plane (hand-models/README.md); a pose's wrist turn (thumbs-up, thumbs-down,
 * palm-up) is applied when the pose is taken; a hand's target ray comes from that hand's shoulder (the user
 * model's `shoulderOffset`), not from a point 0.3 m below the eyes.
 */
export const KERNEL_VERSION = '8';

/** Version of the `.xrs` container layout. Readers refuse other versions. */
export const STREAM_FORMAT_VERSION = 1;
