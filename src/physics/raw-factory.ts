/**
 * Creating the model's bodies and colliders without building Rapier's descriptors. `world.createCollider(desc,
 * body)` turns a `ColliderDesc` into one raw call (`ColliderSet.raw.createCollider`) and wraps the handle in
 * a `Collider`; `world.createRigidBody(desc)` does the same with a `RigidBodyDesc`. Each descriptor holds
 * half a dozen vectors and rotations, and each call makes as many raw (WASM) objects and frees them again.
 * A session creates about a hundred colliders and forty bodies (the room, its props, the hands' bones), and
 * their descriptors were a third of a short session's garbage (about 100 of 300 KB) and a tenth of its time.
 * Two workers on two cores pay for that garbage twice: allocation is what they contend for (docs/SWEEPS.md).
 *
 * This makes the same raw calls with the same arguments: Rapier's own defaults, read from descriptors made
 * once per thread, and the constant mass-property and velocity values, made once per world as raw objects
 * (Rapier reads them by reference). Worlds are therefore bit-identical (`test/pinned-hashes.test.ts`). The
 * same `Collider` and `RigidBody` wrappers are registered in Rapier's sets, so its JavaScript API (contact
 * pairs, `getRigidBody`, removing a body) sees everything as before.
 */
import type { Pose } from '../geometry/math.js';
import type { ShapeSpec } from '../geometry/types.js';
import { rapierShape, type Rapier, type RapierBody, type RapierCollider, type RapierWorld } from './rapier.js';

/** What a collider is besides its shape and pose. Absent fields keep Rapier's descriptor defaults. */
export interface ColliderSettings {
  friction: number;
  restitution: number;
  /** kg/m³, as `ColliderDesc.setDensity`; absent: Rapier's default density. */
  density?: number;
  sensor?: boolean;
  /** Rapier `ActiveEvents` flags. */
  activeEvents?: number;
  /** Rapier interaction groups (membership << 16 | filter). */
  collisionGroups?: number;
}

type RawVector = ReturnType<Rapier['VectorOps']['intoRaw']>;
type RawRotation = ReturnType<Rapier['RotationOps']['intoRaw']>;
type ColliderDesc = InstanceType<Rapier['ColliderDesc']>;
type RigidBodyDesc = InstanceType<Rapier['RigidBodyDesc']>;
/** Rapier's body types (`RigidBodyType`). */
export type BodyStatus = RigidBodyDesc['status'];

/** A dynamic body's initial motion (world frame). */
export interface BodyMotion {
  linearVelocity: readonly number[];
  angularVelocity: readonly number[];
  ccd: boolean;
}

/** Rapier's descriptor defaults, from descriptors made once per thread (plain JavaScript, no WASM memory). */
let defaultDescs: { collider: ColliderDesc; body: RigidBodyDesc } | null = null;

/** One world's maker of bodies and colliders: it holds the raw values they pass unchanged, freed with the world. */
export class RawFactory {
  private readonly desc: ColliderDesc;
  private readonly bodyDesc: RigidBodyDesc;
  // Read by reference (never consumed) by every collider or body of the world.
  private readonly centerOfMass: RawVector;
  private readonly principalAngularInertia: RawVector;
  private readonly angularInertiaLocalFrame: RawRotation;
  private readonly bodyCenterOfMass: RawVector;
  private readonly bodyPrincipalAngularInertia: RawVector;
  private readonly bodyAngularInertiaLocalFrame: RawRotation;
  private readonly restingLinvel: RawVector;
  private readonly restingAngvel: RawVector;

  constructor(
    private readonly rapier: Rapier,
    private readonly world: RapierWorld,
  ) {
    defaultDescs ??= { collider: rapier.ColliderDesc.ball(1), body: rapier.RigidBodyDesc.fixed() };
    const { collider: desc, body } = defaultDescs;
    this.desc = desc;
    this.bodyDesc = body;
    const { VectorOps, RotationOps } = rapier;
    this.centerOfMass = VectorOps.intoRaw(desc.centerOfMass);
    this.principalAngularInertia = VectorOps.intoRaw(desc.principalAngularInertia);
    this.angularInertiaLocalFrame = RotationOps.intoRaw(desc.angularInertiaLocalFrame);
    this.bodyCenterOfMass = VectorOps.intoRaw(body.centerOfMass);
    this.bodyPrincipalAngularInertia = VectorOps.intoRaw(body.principalAngularInertia);
    this.bodyAngularInertiaLocalFrame = RotationOps.intoRaw(body.angularInertiaLocalFrame);
    this.restingLinvel = VectorOps.intoRaw(body.linvel);
    this.restingAngvel = VectorOps.intoRaw(body.angvel);
  }

