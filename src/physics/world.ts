/**
 * The physics stage: a Rapier world built from a model in a fixed order, stepped with a fixed dt.
 *
 * Determinism rules kept here:
 * - the deterministic Rapier build; bodies and colliders created in model order;
 * - collision events collected per substep and sorted by (a, b, type) on collider indices;
 * - only awake bodies' poses are read, through Rapier's raw scratch-buffer API (no allocation per frame).
 */
import RAPIER from '@dimforge/rapier3d-deterministic-compat';
import type { Pose } from '../geometry/math.js';
import type { ShapeSpec, Vec3 } from '../geometry/types.js';
import type { BodyModel, SimModel } from '../model/types.js';
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import { POSE_FLOATS } from '../frame/layout.js';

type Rapier = typeof RAPIER;

let ready: Promise<Rapier> | undefined;

/** Collision-group bits: hands, and the bodies an app adds. Everything else is in every group. */
const GROUP_HANDS = 0x0002;
const GROUP_APP = 0x0004;

/** Options of {@link PhysicsWorld.addAppBody}. */
export interface AppBodyPhysics {
  mass: number;
  friction: number;
  restitution: number;
  kinematic: boolean;
  /** Whether the hands collide with it. */
  handContact: boolean;
  gravityScale: number;
  velocity: Vec3;
}

/** Initialises Rapier's WASM once per thread. Every session awaits it; the cost is paid once. */
export function initPhysics(): Promise<Rapier> {
  ready ??= RAPIER.init().then(() => RAPIER);
  return ready;
}

/** Initial conditions of the dynamic bodies, after seeded randomisation. */
export interface InitialBodyState {
  pose: Pose;
  linearVelocity: Vec3;
  angularVelocity: Vec3;
}

/** The Rapier world of one session. */
export class PhysicsWorld {
  readonly world: InstanceType<Rapier['World']>;
  private readonly queue: InstanceType<Rapier['EventQueue']>;
  private readonly raw: InstanceType<Rapier['World']>['bodies']['raw'];
  /** Rapier handle of each dynamic body, in model order. */
  private readonly bodyHandles: Float64Array;
  /** Rapier body handle → model body index. */
  private readonly bodyIndex = new Map<number, number>();
  private readonly islands: InstanceType<Rapier['World']>['islands']['raw'];
  /** Collider handle → model collider index. */
  private readonly colliderIndex = new Map<number, number>();
  /** Model collider index → Rapier handle. */
  private readonly colliderHandles: Float64Array;
  private readonly sensorCollider: Uint8Array;
  private readonly scratch = new Float32Array(4);
  private readonly onCollision: (h1: number, h2: number, started: boolean) => void;
  private readonly onActiveBody: (handle: number) => void;
  private target: Frame | undefined;
  private poseTarget: Float32Array | undefined;

  /** Rapier handles of the two hands' kinematic bodies (left, right). */
  private readonly handHandles = new Float64Array(2);
  /** Rapier collider handles of the hand parts, in model order. */
  private readonly handPartHandles: Float64Array;
  /** Last wrist poses (2 × 7) and part poses (7 each) given, to skip what did not move. */
  private readonly lastWrists = new Float64Array(14);
  private readonly lastParts: Float64Array;
  private readonly colliderRaw: InstanceType<Rapier['World']>['colliders']['raw'];
  /** Rapier body handle of each static object: the model's, then those added while running. */
  private readonly staticHandles: number[] = [];
  /** Collider indices given to colliders added while running continue after the model's. */
  private nextRuntimeCollider: number;
  private readonly rapier: Rapier;

