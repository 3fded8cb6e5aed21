/**
 * Depth information in WebXR's `XRCPUDepthInformation` shape, built from a depth reading (u16 millimetres,
 * 0 = no reading). Apps in-process get this object; the browser shim builds the same one from the stream.
 *
 * Semantics, as the WebXR Depth Sensing Module defines them:
 * - `data` is row-major, no padding, origin at the top left;
 * - a raw value times `rawValueToMeters` is the distance in metres from the camera plane along the view
 *   axis (z-depth), 0 meaning no reading;
 * - `getDepthInMeters(x, y)` takes normalized view coordinates (origin top left, +y down), throws a
 *   RangeError outside [0, 1], applies `normDepthBufferFromNormView`, truncates to a pixel, clamps it into
 *   the buffer and scales the raw value.
 */
import type { RasterCamera } from '../../kernels/depth-raster.js';
import { quatAxes } from '../geometry/math.js';

/** A rigid transform in WebXR's shape: position, orientation and its 4×4 column-major matrix. */
export interface RigidTransformLike {
  readonly position: { x: number; y: number; z: number; w: number };
  readonly orientation: { x: number; y: number; z: number; w: number };
  readonly matrix: Float32Array;
}

/** The identity transform. */
export const IDENTITY_TRANSFORM: RigidTransformLike = rigidTransform([0, 0, 0], [0, 0, 0, 1]);

/** A rigid transform from a position and a quaternion `[x, y, z, w]`. */
export function rigidTransform(position: readonly number[], q: readonly number[]): RigidTransformLike {
  const [x, y, z, w] = q;
  // Column-major: the rotation's axes, then the translation in the last column.
  const axes = quatAxes(q);
  const matrix = new Float32Array([...axes.x, 0, ...axes.y, 0, ...axes.z, 0, position[0], position[1], position[2], 1]);
  return {
    position: { x: position[0], y: position[1], z: position[2], w: 1 },
    orientation: { x, y, z, w },
    matrix,
  };
}

/** The camera a depth frame was taken with: its world pose and pinhole intrinsics (pixels). */
export interface DepthViewGeometry extends Pick<RasterCamera, 'fx' | 'fy' | 'cx' | 'cy' | 'near' | 'far'> {
  /** World pose: position xyz, quaternion xyzw. */
  pose: ArrayLike<number>;
}

/** Data formats, as WebXR names them. */
export type DepthDataFormat = 'unsigned-short' | 'float32';

/** `XRCPUDepthInformation`: one depth frame as an app sees it. */
export class CpuDepthInformation {
  readonly width: number;
  readonly height: number;
  readonly rawValueToMeters: number;
  /** u16 millimetres or f32 metres, per `format`. */
  readonly data: ArrayBuffer;
  /** XRViewGeometry: where the depth camera was (world) and its projection (column-major, WebGL clip space). */
  readonly transform: RigidTransformLike;
  readonly projectionMatrix: Float32Array;
  private readonly values: Uint16Array | Float32Array;

  /**
   * @param reading the sensor's reading (u16 millimetres, 0 = none); copied
   * @param format `unsigned-short` keeps millimetres; `float32` converts to metres
   */
  constructor(
    reading: Uint16Array,
    width: number,
    height: number,
    readonly format: DepthDataFormat = 'unsigned-short',
    readonly normDepthBufferFromNormView: RigidTransformLike = IDENTITY_TRANSFORM,
    view?: DepthViewGeometry,
  ) {
    if (reading.length !== width * height) throw new RangeError(`a ${width}×${height} depth image needs ${width * height} values, got ${reading.length}`);
    this.width = width;
    this.height = height;
    if (format === 'float32') {
      const metres = new Float32Array(reading.length);
      for (let i = 0; i < reading.length; i++) metres[i] = reading[i] * 0.001;
      this.values = metres;
      this.rawValueToMeters = 1;
    } else {
      this.values = reading.slice();
      this.rawValueToMeters = 0.001;
    }
    this.data = this.values.buffer as ArrayBuffer;
    const v = view ?? { pose: [0, 0, 0, 0, 0, 0, 1], fx: width / 2, fy: width / 2, cx: width / 2, cy: height / 2, near: 0.01, far: 100 };
    const p = v.pose;
    this.transform = rigidTransform([p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]]);
    const a = (v.far + v.near) / (v.near - v.far);
    const b = (2 * v.far * v.near) / (v.near - v.far);
    // Pixel centres at (col + 0.5, row + 0.5); x_ndc = 2·fx·x/(w·(−z)) + (1 − 2·cx/w), rows from the top.
    this.projectionMatrix = new Float32Array([(2 * v.fx) / width, 0, 0, 0, 0, (2 * v.fy) / height, 0, 0, 1 - (2 * v.cx) / width, (2 * v.cy) / height - 1, a, -1, 0, 0, b, 0]);
  }

  /** Depth in metres at normalized view coordinates (x right, y down, both in [0, 1]); 0 = no reading. */
  getDepthInMeters(x: number, y: number): number {
    return depthInMeters(this.values, this.width, this.height, this.normDepthBufferFromNormView.matrix, this.rawValueToMeters, x, y);
  }
}

/**
 * `getDepthInMeters` as the Depth Sensing Module defines it, shared by the in-process depth information and
 * the browser shim's `XRCPUDepthInformation`: RangeError outside [0, 1], the view point through
 * `normDepthBufferFromNormView` (column-major), truncated to a pixel, clamped into the buffer, scaled.
 */
export function depthInMeters(values: ArrayLike<number>, width: number, height: number, normFromView: ArrayLike<number>, rawValueToMeters: number, x: number, y: number): number {
  if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) throw new RangeError(`normalized view coordinates must be within [0, 1], got (${x}, ${y})`);
  const m = normFromView;
  // The view point (x, y, 0, 1) into normalized depth-buffer coordinates.
  const u = m[0] * x + m[4] * y + m[12];
  const v = m[1] * x + m[5] * y + m[13];
  const col = Math.min(width - 1, Math.max(0, Math.trunc(u * width)));
  const row = Math.min(height - 1, Math.max(0, Math.trunc(v * height)));
  return values[row * width + col] * rawValueToMeters;
}
