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
  /** Colour per face id + 1 (0: nothing drawn), packed r | g << 8 | b << 16: one load per pixel, no division. */
  private faceColours = new Uint32Array(1);
  /** The same colours as Y, and as U | V << 16 (BT.601 limited range; four sum without carrying), for {@link renderYuv420}. */
  private faceY = new Uint8Array([16]);
  private faceUV = new Uint32Array([128 | (128 << 16)]);
  private yuv: Uint8Array | null = null;
  private paletteFor = -1;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.raster = new DepthRaster(width, height);
    this.raster.withIncidence = false; // a picture needs no incidence angles (depth noise does)
    this.rgb = new Uint8Array(width * height * 3);
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
   * The image as planar YUV 4:2:0 (ffmpeg's `yuv420p`, BT.601 limited range, as ffmpeg converts RGB): what
   * the video encoders take, so ffmpeg converts nothing, and 1.5 bytes a pixel cross the pipe instead of 3
   * or 4. Chroma is the mean of each 2×2 block. Needs an even width and height. Valid until the next call.
   */
  renderYuv420(scene: RecordedScene, camera: RasterCamera): Uint8Array {
    const id = this.rasterize(scene, camera);
    const { width, height, faceY, faceUV } = this;
    const yuv = (this.yuv ??= new Uint8Array((width * height * 3) / 2));
    const chromaWidth = width >> 1;
    const uStart = width * height;
    const vStart = uStart + chromaWidth * (height >> 1);
    for (let row = 0; row < height; row += 2) {
      const top = row * width;
      const bottom = top + width;
      let c = (row >> 1) * chromaWidth;
      for (let col = 0; col < width; col += 2, c++) {
        const a = id[top + col] + 1, b = id[top + col + 1] + 1, d = id[bottom + col] + 1, e = id[bottom + col + 1] + 1;
        yuv[top + col] = faceY[a];
        yuv[top + col + 1] = faceY[b];
        yuv[bottom + col] = faceY[d];
        yuv[bottom + col + 1] = faceY[e];
        const uv = faceUV[a] + faceUV[b] + faceUV[d] + faceUV[e];
        yuv[uStart + c] = ((uv & 0xffff) + 2) >> 2;
        yuv[vStart + c] = ((uv >>> 16) + 2) >> 2;
      }
    }
    return yuv;
  }

  /** Renders face ids, refreshing the colour table when primitives were added. */
  private rasterize(scene: RecordedScene, camera: RasterCamera): Int32Array {
    const g = scene.geometry;
    // Primitives only ever get added (surfaces at run time), and keep their colour.
    if (this.paletteFor !== g.count) {
      const faces = g.count * FACES_PER_PRIMITIVE + 1;
      this.faceColours = new Uint32Array(faces);
      this.faceY = new Uint8Array(faces).fill(16);
      this.faceUV = new Uint32Array(faces).fill(128 | (128 << 16));
      const colourOf = primitiveColours(scene);
      for (let face = 0; face < faces - 1; face++) {
        const [r, gr, b] = colourOf(primitiveOfFace(face));
        this.faceColours[face + 1] = r | (gr << 8) | (b << 16);
        this.faceY[face + 1] = Math.round(16 + (65.481 * r + 128.553 * gr + 24.966 * b) / 255);
        const u = Math.round(128 + (-37.797 * r - 74.203 * gr + 112 * b) / 255);
        const v = Math.round(128 + (112 * r - 93.786 * gr - 18.214 * b) / 255);
        this.faceUV[face + 1] = u | (v << 16);
      }
      this.paletteFor = g.count;
    }
    this.raster.render(g, camera, VIEW_KINDS);
    return this.raster.id;
  }
}
