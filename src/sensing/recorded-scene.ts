/**
 * The scene of a recorded frame stream as it was at each frame: props where they were, surfaces added,
 * moved or removed by then, and hands as capsules along their reported joints, in one geometry store,
 * with what each primitive shows (its label and object number: the renderer colours it from them).
 * Point-of-view rendering and geometric validators read it.
 */
import { DRAW_DYNAMIC, DRAW_HANDS, DRAW_STATIC } from '../../kernels/depth-raster.js';
import { DIGIT_BASES, DIGIT_LENGTHS, J } from '../../kernels/hand-fk.js';
import { PrimitiveKind, PrimitiveType, type SceneGeometry } from '../../kernels/scene-geometry.js';
import { decodeEvents } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import { HAND_JOINT_FLOATS, HAND_JOINT_RADIUS, handTracked } from '../frame/layout.js';
import { composePose, partsOf, quatFromAxes, quatFromEulerDeg, type Pose } from '../geometry/math.js';
import type { SemanticLabel, Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import { decodeSensingEvent } from './events.js';
import { buildSceneGeometry, poseBodies, primitiveOf, type SceneGeometryIndex } from './scene-geometry.js';

/** Bones drawn for a hand: pairs of OpenXR joints. */
const HAND_BONES: [number, number][] = [];
DIGIT_BASES.forEach((base, digit) => {
  HAND_BONES.push([J.Wrist, base]);
  for (let j = base; j < base + DIGIT_LENGTHS[digit] - 1; j++) HAND_BONES.push([j, j + 1]);
});

/** What a primitive shows: its object's label (`prop` for an unlabelled body, `hand`) and the object's number. */
export interface PrimitiveLook {
  label: SemanticLabel | 'prop' | 'hand';
  index: number;
}

/** A stream's scene, updated frame by frame. Feed it every frame in order with {@link RecordedScene.advance}. */
export class RecordedScene {
  readonly index: SceneGeometryIndex;
  /** What each primitive shows. */
  private readonly looks: PrimitiveLook[] = [];
  /** Per runtime surface (by static index): its primitives and their poses relative to it. */
  private readonly runtime = new Map<number, { primitive: number; local: Pose }[]>();
  /** Hand capsules: left bones, then right bones. */
  private readonly handPrimitives: number[] = [];

  /**
   * @param surfacesOnly keep only the static surfaces up to date (surface events), not bodies and hands:
   *   for readers of static geometry alone, such as the `penetration` validator, every frame
   */
  constructor(
    readonly model: SimModel,
    private readonly surfacesOnly = false,
  ) {
    this.index = buildSceneGeometry(model);
    const g = this.index.geometry;
    for (let i = 0; i < g.count; i++) this.looks.push(this.lookFor(i));
    for (let h = 0; h < 2; h++) {
      for (let b = 0; b < HAND_BONES.length; b++) {
        this.handPrimitives.push(g.add({ type: PrimitiveType.Capsule, kind: PrimitiveKind.Hand, owner: h, params: [0.008, 0.01], position: [0, -100, 0], rotation: [0, 0, 0, 1] }));
        this.looks.push({ label: 'hand', index: h });
      }
    }
    // The model's own hand-part primitives are never posed here: the joints channel draws the hands.
    for (const p of this.index.handParts) g.setEnabled(p, false);
  }

  get geometry(): SceneGeometry {
    return this.index.geometry;
  }

  /** What primitive `i` shows. */
  lookOf = (i: number): PrimitiveLook => this.looks[i];

  /**
   * Applies a frame: runtime surface changes from its events, body poses, hand joints. Returns whether a
   * surface was added, moved or removed in this frame. With `poses` false only the surfaces are updated:
   * body and hand poses are whole in every frame, so a reader that draws one frame in several (a video)
   * applies every frame's surface changes and {@link pose}s only the frame it draws.
   */
  advance(frame: FrameView, poses = true): boolean {
    const g = this.index.geometry;
    let surfacesChanged = false;
    for (const event of decodeEvents(frame.events, frame.eventWords)) {
      const e = decodeSensingEvent(event);
      if (e?.kind === 'surface-added' || e?.kind === 'surface-moved' || e?.kind === 'surface-removed') surfacesChanged = true;
      if (e?.kind === 'surface-added') {
        const pose: Pose = { position: [...e.spec.position], rotation: quatFromEulerDeg(e.spec.eulerDeg) };
        const parts = partsOf(e.spec).map((part) => {
          const world = composePose(pose, part.pose);
          const primitive = g.add({ ...primitiveOf(part.shape), kind: PrimitiveKind.Static, owner: e.surface, position: world.position, rotation: world.rotation });
          this.looks[primitive] = { label: e.spec.label, index: e.surface };
          return { primitive, local: part.pose };
        });
        this.runtime.set(e.surface, parts);
      } else if (e?.kind === 'surface-moved' || e?.kind === 'surface-removed') {
        const parts = this.runtime.get(e.surface) ?? this.index.statics[e.surface].map((primitive, k) => ({ primitive, local: this.model.colliders[this.model.statics[e.surface].colliders[k]].localPose }));
        for (const { primitive, local } of parts) {
          if (e.kind === 'surface-removed') {
            g.setEnabled(primitive, false);
          } else {
            const world = composePose({ position: [e.pose[0], e.pose[1], e.pose[2]], rotation: [e.pose[3], e.pose[4], e.pose[5], e.pose[6]] }, local);
            g.setPose(primitive, world.position, world.rotation);
          }
        }
      }
    }
    if (poses && !this.surfacesOnly) this.pose(frame);
    return surfacesChanged;
  }

  /** Puts the bodies and hands where `frame` has them (surfaces as the frames applied so far left them). */
  pose(frame: FrameView): void {
    poseBodies(this.index, frame.bodyPoses);
    this.poseHand(frame.channel('hand-left'), 0);
    this.poseHand(frame.channel('hand-right'), 1);
  }

  private poseHand(channel: Float32Array | undefined, hand: number): void {
    const g = this.index.geometry;
    const tracked = handTracked(channel);
    HAND_BONES.forEach(([a, b], k) => {
      const primitive = this.handPrimitives[hand * HAND_BONES.length + k];
      g.setEnabled(primitive, tracked);
      if (!tracked) return;
      const pa: Vec3 = [channel[a * HAND_JOINT_FLOATS], channel[a * HAND_JOINT_FLOATS + 1], channel[a * HAND_JOINT_FLOATS + 2]];
      const pb: Vec3 = [channel[b * HAND_JOINT_FLOATS], channel[b * HAND_JOINT_FLOATS + 1], channel[b * HAND_JOINT_FLOATS + 2]];
      const axis: Vec3 = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
      const length = Math.hypot(axis[0], axis[1], axis[2]);
      const radius = Math.min(channel[a * HAND_JOINT_FLOATS + HAND_JOINT_RADIUS], channel[b * HAND_JOINT_FLOATS + HAND_JOINT_RADIUS]);
      g.params[primitive * 3] = radius;
      g.params[primitive * 3 + 1] = length / 2;
      const side: Vec3 = Math.abs(axis[0]) < 0.9 * length ? [1, 0, 0] : [0, 0, 1];
      g.setPose(primitive, [(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2], quatFromAxes(axis, side));
    });
  }

  private lookFor(i: number): PrimitiveLook {
    const g = this.index.geometry;
    const owner = g.owner(i);
    if (g.kind(i) === PrimitiveKind.Static) return { label: this.model.statics[owner].label, index: owner };
    if (g.kind(i) === PrimitiveKind.Dynamic) return { label: this.model.bodies[owner].label ?? 'prop', index: owner };
    return { label: 'hand', index: 0 };
  }
}

/** Kinds of primitive a view draws: everything. */
export const VIEW_KINDS = DRAW_STATIC | DRAW_DYNAMIC | DRAW_HANDS;
