/**
 * What a point-of-view image shows (`RecordedScene`, the scene as recorded), the cameras to look from, and
 * the CPU renderer. The GPU path is `gl-renderer.ts`.
 */
import { DepthRaster, pinholeCamera, primitiveOfFace, setCameraPose, type RasterCamera } from '../../kernels/depth-raster.js';
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
  private palette = new Uint8Array(0);
  private paletteFor = -1;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.raster = new DepthRaster(width, height);
    this.rgb = new Uint8Array(width * height * 3);
  }

  render(scene: RecordedScene, camera: RasterCamera): RenderedView {
    const g = scene.geometry;
    // Primitives only ever get added (surfaces at run time), and keep their colour.
    if (this.paletteFor !== g.count) {
      this.palette = new Uint8Array(g.count * 3);
      const colourOf = primitiveColours(scene);
      for (let i = 0; i < g.count; i++) this.palette.set(colourOf(i), i * 3);
      this.paletteFor = g.count;
    }
    this.raster.render(g, camera, VIEW_KINDS);
    const { id } = this.raster;
    const { rgb, palette } = this;
    for (let i = 0, o = 0; i < id.length; i++, o += 3) {
      const p = id[i] >= 0 ? primitiveOfFace(id[i]) * 3 : -1;
      rgb[o] = p < 0 ? 0 : palette[p];
      rgb[o + 1] = p < 0 ? 0 : palette[p + 1];
      rgb[o + 2] = p < 0 ? 0 : palette[p + 2];
    }
    return { width: this.width, height: this.height, rgb, depth: this.raster.depth };
  }
}
