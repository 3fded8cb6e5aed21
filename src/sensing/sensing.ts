/**
 * The sensing stage: the depth camera, plane detection, anchors and hit tests of one session, plus the
 * environment whose surfaces they sense. It runs after physics each tick:
 *   depth frame (when due) → plane observation → plane reports → recorded hit tests → anchors.
 * Nothing here runs, and nothing is allocated, for a model with sensing off.
 */
import { EventType, NO_PLANE } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import type { Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { PhysicsWorld } from '../physics/world.js';
import type { RandomStreams } from '../random.js';
import type { HandPartPoses } from '../user/hand-parts.js';
import { Anchors, type Anchor } from './anchors.js';
import { CpuDepthInformation, type RigidTransformLike } from './depth-information.js';
import { DepthSensor } from './depth-sensor.js';
import { Environment } from './environment.js';
import { hitTest, type HitTestEntity, type HitTestResult } from './hit-test.js';
import { OBSERVATION_STRIDE, PlaneDetector, type DetectedPlane } from './planes.js';
import { poseBodies, poseHands, type SceneGeometryIndex } from './scene-geometry.js';

const NO_PLANES: ReadonlyMap<number, DetectedPlane> = new Map();

/** Options of {@link Sensing.hitTest}. */
export interface HitTestOptions {
  /** What to hit (default `['plane']`, as in WebXR). `depth` needs a depth camera. */
  entityTypes?: HitTestEntity[];
  /** Record the results in the stream (default true). */
  record?: boolean;
}

/** One session's senses. */
export class Sensing {
  readonly depth: DepthSensor | null;
  readonly planes: PlaneDetector | null;
  readonly anchors = new Anchors();
  readonly environment: Environment;
  private readonly headPose = new Float64Array(7);
  private readonly pendingHits: { id: number; results: HitTestResult[] }[] = [];
  private hitRequests = 0;
  /** The depth sensor's image serial when plane detection last observed it. */
  private observedImage = -1;
  private lastDepthInformation: { frameIndex: number; transform: RigidTransformLike | undefined; info: CpuDepthInformation } | null = null;
  /** Fills a frame's depth image from the latest depth frame when the frame's image is first read. */
  private readonly fillDepth = (out: Uint16Array) => out.set(this.depth!.reading);

  constructor(
    private readonly model: SimModel,
    readonly sceneIndex: SceneGeometryIndex,
    random: RandomStreams,
    physics: () => PhysicsWorld,
  ) {
    const { depth, planes } = model.sensing;
    this.depth = depth ? new DepthSensor(depth, random) : null;
    const room = model.sources.scene.room.size;
    this.planes = planes ? new PlaneDetector(planes, sceneIndex.geometry, [0, room[1] / 2, 0]) : null;
    if (this.planes) model.statics.forEach((s, i) => this.planes!.addSurface(i, sceneIndex.statics[i], s.label));
    // A change to the room must not reach a depth frame taken before it, however late the frame is read.
    this.environment = new Environment(model, sceneIndex, physics, this.planes, () => this.depth?.settle());
  }

  /**
   * Runs the stage for `tick`. `headPose` writes the head's world pose (7 numbers); `bodyPoses` is the
   * frame's bodies channel; `hands` the hand parts' poses (null without hands).
   */
  sense(tick: number, frame: Frame, writeHeadPose: (out: Float64Array) => void, hands: HandPartPoses | null): void {
    // Sessions without senses, hit tests or anchors (most physics tasks) pay one branch.
    if (!this.depth && !this.planes && this.pendingHits.length === 0 && this.anchors.count === 0) return;
    const { dt } = this.model.timing;
    frame.hasDepth = false;
    const sensor = this.depth;
    frame.depthFill = null;
    if (sensor && sensor.due(tick, dt)) {
      // Readings an app still holds keep the scene they saw; then the scene moves on.
      sensor.release();
      poseBodies(this.sceneIndex, frame.bodyPoses);
      if (hands && sensor.model.includeHands) poseHands(this.sceneIndex, this.model, hands);
      writeHeadPose(this.headPose);
      // The frame is rendered only as far as it is read: by plane detection here, later perhaps by the
      // app, a hit test or the stream (see DepthSensor). The frame's hash covers what fixes the image
      // (writeDepthStamp), so an unread image is never rendered.
      sensor.capture(tick, dt, this.headPose, this.sceneIndex.geometry);
      if (sensor.model.record && frame.depthPixels) {
        frame.hasDepth = true;
        frame.depthFill = this.fillDepth;
        writeDepthStamp(sensor, frame);
      }
      if (this.planes?.observing()) {
        const image = sensor.idealImage(OBSERVATION_STRIDE);
        // The image observed last time, from the same pose, would mark the same cells again: nothing new.
        if (sensor.imageSerial !== this.observedImage) {
          const { minRange, maxRange } = sensor.model.noise;
          this.planes.observe(sensor.camera, image.depth, image.id, minRange, maxRange, image);
          this.observedImage = sensor.imageSerial;
        }
      }
    }
    this.planes?.update(tick, tick * dt, frame);
    // Setting an array's length is a slow builtin call even when it is already 0: most ticks have no hits.
    if (this.pendingHits.length > 0) {
      for (const { id, results } of this.pendingHits) writeHitRecord(frame, id, results);
      this.pendingHits.length = 0;
    }
    this.anchors.update(this.planes?.detected ?? NO_PLANES, frame);
  }

  /** The detected planes now, in detection order (the same objects while they persist). */
  detectedPlanes(): DetectedPlane[] {
    return this.planes ? [...this.planes.detected.values()] : [];
  }

  /**
   * The latest depth frame as WebXR's `XRCPUDepthInformation`, or null before the first frame or without
   * a depth camera. `format` defaults to the camera's configured format.
   */
  depthInformation(format?: 'unsigned-short' | 'float32', normDepthBufferFromNormView?: RigidTransformLike): CpuDepthInformation | null {
    const sensor = this.depth;
    if (!sensor || sensor.frameIndex < 0) return null;
    const chosen = format ?? (sensor.model.format === 'float32' ? 'float32' : 'unsigned-short');
    // Asked again before the next depth frame (the app's frames run at the tick rate, depth at its own),
    // the same frame gives the same object, as a runtime hands out one buffer per depth frame.
    const last = this.lastDepthInformation;
    if (last && last.frameIndex === sensor.frameIndex && last.info.format === chosen && last.transform === normDepthBufferFromNormView) return last.info;
    const { fx, fy, cx, cy, near, far } = sensor.camera;
    const info = new CpuDepthInformation(sensor.frameReading(), sensor.model.width, sensor.model.height, chosen, normDepthBufferFromNormView, { pose: sensor.pose, fx, fy, cx, cy, near, far });
    this.lastDepthInformation = { frameIndex: sensor.frameIndex, transform: normDepthBufferFromNormView, info };
    return info;
  }

  /**
   * Casts a ray against the detected planes (and the latest depth frame with `entityTypes: ['depth']`).
   * The results are returned at once and recorded in the next frame as a HitTestResults event.
   */
  hitTest(origin: Vec3, direction: Vec3, options: HitTestOptions = {}): HitTestResult[] {
    const types = options.entityTypes ?? ['plane'];
    for (const type of types) {
      if (type !== 'plane' && type !== 'depth') throw new RangeError(`unknown hit-test entity type "${String(type)}"; use "plane" or "depth"`);
    }
    if (types.includes('depth') && !this.depth) throw new RangeError('a depth hit test needs a depth camera: set sensing.depth');
    const planes = types.includes('plane') ? this.detectedPlanes() : [];
    const results = hitTest(origin, direction, planes, types.includes('depth') ? this.depth : null);
    if (options.record ?? true) this.pendingHits.push({ id: this.hitRequests++, results });
    return results;
  }

  /** Creates an anchor at a world pose, attached to a detected plane if given (by object or id). */
  createAnchor(pose: Pose, plane?: DetectedPlane | number): Anchor {
    const target = typeof plane === 'number' ? (this.planes?.detected.get(plane) ?? null) : (plane ?? null);
    if (plane !== undefined && !target) throw new RangeError(`no detected plane ${typeof plane === 'number' ? plane : plane.id}`);
    return this.anchors.create(pose, target);
  }
}

/**
 * What a depth frame's image is a pure function of, besides the scene the frame's other channels show:
 * the depth frame's number, the noise key and the camera's world pose (f64 words). The frame hash covers
 * these rather than the pixels, so a session need not render images nothing reads (kernel version 6).
 */
function writeDepthStamp(sensor: DepthSensor, frame: Frame): void {
  frame.setDepthStamp(sensor.frameIndex, sensor.noiseKey, sensor.pose);
}

function writeHitRecord(frame: Frame, id: number, results: readonly HitTestResult[]): void {
  frame.beginRecord(EventType.HitTestResults);
  frame.word(id);
  frame.word(results.length);
  for (const r of results) {
    frame.word(r.plane ? r.plane.id : NO_PLANE);
    frame.float(r.distance);
    for (const v of r.position) frame.float(v);
    for (const v of r.rotation) frame.float(v);
  }
  frame.endRecord();
}
