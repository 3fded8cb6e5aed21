/**
 * Where a video's frames come from. A {@link VideoFrameSource} hands out RGB images at increasing
 * simulated times; the encoder (`video.ts`) does not care what drew them. Today's source is the
 * simulation's own view of a recorded stream ({@link SimulationViewSource}: the CPU renderer or
 * headless-gl, from the head or a corner of the room). A source for what a browser app rendered into its
 * XR layer plugs in the same way.
 */
import type { RasterCamera } from '../../kernels/depth-raster.js';
import type { Frame } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import type { GlRenderer, RenderedView } from '../render/gl-renderer.js';
import { primitiveColours } from '../render/colours.js';
import { sceneMesh } from '../render/mesh.js';
import { CpuViewRenderer, RecordedScene, viewCamera, VIEW_KINDS, type ViewCamera } from '../render/view.js';
import { replayModelFromHeader } from '../stream/header.js';
import type { StreamReader } from '../stream/reader.js';

/** The raw frame layouts a source can give (ffmpeg's names). */
export type VideoPixelFormat = 'rgb24' | 'yuv420p';

/** Frames for a video, asked for in increasing time order. */
export interface VideoFrameSource {
  readonly width: number;
  readonly height: number;
  /** Simulated seconds the source covers (from 0). */
  readonly duration: number;
  /**
   * How `frameAt`'s bytes are laid out: `rgb24` (default: 3 bytes a pixel, rows from the top) or `yuv420p`
   * (planar Y, then U and V at half resolution, BT.601 limited range: what the encoders take, so ffmpeg
   * converts nothing and half as many bytes cross the pipe).
   */
  readonly pixelFormat?: VideoPixelFormat;
  /** The picture at `seconds`, in `pixelFormat`; the buffer may be reused by the next call. */
  frameAt(seconds: number): Uint8Array | Promise<Uint8Array>;
}

/** Options of {@link SimulationViewSource}. */
export interface SimulationViewOptions {
  camera: ViewCamera;
  width: number;
  height: number;
  /** Horizontal field of view in degrees. */
  fovDeg: number;
  /** headless-gl; without it the CPU renderer draws. */
  gl?: GlRenderer;
}

/** The simulation's own view of a recorded stream: its scene replayed frame by frame and rendered. */
export class SimulationViewSource implements VideoFrameSource {
  readonly width: number;
  readonly height: number;
  readonly duration: number;
  readonly pixelFormat: VideoPixelFormat;
  private readonly model: SimModel;
  private readonly scene: RecordedScene;
  private readonly frames: Generator<Frame>;
  private current: Frame | null = null;
  private readonly dt: number;
  private readonly lastTick: number;
  private readonly depthMount: number[] | undefined;
  private readonly cpu: CpuViewRenderer | null;
  /** The colour of each primitive of the scene, for the GPU path. */
  private readonly colourOf: (primitive: number) => readonly number[];

  constructor(
    reader: StreamReader,
    private readonly options: SimulationViewOptions,
  ) {
    this.model = replayModelFromHeader(reader.header);
    this.scene = new RecordedScene(this.model);
    this.colourOf = primitiveColours(this.scene);
    this.frames = reader.framesInOrder();
    this.width = options.width;
    this.height = options.height;
    this.dt = reader.header.timing.dt;
    this.lastTick = reader.chunks.length ? reader.chunks[0].firstTick + reader.frames - 1 : 0;
    this.duration = this.lastTick * this.dt;
    this.depthMount = reader.header.channels.find((c) => c.kind === 'depth')?.camera?.mount;
    this.cpu = options.gl ? null : new CpuViewRenderer(options.width, options.height);
    this.pixelFormat = this.cpu && options.width % 2 === 0 && options.height % 2 === 0 ? 'yuv420p' : 'rgb24';
  }

  /** The tick shown at `seconds`: the nearest one, never past the last. */
  tickAt(seconds: number): number {
    return Math.min(this.lastTick, Math.round(seconds / this.dt));
  }

  frameAt(seconds: number): Uint8Array {
    const tick = this.tickAt(seconds);
    // Every frame's surface changes apply in order (surfaces added, moved or removed on the way); poses
    // are whole in each frame, so only the one drawn is posed.
    while (this.current === null || this.current.tick < tick) {
      const next = this.frames.next();
      if (next.done) break;
      this.current = next.value;
      this.scene.advance(this.current, false);
    }
    this.scene.pose(this.current!);
    const camera: RasterCamera = viewCamera(this.options.camera, this.current!, this.model, this.options, this.depthMount);
    if (this.cpu) return this.pixelFormat === 'yuv420p' ? this.cpu.renderYuv420(this.scene, camera) : this.cpu.render(this.scene, camera).rgb;
    const view: RenderedView = this.options.gl!.render(sceneMesh(this.scene.geometry, VIEW_KINDS, this.colourOf), camera);
    return view.rgb;
  }
}
