/**
 * The headset's depth camera: takes frames from its mount on the head at its own rate on the simulation
 * clock, turns the ideal image into a sensor reading with the seeded noise model, and keeps the latest frame
 * for apps, plane detection and the stream.
 *
 * Frames are lazy. Taking a frame (`capture`) only fixes the camera's pose and the frame number; the image
 * is rendered when something reads it, and only as much as it reads: plane detection reads every other
 * pixel of every other row of the ideal image, an app or the stream reads the whole noisy reading. The
 * scene does not change between a frame and the next one except through the environment, which calls
 * `settle` first, and every noise draw is a pure function of (seed, frame, pixel). So a frame rendered late,
 * in part or not at all is bit-identical, wherever it is read, to one rendered in full when it was taken.
 * A single pixel (`readingAt`) costs only it and its 4-neighbours (mixed pixels read them), rendered in a
 * 3×3 window that most primitives miss.
 * Readings handed out for a frame (`frameReading`) stay valid after the sensor moves on: they are given the
 * finished image, or a copy of the scene as the frame saw it, before the sensor's scene changes.
 */
import { DRAW_DYNAMIC, DRAW_HANDS, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose, type RasterCamera } from '../../kernels/depth-raster.js';
import { DepthNoiseStreams, measureDepth } from '../../kernels/depth-noise.js';
import { composeInto } from '../../kernels/pose-compose.js';
import type { SceneGeometry } from '../../kernels/scene-geometry.js';
import type { RandomStreams } from '../random.js';
import { DepthFrameReading, type PastDepthFrame } from './depth-frame-reading.js';
import type { DepthSensorModel } from '../task/sensing-options.js';

/** Geometry closer than this to the camera is not drawn at all (below every preset's minimum range). */
export const RENDER_NEAR = 0.01;

/** The raster's lattice when it holds every pixel (2: every other pixel of every other row). */
const FULL_IMAGE = 1;
/** Single-pixel windows per frame beyond which the whole image is rendered instead (each costs a pass over the primitives). */
const MAX_WINDOWS = 48;
/** Nothing rendered for the current frame yet. */
const NOT_RENDERED = 0;

/** One depth camera and its latest frame. */
export class DepthSensor {
  readonly camera: RasterCamera;
  /** The rasterizer; its buffers hold the latest frame's ideal image once {@link DepthSensor.idealImage} asked for it. */
  readonly raster: DepthRaster;
  /** Index of the latest frame (frame k is due at k / rateHz seconds); −1 before the first. */
  frameIndex = -1;
  /** Tick and simulated time of the latest frame. */
  tick = -1;
  time = 0;
  /** World pose of the camera when the latest frame was taken: position, quaternion. */
  readonly pose = new Float64Array(7);
  /**
   * For tests and benchmarks: render and measure every frame in full when it is taken, with no reuse of an
   * unchanged image. Lazy frames must match this bit for bit.
   */
  static eager = false;
  /** Bumped by every render: an unchanged serial means the raster holds the very image it held. */
  imageSerial = 0;
  /** Work done so far (for tests and benchmarks): full renders, renders of the half lattice, measurements. */
  readonly counts = { rendered: 0, latticeRendered: 0, measured: 0, windowsRendered: 0 };
  private readonly measured: Uint16Array;
  /** The noise streams and their 32-bit key (0 for the `ideal` preset, which has none). */
  readonly noise: DepthNoiseStreams | null;
  readonly noiseKey: number;
  /** Pixels of the latest frame rendered (when the whole image is not), and pixels measured (1). */
  private readonly pixelsRendered: Uint8Array;
  private readonly pixelsMeasured: Uint8Array;
  /** Windows rendered for single pixels of the latest frame; past a limit, the whole image is cheaper. */
  private windows = 0;
  /** Readings of the latest frame handed out, to be detached from the sensor before its scene changes. */
  private handedOut: DepthFrameReading | null = null;
  /** The sensor for earlier frames ({@link pastSensor}), and, in that sensor, the frame it holds. */
  private past: DepthSensor | null = null;
  private pastFrame: PastDepthFrame | null = null;
  private readonly kinds: number;
  private readonly cameraPose = new Float64Array(7);
  private readonly cameraRotation = this.cameraPose.subarray(3);
  private readonly mount: Float64Array;
  private geometry: SceneGeometry | null = null;
  /** Which lattice the raster holds for the latest frame, or NOT_RENDERED. */
  private rendered = NOT_RENDERED;
  /** What the raster's buffers were last rendered from: lattice, geometry version and camera pose. */
  private rasterLattice = NOT_RENDERED;
  private rasterVersion = -1;
  private readonly rasterPose = new Float64Array(7);
  private hasReading = false;

