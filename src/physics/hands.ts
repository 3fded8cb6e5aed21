/**
 * The hands in the physical world: one kinematic body per hand at the wrist, carrying a collider per hand
 * part posed relative to it. They push dynamic bodies; static geometry is ignored (Rapier's default active
 * collision types), and parts of one hand never collide with each other (same body). What did not move
 * since the last tick is not sent to Rapier again.
 */
import { POSE_FLOATS } from '../../kernels/pose-compose.js';
import type { SimModel } from '../model/types.js';
import type { ColliderIndex } from './colliders.js';
import type { RawBodies, Rapier, RapierWorld } from './rapier.js';
import type { RawFactory } from './raw-factory.js';

/** Poses of the hands: each wrist (2 × 7 numbers, world) and each part relative to its wrist (7 each). */
export interface HandPoses {
  wrists: Float64Array;
  parts: Float64Array;
  /** Per hand (left, right): a number that changes whenever that hand's part poses may have changed. */
  localVersions: Float64Array;
}

/** The hands' kinematic bodies and part colliders of one world. */
export class HandBodies {
  /** Rapier handles of the two hands' kinematic bodies (left, right). */
  private readonly bodyHandles = new Float64Array(2);
  /** Rapier collider handles of the hand parts, in model order. */
  private readonly partHandles: Float64Array;
  /** Last wrist poses and part poses given, to skip what did not move. */
  private readonly lastWrists = new Float64Array(2 * POSE_FLOATS);
  private readonly lastParts: Float64Array;
  private readonly lastVersions: Float64Array;
  /** The hand (0 left, 1 right) of each part. */
  private readonly partHand: Uint8Array;
  private readonly colliderRaw: RapierWorld['colliders']['raw'];

  /** Creates the hands' bodies and colliders at `hands` (after every other body: creation order is fixed). */
  constructor(
    rapier: Rapier,
    factory: RawFactory,
    model: SimModel,
    colliders: ColliderIndex,
    private readonly raw: RawBodies,
    colliderRaw: RapierWorld['colliders']['raw'],
    hands: HandPoses,
  ) {
    this.colliderRaw = colliderRaw;
    this.partHandles = new Float64Array(model.handParts.length);
    this.lastParts = new Float64Array(hands.parts);
    this.lastWrists.set(hands.wrists);
    this.lastVersions = new Float64Array(hands.localVersions);
    this.partHand = Uint8Array.from(model.handParts, (part) => part.hand);
    if (model.handParts.length === 0) return;
    const bodies = [0, 1].map((h) => {
      const w = hands.wrists.subarray(h * POSE_FLOATS, (h + 1) * POSE_FLOATS);
      const body = factory.body(rapier.RigidBodyType.KinematicPositionBased, w[0], w[1], w[2], w[3], w[4], w[5], w[6]);
      this.bodyHandles[h] = body.handle;
      return body;
    });
    for (let i = 0; i < model.handParts.length; i++) {
      const part = model.handParts[i];
      this.partHandles[i] = colliders.create(part.collider, bodies[part.hand], hands.parts, i * POSE_FLOATS);
    }
  }

  /**
   * Sets where the hands must be at the end of the next step. What did not move is skipped: a hand whose
   * parts' version is the one last given, without looking at its parts.
   */
  move(hands: HandPoses): void {
    const { wrists, parts, localVersions } = hands;
    const raw = this.raw;
    for (let h = 0; h < 2 && this.partHandles.length > 0; h++) {
      const o = h * POSE_FLOATS;
      if (!changed(wrists, this.lastWrists, o)) continue;
      raw.rbSetNextKinematicTranslation(this.bodyHandles[h], wrists[o], wrists[o + 1], wrists[o + 2]);
      raw.rbSetNextKinematicRotation(this.bodyHandles[h], wrists[o + 3], wrists[o + 4], wrists[o + 5], wrists[o + 6]);
    }
    const leftMoved = localVersions[0] !== this.lastVersions[0];
    const rightMoved = localVersions[1] !== this.lastVersions[1];
    if (!leftMoved && !rightMoved) return;
    this.lastVersions.set(localVersions);
    const colliders = this.colliderRaw;
    for (let i = 0; i < this.partHandles.length; i++) {
      if (!(this.partHand[i] === 0 ? leftMoved : rightMoved)) continue;
      const o = i * POSE_FLOATS;
      if (!changed(parts, this.lastParts, o)) continue;
      const c = this.partHandles[i];
      colliders.coSetTranslationWrtParent(c, parts[o], parts[o + 1], parts[o + 2]);
      colliders.coSetRotationWrtParent(c, parts[o + 3], parts[o + 4], parts[o + 5], parts[o + 6]);
    }
  }
}

/** True if the pose at `o` differs from `last`; then copies it into `last`. */
function changed(poses: Float64Array, last: Float64Array, o: number): boolean {
  let same = true;
  for (let k = 0; k < POSE_FLOATS; k++) same &&= poses[o + k] === last[o + k];
  if (same) return false;
  for (let k = 0; k < POSE_FLOATS; k++) last[o + k] = poses[o + k];
  return true;
}
