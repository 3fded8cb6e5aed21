/**
 * The model's colliders in Rapier: creating each from the model, and the maps between Rapier handles and
 * model collider indices that events and queries use, so Rapier's handle layout never leaks out.
 */
import type { SimModel } from '../model/types.js';
import { GROUP_HANDS, type Rapier, type RapierBody } from './rapier.js';
import type { RawFactory } from './raw-factory.js';

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
    private readonly raw: RawFactory,
    private readonly model: SimModel,
  ) {
    this.handles = new Float64Array(model.colliders.length);
    this.sensor = new Uint8Array(model.colliders.length);
  }

  /**
   * Creates model collider `index` on `body`, at its model pose or at the pose (7 numbers) at `offset` in
   * `poses`, relative to the body.
   */
  create(index: number, body: RapierBody, poses?: ArrayLike<number>, offset = 0): number {
    const c = this.model.colliders[index];
    const p = poses ?? c.localPose.position;
    const q = poses ?? c.localPose.rotation;
    const o = poses ? offset : 0;
    const r = poses ? offset + 3 : 0;
    const handle = this.raw.collider(c.shape, p[o], p[o + 1], p[o + 2], q[r], q[r + 1], q[r + 2], q[r + 3], {
      friction: c.friction,
      restitution: c.restitution,
      density: c.density > 0 ? c.density : undefined,
      sensor: c.sensor,
      // Events come from dynamic bodies and sensors (a hand touching a prop reports through the prop).
      activeEvents: c.sensor || c.owner.kind === 'body' ? this.rapier.ActiveEvents.COLLISION_EVENTS : undefined,
      // Hands are in their own collision group, so an app's virtual bodies can let them pass through.
      collisionGroups: c.owner.kind === 'hand' ? (GROUP_HANDS << 16) | 0xffff : undefined,
    }, body);
    this.ofHandle.set(handle, index);
    this.handles[index] = handle;
    this.sensor[index] = c.sensor ? 1 : 0;
    return handle;
  }
}
