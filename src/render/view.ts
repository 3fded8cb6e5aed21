/**
 * What a point-of-view image shows (`RecordedScene`, the scene as recorded), the cameras to look from, and
 * the CPU renderer. The GPU path is `gl-renderer.ts`.
 */
import { DepthRaster, pinholeCamera, setCameraPose, type RasterCamera } from '../../kernels/depth-raster.js';
import type { FrameView } from '../frame/frame.js';
import { composePose, quatFromAxes, type Pose } from '../geometry/math.js';
import type { Vec3 } from '../geometry/types.js';
import type { SimModel } from '../model/types.js';
import { RecordedScene, VIEW_KINDS } from '../sensing/recorded-scene.js';
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
  const raster = new DepthRaster(camera.width, camera.height);
  raster.render(scene.geometry, camera, VIEW_KINDS);
  const rgb = new Uint8Array(camera.width * camera.height * 3);
  for (let i = 0; i < raster.id.length; i++) {
    const id = raster.id[i];
    if (id >= 0) rgb.set(scene.colourOf(id >> 3), i * 3);
  }
  return { width: camera.width, height: camera.height, rgb, depth: raster.depth.slice() };
}
