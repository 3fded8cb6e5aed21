/**
 * The model's colliders in Rapier: creating each from the model, and the maps between Rapier handles and
 * model collider indices that events and queries use, so Rapier's handle layout never leaks out.
 */
import type { SimModel } from '../model/types.js';
import { colliderDesc, GROUP_HANDS, quat, type Rapier, type RapierBody, type RapierWorld } from './rapier.js';

/** Collider handles ↔ collider indices: the model's colliders, then those added while running. */
export class ColliderIndex {
  /** Rapier collider handle → collider index. */
  readonly ofHandle = new Map<number, number>();
  /** Model collider index → Rapier handle. */
  readonly handles: Float64Array;
  /** 1 for sensors, by model collider index. */
  readonly sensor: Uint8Array;

  constructor(
    private readonly rapier: Rapier,
    private readonly world: RapierWorld,
    private readonly model: SimModel,
  ) {
    this.handles = new Float64Array(model.colliders.length);
    this.sensor = new Uint8Array(model.colliders.length);
  }

  /** Creates model collider `index` on `body`, at its model pose or at `pose` (7 numbers) relative to the body. */
  create(index: number, body: RapierBody, pose?: ArrayLike<number>): number {
    const rapier = this.rapier;
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
    this.ofHandle.set(collider.handle, index);
    this.handles[index] = collider.handle;
    this.sensor[index] = c.sensor ? 1 : 0;
    return collider.handle;
  }
}
