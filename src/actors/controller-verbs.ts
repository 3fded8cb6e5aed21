/**
 * Controller verbs: press, hold and release buttons, aim the target ray, push the thumbstick.
 */
import type { Vec3 } from '../geometry/types.js';
import type { ButtonName } from '../user/controller.js';
import type { SideRef } from '../hand/side.js';
import { sequence, timed, type Action } from './action.js';
import { asTarget, type Target } from './targets.js';

/** The verbs of one controller. */
export interface ControllerVerbs {
  /**
   * Presses a button to `value` (default 1) and lets it go after `duration` seconds (default 0.1: a click).
   * The same arguments as `user.controller(ref).press`.
   */
  press(button: ButtonName, value?: number, options?: { duration?: number }): Action;
  /** Holds a button down for `seconds`, then releases it. */
  hold(button: ButtonName, seconds: number): Action;
  /** Releases a button over `duration` seconds (default 0.05). */
  release(button: ButtonName, options?: { duration?: number }): Action;
  /** Points the target ray at a target. */
  aim(target: Target | Vec3, options?: { duration?: number }): Action;
  /** Holds the thumbstick at (x, y) for `duration` seconds (default 0.5; y −1 is forward, as in the Gamepad API), then centres it. */
  thumbstick(x: number, y: number, options?: { duration?: number }): Action;
  connect(): Action;
  disconnect(): Action;
}

/** Builds the verbs of controller `ref`. */
export function controllerVerbs(ref: SideRef): ControllerVerbs {
  const name = `controller(${ref})`;
  const down = (button: ButtonName, value = 1) => timed(`${name}.down(${button})`, 0.06, (ctx) => ctx.user.controller(ref).press(button, value, { duration: 0.05 }));
  const up = (button: ButtonName, duration = 0.05) => timed(`${name}.release(${button})`, duration + 0.01, (ctx) => ctx.user.controller(ref).release(button, { duration }));
  return {
    press: (button, value = 1, o = {}) => sequence(`${name}.press(${button})`, [down(button, value), timed('hold', o.duration ?? 0.1, () => undefined), up(button)]),
    hold: (button, seconds) => sequence(`${name}.hold(${button}, ${seconds})`, [down(button), timed('hold', seconds, () => undefined), up(button)]),
    release: (button, o = {}) => up(button, o.duration),
    aim(target, o = {}) {
      const t = asTarget(target);
      const duration = o.duration ?? 0.4;
      return timed(`${name}.aim(${t.label})`, duration, (ctx) => {
        const r = t.resolve(ctx);
        if (r) ctx.user.controller(ref).aim(r.point, { duration });
      }, (ctx) => (t.resolve(ctx) ? 'running' : { failed: `${t.label} cannot be resolved` }));
    },
    thumbstick: (x, y, o = {}) =>
      sequence(`${name}.thumbstick(${x}, ${y})`, [
        timed('push', o.duration ?? 0.5, (ctx) => ctx.user.controller(ref).thumbstick(x, y, { duration: 0.05 })),
        timed('centre', 0.06, (ctx) => ctx.user.controller(ref).thumbstick(0, 0, { duration: 0.05 })),
      ]),
    connect: () => timed(`${name}.connect()`, 0, (ctx) => ctx.user.controller(ref).connect()),
    disconnect: () => timed(`${name}.disconnect()`, 0, (ctx) => ctx.user.controller(ref).disconnect()),
  };
}
