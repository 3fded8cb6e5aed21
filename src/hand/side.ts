/**
 * Sides of the body: which hand is dominant, and how scripts and references name a hand or controller.
 */

/** Which hand is dominant. The other one is the `other` hand. */
export type Handedness = 'right' | 'left';

/** Which hand or controller: by role (`dominant`, `other`) or by side. */
export type SideRef = 'dominant' | 'other' | 'left' | 'right';

/** Every way to name a side, in the order messages list them. */
export const SIDE_REFS: readonly SideRef[] = ['dominant', 'other', 'left', 'right'];

/** The side a reference names for a user whose dominant hand is `dominant`. */
export function sideOf(ref: SideRef, dominant: Handedness): Handedness {
  return ref === 'dominant' ? dominant : ref === 'other' ? otherSide(dominant) : ref;
}

/** The opposite side. */
export function otherSide(side: Handedness): Handedness {
  return side === 'right' ? 'left' : 'right';
}