  /**
   * @param initial the dynamic bodies' initial state, in model order
   * @param hands the hands' initial poses (see {@link PhysicsWorld.moveHands})
   */
  constructor(
    rapier: Rapier,
    readonly model: SimModel,
    initial: readonly InitialBodyState[],
    hands: { wrists: Float64Array; parts: Float64Array },
  ) {
    const { timing, gravity } = model;
    this.world = new rapier.World({ x: gravity[0], y: gravity[1], z: gravity[2] });
    this.world.timestep = timing.dt / timing.substeps;
    this.world.numSolverIterations = timing.solverIterations;
    this.queue = new rapier.EventQueue(false);
    this.raw = this.world.bodies.raw;
    this.islands = this.world.islands.raw;
    this.sensorCollider = new Uint8Array(model.colliders.length);
    this.colliderHandles = new Float64Array(model.colliders.length);

    this.rapier = rapier;
    this.nextRuntimeCollider = model.colliders.length;
    for (const object of model.statics) {
      const body = this.world.createRigidBody(withPose(rapier.RigidBodyDesc.fixed(), object.pose));
      this.staticHandles.push(body.handle);
      for (const c of object.colliders) this.addCollider(rapier, c, body);
    }
    for (const sensor of model.sensors) {
      const body = this.world.createRigidBody(withPose(rapier.RigidBodyDesc.fixed(), sensor.pose));
      for (const c of sensor.colliders) this.addCollider(rapier, c, body);
    }
    this.bodyHandles = new Float64Array(model.bodies.length);
    model.bodies.forEach((bodyModel: BodyModel, i) => {
      const state = initial[i];
      const desc = withPose(rapier.RigidBodyDesc.dynamic(), state.pose)
        .setLinvel(state.linearVelocity[0], state.linearVelocity[1], state.linearVelocity[2])
        .setAngvel({ x: state.angularVelocity[0], y: state.angularVelocity[1], z: state.angularVelocity[2] })
        .setCcdEnabled(bodyModel.ccd);
      const body = this.world.createRigidBody(desc);
      this.bodyHandles[i] = body.handle;
      this.bodyIndex.set(body.handle, i);
      for (const c of bodyModel.colliders) this.addCollider(rapier, c, body);
    });

    // Hands: one kinematic body per hand at the wrist, carrying a collider per hand part posed relative to
    // it. They push dynamic bodies; static geometry is ignored (Rapier's default active collision types),
    // and parts of one hand never collide with each other (same body).
    this.colliderRaw = this.world.colliders.raw;
    this.handPartHandles = new Float64Array(model.handParts.length);
    this.lastParts = new Float64Array(hands.parts);
    this.lastWrists.set(hands.wrists);
    if (model.handParts.length > 0) {
      const bodies = [0, 1].map((h) => {
        const w = hands.wrists.subarray(h * 7, h * 7 + 7);
        const desc = rapier.RigidBodyDesc.kinematicPositionBased()
          .setTranslation(w[0], w[1], w[2])
          .setRotation({ x: w[3], y: w[4], z: w[5], w: w[6] });
        const body = this.world.createRigidBody(desc);
        this.handHandles[h] = body.handle;
        return body;
      });
      model.handParts.forEach((part, i) => {
        const handle = this.addCollider(rapier, part.collider, bodies[part.hand], hands.parts.subarray(i * 7, i * 7 + 7));
        this.handPartHandles[i] = handle;
      });
    }

    // Bound once: passing a fresh closure every tick would allocate.
    this.onCollision = (h1, h2, started) => this.record(h1, h2, started);
    this.onActiveBody = (handle) => {
      const index = this.bodyIndex.get(handle);
      if (index !== undefined) this.readPose(handle, index, this.poseTarget!);
    };
  }

  /** Creates model collider `index` on `body`, at its model pose or at `pose` (7 numbers) relative to the body. */
  private addCollider(rapier: Rapier, index: number, body: InstanceType<Rapier['RigidBody']>, pose?: ArrayLike<number>): number {
    const c = this.model.colliders[index];
    const position = pose ? [pose[0], pose[1], pose[2]] : c.localPose.position;
    const rotation = pose ? [pose[3], pose[4], pose[5], pose[6]] : c.localPose.rotation;
    const desc = colliderDesc(rapier, c.shape)
      .setTranslation(position[0], position[1], position[2])
      .setRotation(quat(rotation))
      .setFriction(c.friction)
      .setRestitution(c.restitution)
      .setSensor(c.sensor);
    if (c.density > 0) desc.setDensity(c.density);
    // Events come from dynamic bodies and sensors (a hand touching a prop reports through the prop).
    if (c.sensor || c.owner.kind === 'body') desc.setActiveEvents(rapier.ActiveEvents.COLLISION_EVENTS);
    // Hands are in their own collision group, so an app's virtual bodies can let them pass through.
    if (c.owner.kind === 'hand') desc.setCollisionGroups((GROUP_HANDS << 16) | 0xffff);
    const collider = this.world.createCollider(desc, body);
    this.colliderIndex.set(collider.handle, index);
    this.colliderHandles[index] = collider.handle;
    this.sensorCollider[index] = c.sensor ? 1 : 0;
    return collider.handle;
  }

