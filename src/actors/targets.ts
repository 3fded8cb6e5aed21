/**
 * Targets of actor verbs: a point in the task frame (`at`), a world point (`world`), a scene surface (the
 * centre of its plane face), or a semantic tag that the app publishes, resolved again every tick, so
 * actors follow what the app does (closed loop). `offset` shifts any target in the task frame.
 */
import { quatAxis, rotateVec, toWorld } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { staticIndexOf } from '../model/references.js';
import { choosePlane } from '../sensing/plane-candidates.js';
import { directionToWorld } from '../sensing/scene-geometry.js';
import type { ActorContext } from './action.js';

/** Where a target is now: a world point and, when known, the surface's outward normal. */
export interface Resolved {
  point: Vec3;
  normal: Vec3 | null;
  rotation: Quat | null;
}

/** A target: resolves each tick, or to null when it does not exist (an unresolvable tag). */
export interface Target {
  readonly label: string;
  /**
   * True when it always resolves, to a point that depends on nothing the app publishes (`at`, `world`):
   * only actions on such targets can be quiet (`Action.quiet`). A tag reads the app; a surface may vanish.
   */
  readonly steady?: boolean;
  resolve(ctx: ActorContext): Resolved | null;
}

/** A point given in the task frame (the scene anchor the task is placed in). */
export function at(x: number, y: number, z: number): Target {
  return { label: `at(${x}, ${y}, ${z})`, steady: true, resolve: (ctx) => ({ point: toWorld(ctx.model.taskFrame, [x, y, z]), normal: null, rotation: null }) };
}

/** A point in world coordinates. */
export function world(x: number, y: number, z: number): Target {
  return { label: `world(${x}, ${y}, ${z})`, steady: true, resolve: () => ({ point: [x, y, z], normal: null, rotation: null }) };
}

/** The centre of a surface's plane face (`scene:<surface>` or `task:<fixture>`), with its normal. */
export function surface(ref: string): Target {
  return {
    label: `surface(${ref})`,
    resolve(ctx) {
      const index = staticIndexOf(ctx.model, ref, { bare: 'scene' });
      const scene = ctx.sensing.sceneIndex;
      const size = ctx.model.sources.scene.room.size;
      const plane = choosePlane(scene.geometry, scene.statics[index], ctx.model.statics[index].label, [0, size[1] / 2, 0], 0);
      if (!plane) return null;
      const g = scene.geometry;
      const p = plane.primitive;
      const offset = directionToWorld(g, p, plane.local.position);
      const normal = directionToWorld(g, p, quatAxis(plane.local.rotation, 'y'));
      return { point: [g.position[p * 3] + offset[0], g.position[p * 3 + 1] + offset[1], g.position[p * 3 + 2] + offset[2]], normal, rotation: null };
    },
  };
}

/** The object the app tagged with `role`, where it is now. Its rotation's +Z axis is taken as its front. */
export function tag(role: string): Target {
  return {
    label: `tag(${role})`,
    resolve(ctx) {
      const found = ctx.tags?.pose(role);
      if (!found) return null;
      const normal = found.rotation ? rotateVec(found.rotation, [0, 0, 1]) : null;
      return { point: found.position, normal, rotation: found.rotation };
    },
  };
}

/** A target shifted by `[dx, dy, dz]` in the task frame's axes. */
export function offset(target: Target, d: Vec3): Target {
  return {
    label: `${target.label}+(${d.join(', ')})`,
    steady: target.steady,
    resolve(ctx) {
      const r = target.resolve(ctx);
      if (!r) return null;
      const w = rotateVec(ctx.model.taskFrame.rotation, d);
      return { ...r, point: [r.point[0] + w[0], r.point[1] + w[1], r.point[2] + w[2]] };
    },
  };
}

/** Accepts a target or a task-frame point `[x, y, z]`. */
export function asTarget(t: Target | Vec3): Target {
  return Array.isArray(t) ? at(t[0], t[1], t[2]) : t;
}
