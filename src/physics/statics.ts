/**
 * Static objects while a session runs: the model's surfaces and fixtures can be moved or removed, and
 * surfaces can be added (a table carried in). Added colliders get indices after the model's, in the order
 * added, so events name them stably.
 */
import type { Pose } from '../geometry/math.js';
import type { ShapeSpec } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { ColliderIndex } from './colliders.js';
import { quat, type Rapier, type RapierWorld } from './rapier.js';
import type { RawFactory } from './raw-factory.js';

/** The static objects of one world, by static index: the model's, then those added while running. */
export class StaticObjects {
  /** Rapier body handle of each static object. */
  private readonly handles: number[] = [];
  /** Static index of each collider added while running (by collider handle). */
  private readonly runtimeStaticOf = new Map<number, number>();
  private nextRuntimeCollider: number;

  constructor(
    private readonly rapier: Rapier,
    private readonly world: RapierWorld,
    private readonly model: SimModel,
    private readonly colliders: ColliderIndex,
    private readonly raw: RawFactory,
    /** Wakes every dynamic body: a changed surface may have been holding any of them up. */
    private readonly wakeAll: () => void,
  ) {
    this.nextRuntimeCollider = model.colliders.length;
  }

  /** Records the body of the model's next static object (the world creates them in model order). */
  register(handle: number): void {
    this.handles.push(handle);
  }

  /** Adds a static object (a surface that appears). Returns its static index and its colliders' indices. */
  add(pose: Pose, parts: readonly { shape: ShapeSpec; pose: Pose }[], material: { friction: number; restitution: number }): { index: number; colliders: number[] } {
    const body = this.raw.bodyAt(this.rapier.RigidBodyType.Fixed, pose);
    const colliders = parts.map((part) => {
      const { position: p, rotation: q } = part.pose;
      const handle = this.raw.collider(part.shape, p[0], p[1], p[2], q[0], q[1], q[2], q[3], material, body);
      const index = this.nextRuntimeCollider++;
      this.colliders.ofHandle.set(handle, index);
      this.runtimeStaticOf.set(handle, this.handles.length);
      return index;
    });
    this.handles.push(body.handle);
    return { index: this.handles.length - 1, colliders };
  }

  /** Moves a static object (teleports it; bodies resting on it are woken). */
  move(index: number, pose: Pose): void {
    const body = this.world.getRigidBody(this.handles[index]);
    body.setTranslation({ x: pose.position[0], y: pose.position[1], z: pose.position[2] }, true);
    body.setRotation(quat(pose.rotation), true);
    this.wakeAll();
  }

  /** Removes a static object and its colliders; bodies resting on it are woken and fall. */
  remove(index: number): void {
    this.world.removeRigidBody(this.world.getRigidBody(this.handles[index]));
    this.wakeAll();
  }

  /** The static index a collider belongs to (by Rapier handle), or −1 for any other collider. */
  indexOfCollider(handle: number): number {
    const index = this.colliders.ofHandle.get(handle);
    if (index === undefined) return -1;
    if (index >= this.model.colliders.length) return this.runtimeStaticOf.get(handle) ?? -1;
    const owner = this.model.colliders[index].owner;
    return owner.kind === 'static' ? owner.index : -1;
  }
}
