/**
 * World verbs: physical props (move, push, throw) and the environment (add, move, remove surfaces).
 */
import { eulerDegFromQuat, quatFromEulerDeg, quatMultiply, rotateVec, toWorld } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { bodyIndexOf } from '../model/references.js';
import type { SurfaceSpec } from '../scene/types.js';
import { instant, type Action, type ActorContext } from './action.js';

/** Verbs on one dynamic body (`task:<body id>` or `scene:<prop id>`). */
export interface ObjectVerbs {
  /** Teleports it to a task-frame point (at rest). */
  move(position: Vec3, eulerDeg?: Vec3): Action;
  /** Applies an impulse (N·s, task-frame axes). */
  push(impulse: Vec3): Action;
  /** Sets its velocity (m/s, task-frame axes). */
  throw(velocity: Vec3): Action;
}

/** Environment verbs. Positions are in the task frame, like every other actor coordinate. */
export interface EnvironmentVerbs {
  addSurface(surface: SurfaceSpec): Action;
  /** Moves a surface (`scene:<id>`, `task:<fixture id>`; added surfaces are `scene:<id>`). */
  moveSurface(ref: string, position: Vec3, eulerDeg?: Vec3): Action;
  removeSurface(ref: string): Action;
}

/** Index in the model of the body an actor names. */
function bodyIndex(ctx: ActorContext, ref: string): number {
  return bodyIndexOf(ctx.model, ref, { bare: 'task' });
}

/** Builds the verbs of body `id` (a reference: `task:ball`, `scene:mug`). */
export function objectVerbs(id: string): ObjectVerbs {
  return {
    move: (position, eulerDeg) =>
      instant(`object(${id}).move`, (ctx) => {
        const frame = ctx.model.taskFrame;
        ctx.physics.bodies.setPose(bodyIndex(ctx, id), { position: toWorld(frame, position), rotation: quatMultiply(frame.rotation, quatFromEulerDeg(eulerDeg)) });
      }),
    push: (impulse) => instant(`object(${id}).push`, (ctx) => ctx.physics.bodies.applyImpulse(bodyIndex(ctx, id), rotateVec(ctx.model.taskFrame.rotation, impulse))),
    throw: (velocity) => instant(`object(${id}).throw`, (ctx) => ctx.physics.bodies.setVelocity(bodyIndex(ctx, id), rotateVec(ctx.model.taskFrame.rotation, velocity))),
  };
}

/** Builds the environment verbs. */
export function environmentVerbs(): EnvironmentVerbs {
  return {
    addSurface: (surface) =>
      instant(`environment.addSurface(${surface.id})`, (ctx) => {
        const frame = ctx.model.taskFrame;
        ctx.environment.addSurface({ ...surface, position: toWorld(frame, surface.position), eulerDeg: worldEuler(surface.eulerDeg, frame.rotation) });
      }),
    moveSurface: (ref, position, eulerDeg) =>
      instant(`environment.moveSurface(${ref})`, (ctx) => {
        const frame = ctx.model.taskFrame;
        ctx.environment.moveSurface(ref, toWorld(frame, position), worldEuler(eulerDeg, frame.rotation));
      }),
    removeSurface: (ref) => instant(`environment.removeSurface(${ref})`, (ctx) => ctx.environment.removeSurface(ref)),
  };
}

/** World Euler angles of a rotation given in the task frame. */
function worldEuler(eulerDeg: Vec3 | undefined, frame: Quat): Vec3 {
  return eulerDegFromQuat(quatMultiply(frame, quatFromEulerDeg(eulerDeg)));
}