  /**
   * Sets where the hands must be at the end of the next step: `wrists` holds each hand's wrist pose (2 × 7
   * numbers, world), `parts` each part's pose relative to its wrist (7 each). What did not move is skipped.
   */
  moveHands(wrists: Float64Array, parts: Float64Array): void {
    const raw = this.raw;
    for (let h = 0; h < 2 && this.handPartHandles.length > 0; h++) {
      if (!changed(wrists, this.lastWrists, h * 7)) continue;
      const o = h * 7;
      raw.rbSetNextKinematicTranslation(this.handHandles[h], wrists[o], wrists[o + 1], wrists[o + 2]);
      raw.rbSetNextKinematicRotation(this.handHandles[h], wrists[o + 3], wrists[o + 4], wrists[o + 5], wrists[o + 6]);
    }
    const colliders = this.colliderRaw;
    for (let i = 0; i < this.handPartHandles.length; i++) {
      const o = i * 7;
      if (!changed(parts, this.lastParts, o)) continue;
      const c = this.handPartHandles[i];
      colliders.coSetTranslationWrtParent(c, parts[o], parts[o + 1], parts[o + 2]);
      colliders.coSetRotationWrtParent(c, parts[o + 3], parts[o + 4], parts[o + 5], parts[o + 6]);
    }
  }

  /** Advances one tick (all substeps), appending this tick's collision events to `frame`. */
  step(frame: Frame): void {
    this.target = frame;
    for (let s = 0; s < this.model.timing.substeps; s++) {
      const first = frame.eventWords;
      this.world.step(this.queue);
      this.queue.drainCollisionEvents(this.onCollision);
      sortEventRecords(frame.events, first, frame.eventWords);
    }
    this.target = undefined;
  }

  private record(h1: number, h2: number, started: boolean): void {
    const i1 = this.colliderIndex.get(h1) ?? 0xffffffff;
    const i2 = this.colliderIndex.get(h2) ?? 0xffffffff;
    const a = i1 < i2 ? i1 : i2;
    const b = i1 < i2 ? i2 : i1;
    const sensor = this.sensorCollider[i1] === 1 || this.sensorCollider[i2] === 1;
    const type = sensor
      ? started ? EventType.SensorEnter : EventType.SensorExit
      : started ? EventType.ContactStart : EventType.ContactStop;
    this.target!.pushEvent2(type, a, b);
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
  body(index: number): InstanceType<Rapier['RigidBody']> {
    return this.world.getRigidBody(this.bodyHandles[index]);
  }

  /** The Rapier collider of model collider `index`. */
  collider(index: number): InstanceType<Rapier['Collider']> {
    return this.world.getCollider(this.colliderHandles[index]);
  }

  /**
   * Adds a static object while the session runs (a surface that appears). Its colliders get indices after
   * the model's, in the order added. Returns its static index.
   */
  addStatic(pose: Pose, parts: readonly { shape: ShapeSpec; pose: Pose }[], material: { friction: number; restitution: number }): { index: number; colliders: number[] } {
    const body = this.world.createRigidBody(withPose(this.rapier.RigidBodyDesc.fixed(), pose));
    const colliders = parts.map((part) => {
      const desc = colliderDesc(this.rapier, part.shape)
        .setTranslation(part.pose.position[0], part.pose.position[1], part.pose.position[2])
        .setRotation(quat(part.pose.rotation))
        .setFriction(material.friction)
        .setRestitution(material.restitution);
      const collider = this.world.createCollider(desc, body);
      const index = this.nextRuntimeCollider++;
      this.colliderIndex.set(collider.handle, index);
      this.runtimeStaticOf.set(collider.handle, this.staticHandles.length);
      return index;
    });
    this.staticHandles.push(body.handle);
    return { index: this.staticHandles.length - 1, colliders };
  }

