/**
 * The headset's senses as a recorded stream tells them, for replaying a stream open loop (`open-loop.ts`)
 * where its task is absent: detected planes rebuilt from the plane events, depth information from the
 * recorded depth images, the depth camera placed by composing the recorded head pose with its mount. It
 * answers what the in-process app host and the frame builder ask of `Sensing`; what a stream cannot tell
 * (depth hit tests, creating anchors, adding app bodies against the room) throws, and the app host
 * records that as the app's error, so the replay reports it rather than inventing an answer.
 */
import { composeInto } from '../../kernels/pose-compose.js';
import { pinholeCamera } from '../../kernels/depth-raster.js';
import { EventType, decodeEvents } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import type { Anchor } from '../sensing/anchors.js';
import { CpuDepthInformation, type RigidTransformLike } from '../sensing/depth-information.js';
import { RENDER_NEAR } from '../sensing/depth-sensor.js';
import { decodeSensingEvent } from '../sensing/events.js';
import { hitTest, type HitTestResult } from '../sensing/hit-test.js';
import type { DetectedPlane } from '../sensing/planes.js';
import type { Sensing } from '../sensing/sensing.js';

const PLANE_EVENTS = new Set<number>([EventType.PlaneAdded, EventType.PlaneUpdated, EventType.PlaneRemoved]);

export class StreamSensing {
  private readonly planes = new Map<number, DetectedPlane>();
  private readonly depthModel: SimModel['sensing']['depth'];
  private depth: { reading: Uint16Array; pose: Float64Array; frameIndex: number } | null = null;
  private frameIndex = -1;
  private lastDepthInformation: { frameIndex: number; format: string; transform: RigidTransformLike | undefined; info: CpuDepthInformation } | null = null;
  readonly anchors = { all: (): readonly Anchor[] => [] };
  readonly environment = { surfaceAt: () => null };

  constructor(model: SimModel) {
    this.depthModel = model.sensing.depth;
  }

  /** Takes in a recorded frame: its plane events and its depth image, if it carries one. */
  observe(frame: FrameView): void {
    for (const event of decodeEvents(frame.events, frame.eventWords)) {
      if (!PLANE_EVENTS.has(event.type)) continue;
      const e = decodeSensingEvent(event);
      if (!e) continue;
      if (e.kind === 'plane-removed') this.planes.delete(e.plane);
      else if (e.kind === 'plane-added' || e.kind === 'plane-updated') {
        const plane = this.planes.get(e.plane);
        const polygon = e.polygon.map(([x, z]) => ({ x, y: 0, z, w: 1 }));
        if (!plane) {
          this.planes.set(e.plane, { id: e.plane, surface: e.surface, semanticLabel: e.label, orientation: e.orientation as DetectedPlane['orientation'], pose: Float64Array.from(e.pose), polygon, lastChangedTick: e.lastChangedTick });
        } else {
          plane.semanticLabel = e.label;
          plane.orientation = e.orientation as DetectedPlane['orientation'];
          plane.pose.set(e.pose);
          plane.polygon = polygon;
          plane.lastChangedTick = e.lastChangedTick;
        }
      }
    }
    const image = frame.depthImage;
    const head = frame.channel('head');
    if (image && head && this.depthModel) {
      const pose = new Float64Array(7);
      const mount = [...this.depthModel.mount.position, ...this.depthModel.mount.rotation];
      composeInto(head, 0, mount, 0, pose);
      this.depth = { reading: Uint16Array.from(image), pose, frameIndex: ++this.frameIndex };
    }
  }

  detectedPlanes(): DetectedPlane[] {
    return [...this.planes.values()];
  }

  /** The latest recorded depth frame, as the live sensing answers (`Sensing.depthInformation`). */
  depthInformation(format?: 'unsigned-short' | 'float32', normDepthBufferFromNormView?: RigidTransformLike): CpuDepthInformation | null {
    const depth = this.depth;
    const model = this.depthModel;
    if (!depth || !model) return null;
    const chosen = format ?? (model.format === 'float32' ? 'float32' : 'unsigned-short');
    const last = this.lastDepthInformation;
    if (last && last.frameIndex === depth.frameIndex && last.format === chosen && last.transform === normDepthBufferFromNormView) return last.info;
    const { fx, fy, cx, cy, near, far } = pinholeCamera(model.width, model.height, model.horizontalFov, RENDER_NEAR, model.noise.maxRange * 1.5);
    const info = new CpuDepthInformation(depth.reading, model.width, model.height, chosen, normDepthBufferFromNormView, { pose: depth.pose, fx, fy, cx, cy, near, far });
    this.lastDepthInformation = { frameIndex: depth.frameIndex, format: chosen, transform: normDepthBufferFromNormView, info };
    return info;
  }

  /** Hit tests against the recorded planes; depth hit tests need the room, which the stream does not hold. */
  hitTest(origin: Vec3, direction: Vec3, options: { entityTypes?: ('plane' | 'depth')[] } = {}): HitTestResult[] {
    const types = options.entityTypes ?? ['plane'];
    if (types.includes('depth')) throw new Error('a depth hit test cannot be replayed from a stream without its task');
    return hitTest(origin, direction, this.detectedPlanes(), null);
  }

  createAnchor(): never {
    throw new Error('anchors cannot be created when a stream is replayed without its task');
  }

  /** This object where the app host expects the live sensing (it uses only what is above). */
  asSensing(): Sensing {
    return this as unknown as Sensing;
  }
}
