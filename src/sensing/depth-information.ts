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

/** What an `XRCPUDepthInformation` reads its values from (u16 millimetres, 0 = no reading). */
export interface DepthPixelSource {
  /** The reading at pixel `index` (row-major). */
  pixel(index: number): number;
  /** The whole reading. The caller must not change it. */
  whole(): Uint16Array;
}

/** Data formats, as WebXR names them. */
export type DepthDataFormat = 'unsigned-short' | 'float32';

/** `XRCPUDepthInformation`: one depth frame as an app sees it. */
export class CpuDepthInformation {
  readonly width: number;
  readonly height: number;
  readonly rawValueToMeters: number;
  /** XRViewGeometry: where the depth camera was (world) and its projection (column-major, WebGL clip space). */
  readonly transform: RigidTransformLike;
  readonly projectionMatrix: Float32Array;
  /** The values, once the whole image was asked for (`data`); until then pixels come from `source`. */
  private values: Uint16Array | Float32Array | null = null;
  private readonly source: DepthPixelSource | null;

  /**
   * @param reading the sensor's reading (u16 millimetres, 0 = none), copied; or a source that measures
   * pixels as they are read (the whole image only when `data` is read)
   * @param format `unsigned-short` keeps millimetres; `float32` converts to metres
   */
  constructor(
    reading: Uint16Array | DepthPixelSource,
    width: number,
    height: number,
    readonly format: DepthDataFormat = 'unsigned-short',
    readonly normDepthBufferFromNormView: RigidTransformLike = IDENTITY_TRANSFORM,
    view?: DepthViewGeometry,
  ) {
    this.width = width;
    this.height = height;
    this.rawValueToMeters = format === 'float32' ? 1 : 0.001;
    if (reading instanceof Uint16Array) {
      this.source = null;
      this.values = this.convert(reading);
    } else {
      this.source = reading;
    }
    const v = view ?? { pose: [0, 0, 0, 0, 0, 0, 1], fx: width / 2, fy: width / 2, cx: width / 2, cy: height / 2, near: 0.01, far: 100 };
    const p = v.pose;
    this.transform = rigidTransform([p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]]);
    const a = (v.far + v.near) / (v.near - v.far);
    const b = (2 * v.far * v.near) / (v.near - v.far);
    // Pixel centres at (col + 0.5, row + 0.5); x_ndc = 2·fx·x/(w·(−z)) + (1 − 2·cx/w), rows from the top.
    this.projectionMatrix = new Float32Array([(2 * v.fx) / width, 0, 0, 0, 0, (2 * v.fy) / height, 0, 0, 1 - (2 * v.cx) / width, (2 * v.cy) / height - 1, a, -1, 0, 0, b, 0]);
  }

  /** u16 millimetres or f32 metres, per `format`. */
  get data(): ArrayBuffer {
    this.values ??= this.convert(this.source!.whole());
    return this.values.buffer as ArrayBuffer;
  }

  /** Depth in metres at normalized view coordinates (x right, y down, both in [0, 1]); 0 = no reading. */
  getDepthInMeters(x: number, y: number): number {
    const index = depthPixelIndex(this.width, this.height, this.normDepthBufferFromNormView.matrix, x, y);
    if (this.values) return this.values[index] * this.rawValueToMeters;
    const mm = this.source!.pixel(index);
    // What the whole image would hold there: f32 metres, or millimetres.
    return this.format === 'float32' ? Math.fround(mm * 0.001) : mm * 0.001;
  }

  /** A copy of a reading in this object's format. */
  private convert(reading: Uint16Array): Uint16Array | Float32Array {
    if (reading.length !== this.width * this.height) throw new RangeError(`a ${this.width}×${this.height} depth image needs ${this.width * this.height} values, got ${reading.length}`);
    if (this.format !== 'float32') return reading.slice();
    const metres = new Float32Array(reading.length);
    for (let i = 0; i < reading.length; i++) metres[i] = reading[i] * 0.001;
    return metres;
  }
}

/**
 * `getDepthInMeters` as the Depth Sensing Module defines it, shared by the in-process depth information and
 * the browser shim's `XRCPUDepthInformation`: RangeError outside [0, 1], the view point through
 * `normDepthBufferFromNormView` (column-major), truncated to a pixel, clamped into the buffer, scaled.
 */
export function depthInMeters(values: ArrayLike<number>, width: number, height: number, normFromView: ArrayLike<number>, rawValueToMeters: number, x: number, y: number): number {
  return values[depthPixelIndex(width, height, normFromView, x, y)] * rawValueToMeters;
}

/** The pixel (row-major index) `getDepthInMeters(x, y)` reads. */
export function depthPixelIndex(width: number, height: number, normFromView: ArrayLike<number>, x: number, y: number): number {
  if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) throw new RangeError(`normalized view coordinates must be within [0, 1], got (${x}, ${y})`);
  const m = normFromView;
  // The view point (x, y, 0, 1) into normalized depth-buffer coordinates.
  const u = m[0] * x + m[4] * y + m[12];
  const v = m[1] * x + m[5] * y + m[13];
  const col = Math.min(width - 1, Math.max(0, Math.trunc(u * width)));
  const row = Math.min(height - 1, Math.max(0, Math.trunc(v * height)));
  return row * width + col;
}