  /** Static index of each collider added while running (by collider handle). */
  private readonly runtimeStaticOf = new Map<number, number>();

  /** Adds an app's body (a virtual object). Returns its Rapier body handle. */
  addAppBody(shape: ShapeSpec, pose: Pose, o: AppBodyPhysics): number {
    const rapier = this.rapier;
    const desc = withPose(o.kinematic ? rapier.RigidBodyDesc.kinematicPositionBased() : rapier.RigidBodyDesc.dynamic(), pose)
      .setLinvel(o.velocity[0], o.velocity[1], o.velocity[2])
      .setGravityScale(o.gravityScale)
      .setCcdEnabled(true);
    const body = this.world.createRigidBody(desc);
    const collider = colliderDesc(rapier, shape)
      .setFriction(o.friction)
      .setRestitution(o.restitution)
      .setCollisionGroups((GROUP_APP << 16) | (o.handContact ? 0xffff : 0xffff & ~GROUP_HANDS));
    if (!o.kinematic) collider.setMass(o.mass);
    this.world.createCollider(collider, body);
    return body.handle;
  }

  /** An app body's pose (position, rotation) and linear velocity. */
  appBodyState(handle: number): { position: Vec3; rotation: [number, number, number, number]; velocity: Vec3 } {
    const body = this.world.getRigidBody(handle);
    const p = body.translation();
    const q = body.rotation();
    const v = body.linvel();
    return { position: [p.x, p.y, p.z], rotation: [q.x, q.y, q.z, q.w], velocity: [v.x, v.y, v.z] };
  }

  /** Teleports a dynamic app body, or sets a kinematic one's next pose. */
  setAppBodyPose(handle: number, pose: Pose): void {
    const body = this.world.getRigidBody(handle);
    const t = { x: pose.position[0], y: pose.position[1], z: pose.position[2] };
    if (body.isKinematic()) {
      body.setNextKinematicTranslation(t);
      body.setNextKinematicRotation(quat(pose.rotation));
    } else {
      body.setTranslation(t, true);
      body.setRotation(quat(pose.rotation), true);
    }
  }

  /** Sets an app body's linear velocity. */
  setAppBodyVelocity(handle: number, velocity: Vec3): void {
    this.world.getRigidBody(handle).setLinvel({ x: velocity[0], y: velocity[1], z: velocity[2] }, true);
  }

  /** Removes an app body. */
  removeAppBody(handle: number): void {
    this.world.removeRigidBody(this.world.getRigidBody(handle));
  }

  /** Static indices of the surfaces an app body touches now (sorted). */
  touchingStatics(handle: number): number[] {
    const body = this.world.getRigidBody(handle);
    const found = new Set<number>();
    for (let i = 0; i < body.numColliders(); i++) {
      const collider = body.collider(i);
      this.world.contactPairsWith(collider, (other) => {
        let touching = false;
        this.world.contactPair(collider, other, (manifold) => {
          if (manifold.numContacts() > 0) touching = true;
        });
        if (!touching) return;
        const index = this.colliderIndex.get(other.handle);
        if (index === undefined) return;
        const staticIndex = index < this.model.colliders.length ? (this.model.colliders[index].owner.kind === 'static' ? this.model.colliders[index].owner.index : -1) : (this.runtimeStaticOf.get(other.handle) ?? -1);
        if (staticIndex >= 0) found.add(staticIndex);
      });
    }
    return [...found].sort((a, b) => a - b);
  }

  /** Moves a static object (teleports it; bodies resting on it are woken). */
  moveStatic(index: number, pose: Pose): void {
    const body = this.world.getRigidBody(this.staticHandles[index]);
    body.setTranslation({ x: pose.position[0], y: pose.position[1], z: pose.position[2] }, true);
    body.setRotation(quat(pose.rotation), true);
    this.wakeAll();
  }

  /** Removes a static object and its colliders; bodies resting on it are woken and fall. */
  removeStatic(index: number): void {
    this.world.removeRigidBody(this.world.getRigidBody(this.staticHandles[index]));
    this.wakeAll();
  }

  /** Wakes every dynamic body: a changed surface may have been holding any of them up. */
  private wakeAll(): void {
    for (let i = 0; i < this.bodyHandles.length; i++) this.raw.rbWakeUp(this.bodyHandles[i]);
  }

