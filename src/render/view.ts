/**
 * What a point-of-view image shows (`RecordedScene`, the scene as recorded), the cameras to look from, and
 * the CPU renderer. The GPU path is `gl-renderer.ts`.
 */
import { DepthRaster, FACES_PER_PRIMITIVE, pinholeCamera, primitiveOfFace, setCameraPose, type RasterCamera } from '../../kernels/depth-raster.js';
import type { FrameView } from '../frame/frame.js';
import { composePose, quatFromAxes, type Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import { RecordedScene, VIEW_KINDS } from '../sensing/recorded-scene.js';
import { primitiveColours } from './colours.js';
import type { RenderedView } from './gl-renderer.js';

export { RecordedScene, VIEW_KINDS };

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
  const view = new CpuViewRenderer(camera.width, camera.height).render(scene, camera);
  return { ...view, depth: view.depth.slice() };
}

/**
 * The CPU renderer for many frames of one size (videos): the rasterizer's buffers, the image and a
 * colour table per primitive are kept between frames. The returned view is valid until the next call.
 */
export class CpuViewRenderer {
  private readonly raster: DepthRaster;
  private readonly rgb: Uint8Array;
  /** The image as one 32-bit word a pixel (bytes r, g, b, 0 on little-endian machines), for videos. */
  private readonly packed: Uint32Array;
  /** Colour per face id + 1 (0: nothing drawn), packed r | g << 8 | b << 16: one load per pixel, no division. */
  private faceColours = new Uint32Array(1);
  private paletteFor = -1;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.raster = new DepthRaster(width, height);
    this.rgb = new Uint8Array(width * height * 3);
    this.packed = new Uint32Array(width * height);
  }

  render(scene: RecordedScene, camera: RasterCamera): RenderedView {
    const id = this.rasterize(scene, camera);
    const { rgb, faceColours } = this;
    for (let i = 0, o = 0; i < id.length; i++, o += 3) {
      const c = faceColours[id[i] + 1];
      rgb[o] = c & 255;
      rgb[o + 1] = (c >> 8) & 255;
      rgb[o + 2] = c >> 16;
    }
    return { width: this.width, height: this.height, rgb, depth: this.raster.depth };
  }

  /**
   * The image as 4 bytes a pixel, r, g, b and an unused byte (ffmpeg's `rgb0`): one store a pixel instead
   * of three, which is most of the colouring's cost in a video. Valid until the next call.
   */
  renderRgb0(scene: RecordedScene, camera: RasterCamera): Uint8Array {
    const id = this.rasterize(scene, camera);
    const { packed, faceColours } = this;
    for (let i = 0; i < id.length; i++) packed[i] = faceColours[id[i] + 1];
    return new Uint8Array(packed.buffer);
  }

  /** Renders face ids, refreshing the colour table when primitives were added. */
  private rasterize(scene: RecordedScene, camera: RasterCamera): Int32Array {
    const g = scene.geometry;
    // Primitives only ever get added (surfaces at run time), and keep their colour.
    if (this.paletteFor !== g.count) {
      this.faceColours = new Uint32Array(g.count * FACES_PER_PRIMITIVE + 1);
      const colourOf = primitiveColours(scene);
      for (let face = 0; face < g.count * FACES_PER_PRIMITIVE; face++) {
        const [r, gr, b] = colourOf(primitiveOfFace(face));
        this.faceColours[face + 1] = r | (gr << 8) | (b << 16);
      }
      this.paletteFor = g.count;
    }
    this.raster.render(g, camera, VIEW_KINDS);
    return this.raster.id;
  }
}

/** Whether 32-bit words are stored little-endian here (then a packed r | g << 8 | b << 16 reads as r, g, b, 0). */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
