/**
 * `find(tag)`: the adaptive actor. It turns the head to scan the room until the tagged object is in view
 * and unoccluded, looks at it, then reaches it. It uses geometry and visibility only, no model of the app.
 */
import { castRay } from '../../kernels/ray-intersect.js';
import type { Vec3 } from '../geometry/types.js';
import type { HandPoint } from '../user/hand.js';
import type { SideRef } from '../hand/side.js';
import { sequence, type Action, type ActorContext } from './action.js';
import { gazeError, headVerbs } from './head-verbs.js';
import { handVerbs } from './hand-verbs.js';
import { tag } from './targets.js';

/** A point counts as in view within this angle of the gaze (a headset's comfortable field). */
const IN_VIEW = (40 * Math.PI) / 180;
/** Scan step and dwell per step. */
const SCAN_STEP = Math.PI / 4;
const DWELL = 0.5;

/** Whether a world point is in view of the head and not hidden by a static surface. */
export function visibleFromHead(ctx: ActorContext, point: Vec3): boolean {
  if (gazeError(ctx, point) > IN_VIEW) return false;
  const h = ctx.simUser.head.position;
  const d = [point[0] - h[0], point[1] - h[1], point[2] - h[2]];
  const distance = Math.hypot(d[0], d[1], d[2]);
  if (distance < 1e-6) return true;
  const hit = castRay(ctx.sensing.sceneIndex.geometry, 1, h[0], h[1], h[2], d[0] / distance, d[1] / distance, d[2] / distance, 0.01);
  return hit >= distance - 0.02;
}

/** Scans for the tagged object, then looks at it and reaches it with `hand`. */
export function find(role: string, options: { hand?: SideRef; with?: HandPoint; timeout?: number } = {}): Action {
  const timeout = options.timeout ?? 8;
  let started = 0;
  let lastStep = 0;
  const scan: Action = {
    label: `find(${role}).scan`,
    start(ctx) {
      started = ctx.t;
      lastStep = ctx.t;
      ctx.user.head.lookAt(null);
    },
    update(ctx) {
      const found = ctx.tags?.pose(role);
      if (found && visibleFromHead(ctx, found.position)) return 'done';
      if (ctx.t - started >= timeout) return { failed: found ? `tag(${role}) never came into view` : `tag(${role}) cannot be resolved` };
      if (ctx.t - lastStep >= DWELL) {
        // Sweep in yaw, looking slightly down, as a person glancing around a room does.
        lastStep = ctx.t;
        const head = ctx.simUser.head;
        ctx.user.head.turnTo(((head.yaw + SCAN_STEP) * 180) / Math.PI, -20);
      }
      return 'running';
    },
  };
  const hand = handVerbs(options.hand ?? 'dominant');
  return sequence(`find(${role})`, [scan, headVerbs().lookAt(tag(role)), hand.reach(tag(role), { with: options.with ?? 'index-tip' })]);
}
