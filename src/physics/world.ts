/**
 * The physics stage: a Rapier world built from a model in a fixed order, stepped with a fixed dt. Its jobs
 * live in their own files: Rapier and its descriptors (`rapier.ts`), model colliders and their handles
 * (`colliders.ts`), collision events in a fixed order (`events.ts`), the hands' kinematic bodies
 * (`hands.ts`), static objects changed while running (`statics.ts`), and app and actor body edits
 * (`body-edits.ts`). This file builds the world and steps it.
 *
 * Determinism rules kept here:
 * - the deterministic Rapier build; bodies and colliders created in model order;
 * - collision events collected per substep and sorted by (a, b, type) on collider indices;
 * - only awake bodies' poses are read, through Rapier's raw scratch-buffer API (no allocation per frame).
 */
import type { Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { Frame } from '../frame/frame.js';
import { POSE_FLOATS } from '../frame/layout.js';
import { AppBodies, BodyEdits } from './body-edits.js';
import { ColliderIndex } from './colliders.js';
import { CollisionEvents } from './events.js';
import { RawFactory } from './raw-factory.js';
import { HandBodies, type HandPoses } from './hands.js';
import { type Rapier, type RapierBody, type RapierCollider, type RapierEventQueue, type RapierWorld, type RawBodies } from './rapier.js';
import { StaticObjects } from './statics.js';

export { initPhysics } from './rapier.js';
export type { AppBodyPhysics } from './body-edits.js';
export { sortEventRecords } from './events.js';

/** Initial conditions of the dynamic bodies, after seeded randomisation. */
export interface InitialBodyState {
  pose: Pose;
  linearVelocity: Vec3;
  angularVelocity: Vec3;
}

/** The Rapier world of one session. */
export class PhysicsWorld {
  readonly world: RapierWorld;
  /** Collider handles ↔ collider indices. */
  readonly colliders: ColliderIndex;
  /** The hands' kinematic bodies: `hands.move(poses)` before a step. */
  readonly hands: HandBodies;
  /** Static objects: moved, removed and added while running (by static index). */
  readonly statics: StaticObjects;
  /** An app's own bodies. */
  readonly appBodies: AppBodies;
  /** Edits of the model's dynamic bodies (teleport, velocity, impulse), by body index. */
  readonly bodies: BodyEdits;
  private readonly queue: RapierEventQueue;
  /** Creates the world's bodies and colliders without descriptors (`raw-factory.ts`). */
  private readonly factory: RawFactory;
  private readonly events: CollisionEvents;
  private readonly raw: RawBodies;
  /** Rapier handle of each dynamic body, in model order. */
  private readonly bodyHandles: Float64Array;
  /** Rapier body handle → model body index. */
  private readonly bodyIndex = new Map<number, number>();
  private readonly islands: RapierWorld['islands']['raw'];
  private readonly scratch = new Float32Array(4);
  /**
   * Bound once: passing a fresh closure every tick would allocate. A field initializer, not assigned in the
   * constructor: V8 allocates `this.x = () => ...` in old space, where it keeps the session reachable.
   */
  private readonly onActiveBody = (handle: number): void => {
    const index = this.bodyIndex.get(handle);
    if (index !== undefined) this.readPose(handle, index, this.poseTarget!);
  };
  private poseTarget: Float32Array | undefined;

  /**
   * @param initial the dynamic bodies' initial state, in model order
   * @param hands the hands' initial poses (see {@link HandBodies.move})
   */
  constructor(
    rapier: Rapier,
    readonly model: SimModel,
    initial: readonly InitialBodyState[],
    hands: HandPoses,
  ) {
    const { timing, gravity } = model;
    const world = new rapier.World({ x: gravity[0], y: gravity[1], z: gravity[2] });
    this.world = world;
    world.timestep = timing.dt / timing.substeps;
    world.numSolverIterations = timing.solverIterations;
    this.queue = new rapier.EventQueue(false);
    this.raw = world.bodies.raw;
    this.islands = world.islands.raw;
    this.factory = new RawFactory(rapier, world);
    this.colliders = new ColliderIndex(rapier, this.factory, model);
    this.events = new CollisionEvents(rapier, world, this.colliders, this.queue);
    this.statics = new StaticObjects(rapier, world, model, this.colliders, this.factory, () => this.wakeAll());

    // Creation order is fixed: statics, sensors, dynamic bodies, then the hands.
    const factory = this.factory;
    const fixed = rapier.RigidBodyType.Fixed;
    // Counted loops, not for-of: each steps an iterator, an object per element until V8 optimises it away,
    // and this runs once per session.
    for (let s = 0; s < model.statics.length; s++) {
      const object = model.statics[s];
      const body = factory.bodyAt(fixed, object.pose);
      this.statics.register(body.handle);
      for (let c = 0; c < object.colliders.length; c++) this.colliders.create(object.colliders[c], body);
    }
    for (let s = 0; s < model.sensors.length; s++) {
      const sensor = model.sensors[s];
      const body = factory.bodyAt(fixed, sensor.pose);
      for (let c = 0; c < sensor.colliders.length; c++) this.colliders.create(sensor.colliders[c], body);
    }
    this.bodyHandles = new Float64Array(model.bodies.length);
    for (let i = 0; i < model.bodies.length; i++) {
      const state = initial[i];
      const body = factory.bodyAt(rapier.RigidBodyType.Dynamic, state.pose, { linearVelocity: state.linearVelocity, angularVelocity: state.angularVelocity, ccd: model.bodies[i].ccd });
      this.bodyHandles[i] = body.handle;
      this.bodyIndex.set(body.handle, i);
      const colliders = model.bodies[i].colliders;
      for (let c = 0; c < colliders.length; c++) this.colliders.create(colliders[c], body);
    }
    this.hands = new HandBodies(rapier, factory, model, this.colliders, this.raw, world.colliders.raw, hands);
    this.appBodies = new AppBodies(rapier, world, this.statics);
    this.bodies = new BodyEdits((index) => this.body(index));
  }

  /** Advances one tick (all substeps), appending this tick's collision events to `frame`. */
  step(frame: Frame): void {
    for (let s = 0; s < this.model.timing.substeps; s++) this.events.step(frame);
  }

  /**
   * Writes the poses of awake bodies into `poses` (7 floats each). Sleeping bodies do not move, so their
   * slots keep the values from the last tick they were awake. Rapier's island manager lists the active
   * bodies in one call, which is far cheaper than asking every body whether it sleeps.
   * Pass `all` to read every body (the initial frame).
   */
  readPoses(poses: Float32Array, all = false): void {
    if (all) {
      for (let i = 0; i < this.bodyHandles.length; i++) this.readPose(this.bodyHandles[i], i, poses);
      return;
    }
    this.poseTarget = poses;
    this.islands.forEachActiveRigidBodyHandle(this.onActiveBody);
    this.poseTarget = undefined;
  }

  private readPose(handle: number, index: number, poses: Float32Array): void {
    const raw = this.raw;
    const s = this.scratch;
    const o = index * POSE_FLOATS;
    raw.rbTranslation(handle, s);
    poses[o] = s[0];
    poses[o + 1] = s[1];
    poses[o + 2] = s[2];
    raw.rbRotation(handle, s);
    poses[o + 3] = s[0];
    poses[o + 4] = s[1];
    poses[o + 5] = s[2];
    poses[o + 6] = s[3];
  }

  /** The Rapier rigid body of model body `index` (for inspection; do not move it behind the kernel's back). */
  body(index: number): RapierBody {
    return this.world.getRigidBody(this.bodyHandles[index]);
  }

  /** The Rapier collider of model collider `index`. */
  collider(index: number): RapierCollider {
    return this.world.getCollider(this.colliders.handles[index]);
  }

  /** Wakes every dynamic body: a changed surface may have been holding any of them up. */
  private wakeAll(): void {
    for (let i = 0; i < this.bodyHandles.length; i++) this.raw.rbWakeUp(this.bodyHandles[i]);
  }

  /** Number of bodies Rapier currently simulates (awake). */
  awakeBodyCount(): number {
    let awake = 0;
    for (let i = 0; i < this.bodyHandles.length; i++) if (!this.raw.rbIsSleeping(this.bodyHandles[i])) awake++;
    return awake;
  }

  /** Releases the WASM memory. The world is unusable afterwards. */
  free(): void {
    this.events.free();
    this.queue.free();
    this.factory.free();
    this.world.free();
  }
}