  /**
   * Creates a body of type `status` at translation (x, y, z) and rotation (qx, qy, qz, qw), moving as
   * `motion` says (absent: at rest, no CCD): what `world.createRigidBody(desc)` does for that descriptor.
   */
  body(status: BodyStatus, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number, motion?: BodyMotion): RapierBody {
    const { rapier, world, bodyDesc: d } = this;
    const set = world.bodies;
    const translation = rapier.VectorOps.intoRaw({ x, y, z });
    const rotation = rapier.RotationOps.intoRaw({ x: qx, y: qy, z: qz, w: qw });
    const linvel = motion ? rapier.VectorOps.intoRaw({ x: motion.linearVelocity[0], y: motion.linearVelocity[1], z: motion.linearVelocity[2] }) : this.restingLinvel;
    const angvel = motion ? rapier.VectorOps.intoRaw({ x: motion.angularVelocity[0], y: motion.angularVelocity[1], z: motion.angularVelocity[2] }) : this.restingAngvel;
    const handle = set.raw.createRigidBody(
      d.enabled,
      translation,
      rotation,
      d.gravityScale,
      d.mass,
      d.massOnly,
      this.bodyCenterOfMass,
      linvel,
      angvel,
      this.bodyPrincipalAngularInertia,
      this.bodyAngularInertiaLocalFrame,
      d.translationsEnabledX,
      d.translationsEnabledY,
      d.translationsEnabledZ,
      d.rotationsEnabledX,
      d.rotationsEnabledY,
      d.rotationsEnabledZ,
      d.linearDamping,
      d.angularDamping,
      status as number,
      d.canSleep,
      d.sleeping,
      d.softCcdPrediction,
      motion ? motion.ccd : d.ccdEnabled,
      d.dominanceGroup,
      d.additionalSolverIterations,
      d.additionalPgsIterations,
    );
    translation.free();
    rotation.free();
    if (motion) {
      linvel.free();
      angvel.free();
    }
    const body = new rapier.RigidBody(set.raw, world.colliders, handle);
    body.userData = d.userData;
    (set as unknown as WrapperArena<RapierBody>).map.set(handle, body);
    return body;
  }

  /** {@link body} at `pose`. */
  bodyAt(status: BodyStatus, pose: Pose, motion?: BodyMotion): RapierBody {
    // Indexed, not destructured: destructuring an array steps its iterator, an object per element.
    const p = pose.position;
    const q = pose.rotation;
    return this.body(status, p[0], p[1], p[2], q[0], q[1], q[2], q[3], motion);
  }

  /**
   * Creates a collider of `shape` on `body`, at translation (x, y, z) and rotation (qx, qy, qz, qw) relative
   * to it: what `world.createCollider(desc, body)` does for the descriptor of that shape, pose and
   * settings. Returns the collider's handle.
   */
  collider(shape: ShapeSpec, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number, settings: ColliderSettings, body: RapierBody): number {
    const { rapier, world, desc } = this;
    const set = world.colliders;
    const jsShape = rapierShape(rapier, shape);
    const rawShape = jsShape.intoRaw();
    // Loading rejects degenerate polygons, so a hull always exists.
    if (!rawShape) throw new Error('convex hull of a validated polygon failed');
    const translation = rapier.VectorOps.intoRaw({ x, y, z });
    const rotation = rapier.RotationOps.intoRaw({ x: qx, y: qy, z: qz, w: qw });
    const density = settings.density;
    const handle = set.raw.createCollider(
      desc.enabled,
      rawShape,
      translation,
      rotation,
      density === undefined ? desc.massPropsMode : rapier.MassPropsMode.Density,
      desc.mass,
      this.centerOfMass,
      this.principalAngularInertia,
      this.angularInertiaLocalFrame,
      density ?? desc.density,
      settings.friction,
      settings.restitution,
      desc.frictionCombineRule,
      desc.restitutionCombineRule,
      settings.sensor ?? desc.isSensor,
      settings.collisionGroups ?? desc.collisionGroups,
      desc.solverGroups,
      desc.activeCollisionTypes,
      desc.activeHooks,
      settings.activeEvents ?? desc.activeEvents,
      desc.contactForceEventThreshold,
      desc.contactSkin,
      true,
      body.handle,
      world.bodies.raw,
    );
    rawShape.free();
    translation.free();
    rotation.free();
    if (handle === undefined) throw new Error('Rapier did not create a collider');
    (set as unknown as WrapperArena<RapierCollider>).map.set(handle, new rapier.Collider(set, handle, body, jsShape));
    return handle;
  }

  /** Releases the raw values (with the world). */
  free(): void {
    for (const raw of [this.centerOfMass, this.principalAngularInertia, this.angularInertiaLocalFrame, this.bodyCenterOfMass, this.bodyPrincipalAngularInertia, this.bodyAngularInertiaLocalFrame, this.restingLinvel, this.restingAngvel]) raw.free();
  }
}

/** A set's handle → wrapper arena, which Rapier's `create…` methods fill (private in Rapier's types). */
interface WrapperArena<T> {
  map: { set(handle: number, wrapper: T): void };
}