  /**
   * @param random the session's streams: the noise key is drawn from `depth-noise`. The sensor for earlier
   * frames passes null and the live sensor's key instead.
   */
  constructor(
    readonly model: DepthSensorModel,
    random: RandomStreams | null,
    noiseKey = 0,
  ) {
    const { width, height, horizontalFov, noise } = model;
    this.camera = pinholeCamera(width, height, horizontalFov, RENDER_NEAR, noise.maxRange * 1.5);
    this.raster = new DepthRaster(width, height);
    this.measured = new Uint16Array(width * height);
    this.pixelsRendered = new Uint8Array(width * height);
    this.pixelsMeasured = new Uint8Array(width * height);
    this.mount = Float64Array.from([...model.mount.position, ...model.mount.rotation]);
    this.kinds = DRAW_STATIC | DRAW_DYNAMIC | (model.includeHands ? DRAW_HANDS : 0);
    // The noise key comes from the session's `depth-noise` stream; every draw is a function of it.
    const ideal = model.noisePreset === 'ideal';
    this.noiseKey = ideal ? 0 : random ? Math.floor(random.get('depth-noise').next() * 4294967296) : noiseKey;
    this.noise = ideal ? null : new DepthNoiseStreams(this.noiseKey);
  }

  /** Whether a frame is due at `tick` (frame k at the first tick at or after k / rateHz seconds). */
  due(tick: number, dt: number): boolean {
    return frameIndexAt(tick, dt, this.model.rateHz) > this.frameIndex;
  }

  /**
   * Takes a frame: the camera at `headPose` (7 numbers, world) composed with its mount, looking at
   * `geometry` as it is now. The caller has posed the dynamic bodies and hands in `geometry`, and leaves
   * them until the next frame. Nothing is rendered until the frame is read.
   */
  capture(tick: number, dt: number, headPose: ArrayLike<number>, geometry: SceneGeometry): void {
    composeInto(headPose, 0, this.mount, 0, this.cameraPose);
    this.restore(frameIndexAt(tick, dt, this.model.rateHz), tick, dt, this.cameraPose, geometry);
    if (DepthSensor.eager) void this.reading;
  }

  /** Makes frame `frameIndex`, seen from `cameraPose` (the camera's world pose) in `geometry`, the latest. */
  private restore(frameIndex: number, tick: number, dt: number, cameraPose: ArrayLike<number>, geometry: SceneGeometry): void {
    if (cameraPose !== this.cameraPose) this.cameraPose.set(cameraPose);
    setCameraPose(this.camera, this.cameraPose, this.cameraRotation);
    this.geometry = geometry;
    this.rendered = NOT_RENDERED;
    this.hasReading = false;
    this.pixelsRendered.fill(0);
    this.pixelsMeasured.fill(0);
    this.windows = 0;
    this.frameIndex = frameIndex;
    this.tick = tick;
    this.time = tick * dt;
    this.pose.set(this.cameraPose);
  }

  /**
   * Must be called before the scene the latest frame saw changes (bodies and hands posed for the next
   * frame): readings handed out for it keep what they need to answer later.
   */
  release(): void {
    const reading = this.handedOut;
    if (!reading) return;
    this.handedOut = null;
    if (this.hasReading) reading.keepImage(this.measured.slice());
    else reading.keepScene({ frameIndex: this.frameIndex, tick: this.tick, pose: this.cameraPose.slice(), geometry: this.geometry!.clone() });
  }

  /** The latest frame's reading as an object that stays valid (see {@link DepthFrameReading}). */
  frameReading(): DepthFrameReading {
    if (!this.handedOut || this.handedOut.frameIndex !== this.frameIndex) this.handedOut = new DepthFrameReading(this, this.frameIndex);
    return this.handedOut;
  }

  /**
   * A sensor holding an earlier frame (kept by an app) over its scene's copy: one per sensor, shared by
   * every kept frame, holding the one read last.
   */
  pastSensor(frame: PastDepthFrame): DepthSensor {
    this.past ??= new DepthSensor(this.model, null, this.noiseKey);
    if (this.past.pastFrame !== frame) {
      this.past.restore(frame.frameIndex, frame.tick, 0, frame.pose, frame.geometry);
      this.past.pastFrame = frame;
    }
    return this.past;
  }

