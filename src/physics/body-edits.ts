/**
 * Changing bodies from outside the pipeline: an app's own bodies (virtual objects in their own collision
 * group), and actor or code edits of the model's dynamic bodies (teleport, velocity, impulse). Each is
 * applied between steps, so it is part of the tick that follows.
 */
import type { Pose } from '../geometry/math.js';
import type { Quat, ShapeSpec, Vec3 } from '../geometry/types.js';
import { colliderDesc, GROUP_APP, GROUP_HANDS, quat, withPose, type Rapier, type RapierBody, type RapierWorld } from './rapier.js';
import type { StaticObjects } from './statics.js';

/** Options of {@link AppBodies.add}. */
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

/** The bodies an app adds, by Rapier body handle. */
export class AppBodies {
  constructor(
    private readonly rapier: Rapier,
    private readonly world: RapierWorld,
    private readonly statics: StaticObjects,
  ) {}

  /** Adds an app's body (a virtual object). Returns its Rapier body handle. */
  add(shape: ShapeSpec, pose: Pose, o: AppBodyPhysics): number {
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
  state(handle: number): { position: Vec3; rotation: Quat; velocity: Vec3 } {
    const body = this.world.getRigidBody(handle);
    const p = body.translation();
    const q = body.rotation();
    const v = body.linvel();
    return { position: [p.x, p.y, p.z], rotation: [q.x, q.y, q.z, q.w], velocity: [v.x, v.y, v.z] };
  }

  /** Teleports a dynamic app body, or sets a kinematic one's next pose. */
  setPose(handle: number, pose: Pose): void {
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
  setVelocity(handle: number, velocity: Vec3): void {
    this.world.getRigidBody(handle).setLinvel({ x: velocity[0], y: velocity[1], z: velocity[2] }, true);
  }

  /** Removes an app body. */
  remove(handle: number): void {
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
        const staticIndex = this.statics.indexOfCollider(other.handle);
        if (staticIndex >= 0) found.add(staticIndex);
      });
    }
    return [...found].sort((a, b) => a - b);
  }
}

/** Edits of the model's dynamic bodies, by model body index (an actor moving a prop, a test's impulse). */
export class BodyEdits {
  constructor(private readonly body: (index: number) => RapierBody) {}

  /** Teleports a dynamic body to a pose at rest. */
  setPose(bodyIndex: number, pose: Pose): void {
    const body = this.body(bodyIndex);
    body.setTranslation({ x: pose.position[0], y: pose.position[1], z: pose.position[2] }, true);
    body.setRotation(quat(pose.rotation), true);
    body.setLinvel({ x: 0, y: 0, z: 0 }, true);
    body.setAngvel({ x: 0, y: 0, z: 0 }, true);
  }

  /** Sets a dynamic body's linear velocity (m/s, world frame), waking it. */
  setVelocity(bodyIndex: number, velocity: Vec3): void {
    this.body(bodyIndex).setLinvel({ x: velocity[0], y: velocity[1], z: velocity[2] }, true);
  }

  /** Applies an impulse (N·s, world frame) to a dynamic body, waking it. */
  applyImpulse(bodyIndex: number, impulse: Vec3): void {
    this.body(bodyIndex).applyImpulse({ x: impulse[0], y: impulse[1], z: impulse[2] }, true);
  }
}
