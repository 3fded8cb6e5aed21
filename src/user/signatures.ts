/**
 * What the user controls take (`session.user.…`, `xrsim/playwright`'s `xr.user`), as data. The actor verbs
 * of the same names take the same arguments (`actors/signatures.ts` reuses these), so a script written from
 * one API means the same in the other, and a wrong argument is an error in both (`arguments.ts`).
 */
import { EASING, FRACTION, number, oneOf, optional, options, param, POSE_NAME, POSITIVE, SECONDS, type Signature } from './arguments.js';
import { XR_STANDARD_BUTTONS } from './controller.js';

/** `{ duration }` in seconds. */
export const DURATION = options({ duration: SECONDS });
const BUTTONS = [...XR_STANDARD_BUTTONS, 'x', 'y'];
export const BUTTON = oneOf(BUTTONS, `a button: ${BUTTONS.map((b) => JSON.stringify(b)).join(', ')}`);

/** A hand's controls (`user.hand(ref).…`) that actor scripts have too. */
export const HAND_CONTROLS = {
  pose: [param('name', POSE_NAME), optional('options', options({ duration: SECONDS, easing: EASING, diameter: POSITIVE }))],
  pinch: [optional('amount', FRACTION), optional('options', DURATION)],
  release: [optional('options', DURATION)],
  rest: [optional('options', DURATION)],
} satisfies Record<string, Signature>;

/** A controller's controls (`user.controller(ref).…`) that actor scripts have too. */
export const CONTROLLER_CONTROLS = {
  press: [param('button', BUTTON), optional('value', FRACTION), optional('options', DURATION)],
  release: [param('button', BUTTON), optional('options', DURATION)],
  thumbstick: [param('x', number(-1, 1)), param('y', number(-1, 1)), optional('options', DURATION)],
} satisfies Record<string, Signature>;