  /**
   * The latest frame's ideal image in the raster's buffers (`depth`, `id`, `incidence`), valid at least on
   * `lattice` (1: every pixel; 2: even rows and columns). Renders it if it is not there yet.
   */
  idealImage(lattice: number = FULL_IMAGE): DepthRaster {
    if (this.rendered === NOT_RENDERED || this.rendered > lattice) {
      const geometry = this.geometry!;
      if (!this.rasterHolds(lattice)) {
        this.raster.render(geometry, this.camera, this.kinds, lattice);
        this.pixelsRendered.fill(lattice === FULL_IMAGE ? 1 : 0);
        this.imageSerial++;
        this.rasterLattice = lattice;
        this.rasterVersion = geometry.version;
        this.rasterPose.set(this.cameraPose);
        if (lattice === FULL_IMAGE) this.counts.rendered++;
        else this.counts.latticeRendered++;
      }
      this.rendered = this.rasterLattice;
    }
    return this.raster;
  }

  /** A still camera in an unchanged scene sees what it saw: whether the raster already holds this image on `lattice`. */
  private rasterHolds(lattice: number): boolean {
    return !DepthSensor.eager && this.rasterLattice !== NOT_RENDERED && this.rasterLattice <= lattice && this.geometry!.version === this.rasterVersion && samePose(this.cameraPose, this.rasterPose);
  }

  /**
   * The latest reading at pixel `index` (row-major), measuring only that pixel (and rendering only it and
   * its 4-neighbours) if the whole reading is not there yet. Bit-identical to `reading[index]`.
   */
  readingAt(index: number): number {
    if (this.hasReading || this.pixelsMeasured[index] === 1) return this.measured[index];
    const { width, height, noise } = this.model;
    const row = Math.floor(index / width);
    const col = index - row * width;
    if (this.rendered !== FULL_IMAGE) {
      const r0 = Math.max(0, row - 1), r1 = Math.min(height - 1, row + 1);
      const c0 = Math.max(0, col - 1), c1 = Math.min(width - 1, col + 1);
      if (this.rasterHolds(FULL_IMAGE) || this.windows >= MAX_WINDOWS) this.idealImage(FULL_IMAGE);
      else if (!this.allRendered(r0, r1, c0, c1)) this.renderWindow(r0, r1, c0, c1);
    }
    measureDepth(this.raster.depth, this.raster.incidence, width, height, noise, this.noise, this.measured, this.frameIndex, row, row + 1, col, col + 1);
    this.pixelsMeasured[index] = 1;
    return this.measured[index];
  }

  private allRendered(r0: number, r1: number, c0: number, c1: number): boolean {
    const width = this.model.width;
    for (let row = r0; row <= r1; row++) for (let col = c0; col <= c1; col++) if (this.pixelsRendered[row * width + col] === 0) return false;
    return true;
  }

  /** Renders a window of the latest frame at every pixel. */
  private renderWindow(r0: number, r1: number, c0: number, c1: number): void {
    const width = this.model.width;
    this.raster.render(this.geometry!, this.camera, this.kinds, FULL_IMAGE, r0, r1, c0, c1);
    for (let row = r0; row <= r1; row++) this.pixelsRendered.fill(1, row * width + c0, row * width + c1 + 1);
    this.windows++;
    this.counts.windowsRendered++;
    // The raster now mixes this window with whatever it held: it holds no whole image, unless it holds
    // this frame's half lattice (which the window rewrote with the same values).
    if (this.rendered === NOT_RENDERED) this.rasterLattice = NOT_RENDERED;
  }

  /** The latest reading: millimetres per pixel, 0 = no reading. Measured on first use. */
  get reading(): Uint16Array {
    if (!this.hasReading && this.frameIndex >= 0) {
      const raster = this.idealImage(FULL_IMAGE);
      const { width, height, noise } = this.model;
      measureDepth(raster.depth, raster.incidence, width, height, noise, this.noise, this.measured, this.frameIndex);
      this.hasReading = true;
      this.counts.measured++;
    }
    return this.measured;
  }

  /**
   * Renders the latest frame now if it has not been, because the scene is about to change (a surface is
   * added, moved or removed) and a later reader must still see the scene as it was when the frame was taken.
   */
  settle(): void {
    if (this.frameIndex < 0) return;
    this.idealImage(FULL_IMAGE);
    this.release();
  }
}

/** Bitwise equality of two poses (7 numbers). */
function samePose(a: Float64Array, b: Float64Array): boolean {
  for (let k = 0; k < 7; k++) if (!Object.is(a[k], b[k])) return false;
  return true;
}

/** Index of the latest depth frame due by `tick`. A tolerance keeps 90 Hz ticks and 30 Hz frames aligned. */
export function frameIndexAt(tick: number, dt: number, rateHz: number): number {
  return Math.floor(tick * dt * rateHz + 1e-9);
}