  /** Teleports a dynamic body to a pose at rest (an actor moving a prop). */
  setBodyPose(bodyIndex: number, pose: Pose): void {
    const body = this.body(bodyIndex);
    body.setTranslation({ x: pose.position[0], y: pose.position[1], z: pose.position[2] }, true);
    body.setRotation(quat(pose.rotation), true);
    body.setLinvel({ x: 0, y: 0, z: 0 }, true);
    body.setAngvel({ x: 0, y: 0, z: 0 }, true);
  }

  /** Sets a dynamic body's linear velocity (m/s, world frame), waking it. */
  setBodyVelocity(bodyIndex: number, velocity: Vec3): void {
    this.body(bodyIndex).setLinvel({ x: velocity[0], y: velocity[1], z: velocity[2] }, true);
  }

  /** Applies an impulse (N·s, world frame) to a dynamic body, waking it. */
  applyImpulse(bodyIndex: number, impulse: Vec3): void {
    this.body(bodyIndex).applyImpulse({ x: impulse[0], y: impulse[1], z: impulse[2] }, true);
  }

  /** Number of bodies Rapier currently simulates (awake). */
  awakeBodyCount(): number {
    let awake = 0;
    for (let i = 0; i < this.bodyHandles.length; i++) if (!this.raw.rbIsSleeping(this.bodyHandles[i])) awake++;
    return awake;
  }

  /** Releases the WASM memory. The world is unusable afterwards. */
  free(): void {
    this.queue.free();
    this.world.free();
  }
}

/** True if the pose at `o` differs from `last`; then copies it into `last`. */
function changed(poses: Float64Array, last: Float64Array, o: number): boolean {
  let same = true;
  for (let k = 0; k < 7; k++) same &&= poses[o + k] === last[o + k];
  if (same) return false;
  for (let k = 0; k < 7; k++) last[o + k] = poses[o + k];
  return true;
}

/**
 * Sorts the 3-word physics records in `events[from, to)` by (a, b, type). Insertion sort: a tick has few
 * events and they arrive nearly sorted, and it allocates nothing.
 */
export function sortEventRecords(events: Uint32Array, from: number, to: number): void {
  for (let i = from + 3; i < to; i += 3) {
    const h = events[i];
    const a = events[i + 1];
    const b = events[i + 2];
    let j = i - 3;
    while (j >= from && compareRecord(events[j + 1], events[j + 2], events[j], a, b, h) > 0) {
      events[j + 3] = events[j];
      events[j + 4] = events[j + 1];
      events[j + 5] = events[j + 2];
      j -= 3;
    }
    events[j + 3] = h;
    events[j + 4] = a;
    events[j + 5] = b;
  }
}

function compareRecord(a1: number, b1: number, h1: number, a2: number, b2: number, h2: number): number {
  return a1 - a2 || b1 - b2 || h1 - h2;
}

function quat(q: readonly number[]) {
  return { x: q[0], y: q[1], z: q[2], w: q[3] };
}

function withPose(desc: InstanceType<Rapier['RigidBodyDesc']>, pose: Pose) {
  return desc.setTranslation(pose.position[0], pose.position[1], pose.position[2]).setRotation(quat(pose.rotation));
}

function colliderDesc(rapier: Rapier, shape: ShapeSpec) {
  switch (shape.type) {
    case 'box':
      return rapier.ColliderDesc.cuboid(shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2);
    case 'sphere':
      return rapier.ColliderDesc.ball(shape.radius);
    case 'capsule':
      return rapier.ColliderDesc.capsule(shape.length / 2, shape.radius);
    case 'cylinder':
      return rapier.ColliderDesc.cylinder(shape.height / 2, shape.radius);
    case 'polygon': {
      const half = shape.thickness / 2;
      const vertices = new Float32Array(shape.points.flatMap(([x, z]) => [x, -half, z, x, half, z]));
      const desc = rapier.ColliderDesc.convexHull(vertices);
      // Loading rejects degenerate polygons, so a hull always exists.
      if (!desc) throw new Error('convex hull of a validated polygon failed');
      return desc;
    }
  }
}
