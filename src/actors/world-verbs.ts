/**
 * World verbs: physical props (move, push, throw) and the environment (add, move, remove surfaces).
 */
import { eulerDegFromQuat, quatFromEulerDeg, quatMultiply, rotateVec, toWorld } from '../geometry/math.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import type { SurfaceSpec } from '../scene/types.js';
import { instant, type Action, type ActorContext } from './action.js';

/** Verbs on one dynamic body (a task body id, or `scene:<prop id>`). */
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
  moveSurface(id: string, position: Vec3, eulerDeg?: Vec3): Action;
  removeSurface(id: string): Action;
}

/** Index of a body by id in the model. */
export function bodyIndex(ctx: ActorContext, id: string): number {
  const [origin, name] = id.startsWith('scene:') ? ['scene', id.slice(6)] : ['task', id.replace(/^task:/, '')];
  const index = ctx.model.bodies.findIndex((b) => b.origin === origin && b.id === name);
  if (index < 0) throw new Error(`no dynamic body "${id}"`);
  return index;
}

/** Builds the verbs of body `id`. */
export function objectVerbs(id: string): ObjectVerbs {
  return {
    move: (position, eulerDeg) =>
      instant(`object(${id}).move`, (ctx) => {
        const frame = ctx.model.taskFrame;
        ctx.physics.setBodyPose(bodyIndex(ctx, id), { position: toWorld(frame, position), rotation: quatMultiply(frame.rotation, quatFromEulerDeg(eulerDeg)) });
      }),
    push: (impulse) => instant(`object(${id}).push`, (ctx) => ctx.physics.applyImpulse(bodyIndex(ctx, id), rotateVec(ctx.model.taskFrame.rotation, impulse))),
    throw: (velocity) => instant(`object(${id}).throw`, (ctx) => ctx.physics.setBodyVelocity(bodyIndex(ctx, id), rotateVec(ctx.model.taskFrame.rotation, velocity))),
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
    moveSurface: (id, position, eulerDeg) =>
      instant(`environment.moveSurface(${id})`, (ctx) => {
        const frame = ctx.model.taskFrame;
        ctx.environment.moveSurface(id, toWorld(frame, position), worldEuler(eulerDeg, frame.rotation));
      }),
    removeSurface: (id) => instant(`environment.removeSurface(${id})`, (ctx) => ctx.environment.removeSurface(id)),
  };
}

/** World Euler angles of a rotation given in the task frame. */
function worldEuler(eulerDeg: Vec3 | undefined, frame: Quat): Vec3 {
  return eulerDegFromQuat(quatMultiply(frame, quatFromEulerDeg(eulerDeg)));
}
