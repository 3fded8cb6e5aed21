/**
 * What a point-of-view image shows: the scene of a recorded stream as it was at a tick (props where they
 * were, surfaces added, moved or removed by then, hands from their joint channels), the colour of each
 * primitive, and the cameras to look from. Rendering itself is `gl-renderer.ts` or the CPU fallback here.
 */
import { DRAW_DYNAMIC, DRAW_HANDS, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose, type RasterCamera } from '../../kernels/depth-raster.js';
import { J } from '../../kernels/hand-fk.js';
import { PrimitiveKind, PrimitiveType, type SceneGeometry } from '../../kernels/scene-geometry.js';
import { decodeEvents } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import { HAND_JOINT_FLOATS } from '../frame/layout.js';
import { composePose, partsOf, quatFromAxes, quatFromEulerDeg, type Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import { decodeSensingEvent } from '../sensing/events.js';
import { buildSceneGeometry, poseBodies, primitiveOf, type SceneGeometryIndex } from '../sensing/scene-geometry.js';
import { objectColour } from './colours.js';
import type { RenderedView } from './gl-renderer.js';

/** Bones drawn for a hand: pairs of OpenXR joints. */
const HAND_BONES: [number, number][] = [];
for (const [base, length] of [[2, 4], [6, 5], [11, 5], [16, 5], [21, 5]] as const) {
  HAND_BONES.push([J.Wrist, base]);
  for (let j = base; j < base + length - 1; j++) HAND_BONES.push([j, j + 1]);
}

/** Kinds of primitive a view draws. */
export const VIEW_KINDS = DRAW_STATIC | DRAW_DYNAMIC | DRAW_HANDS;

/** A stream's scene, updated frame by frame. Feed it every frame in order with {@link RecordedScene.advance}. */
export class RecordedScene {
  readonly index: SceneGeometryIndex;
  /** RGB per primitive. */
  private readonly colours: number[][] = [];
  /** Per runtime surface (by static index): its primitives and their poses relative to it. */
  private readonly runtime = new Map<number, { primitive: number; local: Pose }[]>();
  /** Hand capsules: left bones, then right bones. */
  private readonly handPrimitives: number[] = [];

  constructor(readonly model: SimModel) {
    this.index = buildSceneGeometry(model);
    const g = this.index.geometry;
    for (let i = 0; i < g.count; i++) this.colours.push(this.colourFor(i));
    for (let h = 0; h < 2; h++) {
      for (let b = 0; b < HAND_BONES.length; b++) {
        this.handPrimitives.push(g.add({ type: PrimitiveType.Capsule, kind: PrimitiveKind.Hand, owner: h, params: [0.008, 0.01], position: [0, -100, 0], rotation: [0, 0, 0, 1] }));
        this.colours.push(objectColour('hand', h));
      }
    }
    // The model's own hand-part primitives are never posed here: the joints channel draws the hands.
    for (const p of this.index.handParts) g.setEnabled(p, false);
  }

  get geometry(): SceneGeometry {
    return this.index.geometry;
  }

  /** The colour of primitive `i` (RGB 0–255). */
  colourOf = (i: number): readonly number[] => this.colours[i];

  /** Applies a frame: runtime surface changes from its events, body poses, hand joints. */
  advance(frame: FrameView): void {
    const g = this.index.geometry;
    for (const event of decodeEvents(frame.events, frame.eventWords)) {
      const e = decodeSensingEvent(event);
      if (e?.kind === 'surface-added') {
        const pose: Pose = { position: [...e.spec.position], rotation: quatFromEulerDeg(e.spec.eulerDeg) };
        const parts = partsOf(e.spec).map((part) => {
          const world = composePose(pose, part.pose);
          const primitive = g.add({ ...primitiveOf(part.shape), kind: PrimitiveKind.Static, owner: e.surface, position: world.position, rotation: world.rotation });
          this.colours[primitive] = objectColour(e.spec.label, e.surface);
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
    poseBodies(this.index, frame.bodyPoses);
    this.poseHand(frame.channel('hand-left'), 0);
    this.poseHand(frame.channel('hand-right'), 1);
  }

  private poseHand(channel: Float32Array | undefined, hand: number): void {
    const g = this.index.geometry;
    const tracked = channel !== undefined && channel[channel.length - 1] === 1;
    HAND_BONES.forEach(([a, b], k) => {
      const primitive = this.handPrimitives[hand * HAND_BONES.length + k];
      g.setEnabled(primitive, tracked);
      if (!tracked) return;
      const pa: Vec3 = [channel[a * HAND_JOINT_FLOATS], channel[a * HAND_JOINT_FLOATS + 1], channel[a * HAND_JOINT_FLOATS + 2]];
      const pb: Vec3 = [channel[b * HAND_JOINT_FLOATS], channel[b * HAND_JOINT_FLOATS + 1], channel[b * HAND_JOINT_FLOATS + 2]];
      const axis: Vec3 = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
      const length = Math.hypot(axis[0], axis[1], axis[2]);
      const radius = Math.min(channel[a * HAND_JOINT_FLOATS + 7], channel[b * HAND_JOINT_FLOATS + 7]);
      g.params[primitive * 3] = radius;
      g.params[primitive * 3 + 1] = length / 2;
      const side: Vec3 = Math.abs(axis[0]) < 0.9 * length ? [1, 0, 0] : [0, 0, 1];
      g.setPose(primitive, [(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2], quatFromAxes(axis, side));
    });
  }

  private colourFor(i: number): number[] {
    const g = this.index.geometry;
    const owner = g.owner(i);
    if (g.kind(i) === PrimitiveKind.Static) return objectColour(this.model.statics[owner].label, owner);
    if (g.kind(i) === PrimitiveKind.Dynamic) return objectColour(this.model.bodies[owner].label ?? 'prop', owner);
    return objectColour('hand', 0);
  }
}

/** Cameras a view can be rendered from. */
export type ViewCamera = 'head' | 'depth' | 'overview' | { position: Vec3; lookAt: Vec3 };

/** Options of {@link viewCamera}. */
export interface ViewCameraOptions {
  width: number;
  height: number;
  /** Horizontal field of view, degrees (ignored for `depth`, which uses the depth camera's intrinsics). */
  fovDeg: number;
}

/**
 * A camera for a frame: `head` (the eye centre, looking where the head looks), `depth` (the recorded depth
 * camera, with its intrinsics), `overview` (a corner of the room, looking at its centre), or an explicit
 * position and target.
 */
export function viewCamera(which: ViewCamera, frame: FrameView, model: SimModel, options: ViewCameraOptions, depthMount?: number[]): RasterCamera {
  const camera = pinholeCamera(options.width, options.height, (options.fovDeg * Math.PI) / 180, 0.05, 100);
  const head = frame.channel('head')!;
  const headPose: Pose = { position: [head[0], head[1], head[2]], rotation: [head[3], head[4], head[5], head[6]] };
  if (which === 'head') {
    setCameraPose(camera, headPose.position, headPose.rotation);
  } else if (which === 'depth') {
    if (!depthMount) throw new RangeError('this stream has no depth camera; use --camera head');
    const pose = composePose(headPose, { position: [depthMount[0], depthMount[1], depthMount[2]], rotation: [depthMount[3], depthMount[4], depthMount[5], depthMount[6]] });
    setCameraPose(camera, pose.position, pose.rotation);
  } else {
    const size = model.sources.scene.room.size;
    const { position, lookAt } = which === 'overview' ? { position: [size[0] / 2 - 0.3, size[1] - 0.3, size[2] / 2 - 0.3] as Vec3, lookAt: [0, 0.6, 0] as Vec3 } : which;
    const back: Vec3 = [position[0] - lookAt[0], position[1] - lookAt[1], position[2] - lookAt[2]];
    setCameraPose(camera, position, quatFromAxes([0, 1, 0], back, 'z'));
  }
  return camera;
}

/** Renders a view on the CPU: the depth kernel's z-buffer, coloured by the primitive each pixel shows. */
export function renderOnCpu(scene: RecordedScene, camera: RasterCamera): RenderedView {
  const raster = new DepthRaster(camera.width, camera.height);
  raster.render(scene.geometry, camera, VIEW_KINDS);
  const rgb = new Uint8Array(camera.width * camera.height * 3);
  for (let i = 0; i < raster.id.length; i++) {
    const id = raster.id[i];
    if (id >= 0) rgb.set(scene.colourOf(id >> 3), i * 3);
  }
  return { width: camera.width, height: camera.height, rgb, depth: raster.depth.slice() };
}
