/**
 * The headset's depth camera: renders the scene from its mount on the head at its own rate on the
 * simulation clock, turns the ideal image into a sensor reading with the seeded noise model, and keeps the
 * latest frame for apps, plane detection and the stream.
 */
import { DRAW_DYNAMIC, DRAW_HANDS, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose, type RasterCamera } from '../../kernels/depth-raster.js';
import { DepthNoiseStreams, measureDepth } from '../../kernels/depth-noise.js';
import { composeInto } from '../../kernels/pose-compose.js';
import type { SceneGeometry } from '../../kernels/scene-geometry.js';
import type { RandomStreams } from '../random.js';
import type { DepthSensorModel } from '../task/sensing-options.js';

/** Geometry closer than this to the camera is not drawn at all (below every preset's minimum range). */
const RENDER_NEAR = 0.01;

/** One depth camera and its latest frame. */
export class DepthSensor {
  readonly camera: RasterCamera;
  readonly raster: DepthRaster;
  /** The latest reading: millimetres per pixel, 0 = no reading. */
  readonly reading: Uint16Array;
  /** Index of the latest frame (frame k is due at k / rateHz seconds); −1 before the first. */
  frameIndex = -1;
  /** Tick and simulated time of the latest frame. */
  tick = -1;
  time = 0;
  /** World pose of the camera when the latest frame was taken: position, quaternion. */
  readonly pose = new Float64Array(7);
  private readonly noise: DepthNoiseStreams | null;
  private readonly kinds: number;
  private readonly cameraPose = new Float64Array(7);
  private readonly cameraRotation = this.cameraPose.subarray(3);
  private readonly mount: Float64Array;

  constructor(
    readonly model: DepthSensorModel,
    random: RandomStreams,
  ) {
    const { width, height, horizontalFov, noise } = model;
    this.camera = pinholeCamera(width, height, horizontalFov, RENDER_NEAR, noise.maxRange * 1.5);
    this.raster = new DepthRaster(width, height);
    this.reading = new Uint16Array(width * height);
    this.mount = Float64Array.from([...model.mount.position, ...model.mount.rotation]);
    this.kinds = DRAW_STATIC | DRAW_DYNAMIC | (model.includeHands ? DRAW_HANDS : 0);
    // The noise key comes from the session's `depth-noise` stream; every draw is a function of it.
    this.noise = model.noisePreset === 'ideal' ? null : new DepthNoiseStreams(Math.floor(random.get('depth-noise').next() * 4294967296));
  }

  /** Whether a frame is due at `tick` (frame k at the first tick at or after k / rateHz seconds). */
  due(tick: number, dt: number): boolean {
    return frameIndexAt(tick, dt, this.model.rateHz) > this.frameIndex;
  }

  /**
   * Takes a frame: the camera at `headPose` (7 numbers, world) composed with its mount, looking at the
   * geometry as it is now. The caller has posed the dynamic bodies and hands in `geometry`.
   */
  capture(tick: number, dt: number, headPose: ArrayLike<number>, geometry: SceneGeometry): void {
    composeInto(headPose, 0, this.mount, 0, this.cameraPose);
    setCameraPose(this.camera, this.cameraPose, this.cameraRotation);
    this.raster.render(geometry, this.camera, this.kinds);
    const { width, height, noise } = this.model;
    this.frameIndex = frameIndexAt(tick, dt, this.model.rateHz);
    measureDepth(this.raster.depth, this.raster.incidence, width, height, noise, this.noise, this.reading, this.frameIndex);
    this.tick = tick;
    this.time = tick * dt;
    this.pose.set(this.cameraPose);
  }
}

/** Index of the latest depth frame due by `tick`. A tolerance keeps 90 Hz ticks and 30 Hz frames aligned. */
export function frameIndexAt(tick: number, dt: number, rateHz: number): number {
  return Math.floor(tick * dt * rateHz + 1e-9);
}
