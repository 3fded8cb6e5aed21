/**
 * Rapier itself: initialising its WASM once per thread, and building its descriptors from our shapes and
 * poses. The deterministic build is pinned exactly; everything that creates Rapier objects goes through here.
 */
// Rapier is evaluated without finalizers (the kernel frees what it makes): see finalizers-hide.ts.
import './finalizers-hide.js';
import RAPIER from '@dimforge/rapier3d-deterministic-compat';
import './finalizers-restore.js';
import type { Pose } from '../geometry/math.js';
import type { ShapeSpec } from '../geometry/types.js';

/** The Rapier module. */
export type Rapier = typeof RAPIER;
/** A Rapier world, rigid body, and the raw APIs the stage uses to avoid allocating per frame. */
export type RapierWorld = InstanceType<Rapier['World']>;
export type RapierBody = InstanceType<Rapier['RigidBody']>;
export type RapierCollider = InstanceType<Rapier['Collider']>;
export type RapierEventQueue = InstanceType<Rapier['EventQueue']>;
export type RawBodies = RapierWorld['bodies']['raw'];

/** Collision-group bits: hands, and the bodies an app adds. Everything else is in every group. */
export const GROUP_HANDS = 0x0002;
export const GROUP_APP = 0x0004;

let ready: Promise<Rapier> | undefined;

/** Initialises Rapier's WASM once per thread. Every session awaits it; the cost is paid once. */
export function initPhysics(): Promise<Rapier> {
  ready ??= withStoppedRapierClock(() => RAPIER.init()).then(() => RAPIER);
  return ready;
}

/** The namespace of Rapier's wasm-bindgen imports, and the prefix of its clock's name there. */
const RAPIER_IMPORTS = './rapier_wasm3d_bg.js';
const CLOCK_IMPORT = '__wbg_now_';
const stoppedClock = (): number => 0;

/**
 * Runs `init` with Rapier's WASM instantiated against a clock that always reads 0. Rapier asks the time
 * about 36 times per step, for its profiler's counters only (`RawPhysicsPipeline.is_profiler_enabled()`
 * is false and nothing reads them), each through four calls between WASM and JavaScript: 4–5 % of a
 * session's time. A session must not read the wall clock anyway. Only the instantiation that carries
 * Rapier's imports is changed, and `WebAssembly.instantiate` is restored when `init` settles. If Rapier
 * was initialised before xrsim loaded, it keeps its clock, and only speed changes.
 */
function withStoppedRapierClock<T>(init: () => Promise<T>): Promise<T> {
  // The project's TS libs do not declare WebAssembly (Node has it): only `instantiate` is touched here.
  const api = (globalThis as unknown as { WebAssembly: { instantiate: Instantiate } }).WebAssembly;
  const instantiate = api.instantiate;
  const patched: Instantiate = function (this: unknown, source, imports) {
    const namespace = imports?.[RAPIER_IMPORTS];
    if (namespace) for (const name of Object.keys(namespace)) if (name.startsWith(CLOCK_IMPORT)) namespace[name] = stoppedClock;
    return Reflect.apply(instantiate, this, [source, imports]) as Promise<unknown>;
  };
  api.instantiate = patched;
  const restore = () => {
    if (api.instantiate === patched) api.instantiate = instantiate;
  };
  return init().finally(restore);
}

type Instantiate = (source: unknown, imports?: Record<string, Record<string, unknown>>) => Promise<unknown>;

/** A Rapier quaternion from `[x, y, z, w]`. */
export function quat(q: readonly number[]) {
  return { x: q[0], y: q[1], z: q[2], w: q[3] };
}

/** A body descriptor placed at `pose`. */
export function withPose(desc: InstanceType<Rapier['RigidBodyDesc']>, pose: Pose) {
  return desc.setTranslation(pose.position[0], pose.position[1], pose.position[2]).setRotation(quat(pose.rotation));
}

/** Rapier's shape for one of ours (capsules, cylinders and polygon slabs stand along local Y). */
export function rapierShape(rapier: Rapier, shape: ShapeSpec) {
  switch (shape.type) {
    case 'box':
      return new rapier.Cuboid(shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2);
    case 'sphere':
      return new rapier.Ball(shape.radius);
    case 'capsule':
      return new rapier.Capsule(shape.length / 2, shape.radius);
    case 'cylinder':
      return new rapier.Cylinder(shape.height / 2, shape.radius);
    case 'polygon': {
      const half = shape.thickness / 2;
      return new rapier.ConvexPolyhedron(new Float32Array(shape.points.flatMap(([x, z]) => [x, -half, z, x, half, z])), null);
    }
  }
}

/** A collider descriptor for a shape (for colliders made rarely; the model's go through `raw-factory.ts`). */
export function colliderDesc(rapier: Rapier, shape: ShapeSpec) {
  return new rapier.ColliderDesc(rapierShape(rapier, shape));
}
