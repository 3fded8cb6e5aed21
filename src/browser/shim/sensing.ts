/**
 * The perception modules' interfaces: XRPlane and XRPlaneSet (plane detection), XRDepthInformation and
 * XRCPUDepthInformation (depth sensing), XRHitTestSource and XRHitTestResult (hit test), XRAnchor and
 * XRAnchorSet (anchors). Their contents come from the host, tick by tick.
 */
import { S, domError, illegalConstructor, internal, makePose, makeSpace, transformOf, XRPose, XRSpace, type XRRigidTransform } from './primitives.js';
import { composePose, invertPose, type Pose } from './math.js';
import { depthInMeters } from '../../sensing/depth-information.js';

export class XRPlaneSet extends Set<XRPlane> {}
export class XRAnchorSet extends Set<XRAnchor> {}

export class XRPlane {
  readonly planeSpace!: XRSpace;
  polygon!: readonly DOMPointReadOnly[];
  orientation!: 'horizontal' | 'vertical' | null;
  lastChangedTime!: number;
  semanticLabel!: string;
  [S]!: { id: number; pose: Pose };
  constructor() {
    illegalConstructor();
  }
}

/** Plane spaces to their plane ids, so an anchor created in a plane's space is attached to that plane. */
export const planeOfSpace = new WeakMap<XRSpace, number>();

/** A plane object the page will keep while the plane persists. */
export function makePlane(id: number, pose: Pose): XRPlane {
  const plane = Object.create(XRPlane.prototype) as XRPlane;
  plane[S] = { id, pose };
  const space = makeSpace(XRSpace, () => plane[S].pose);
  planeOfSpace.set(space, id);
  Object.defineProperty(plane, 'planeSpace', { value: space, enumerable: true });
  return plane;
}

/** Flat x, z pairs in plane space to a frozen loop of points (y = 0). */
export function polygonOf(flat: number[]): readonly DOMPointReadOnly[] {
  const points: DOMPointReadOnly[] = [];
  for (let i = 0; i < flat.length; i += 2) points.push(new DOMPointReadOnly(flat[i], 0, flat[i + 1], 1));
  return Object.freeze(points);
}

export class XRDepthInformation {
  readonly width!: number;
  readonly height!: number;
  readonly normDepthBufferFromNormView!: XRRigidTransform;
  readonly rawValueToMeters!: number;
  /** XRViewGeometry: where the depth camera was, and its projection. */
  readonly transform!: XRRigidTransform;
  readonly projectionMatrix!: Float32Array;
  [S]!: { active(): boolean };
  constructor() {
    illegalConstructor();
  }
}

export class XRCPUDepthInformation extends XRDepthInformation {
  private readonly values!: Uint16Array | Float32Array;

  get data(): ArrayBuffer {
    if (!this[S].active()) throw domError('InvalidStateError', 'XRCPUDepthInformation: its frame is no longer active');
    return this.values.buffer as ArrayBuffer;
  }

  /** As the Depth Sensing Module defines it: the in-process `CpuDepthInformation`'s own function. */
  getDepthInMeters(x: number, y: number): number {
    if (!this[S].active()) throw domError('InvalidStateError', 'XRCPUDepthInformation: its frame is no longer active');
    return depthInMeters(this.values, this.width, this.height, this.normDepthBufferFromNormView.matrix, this.rawValueToMeters, x, y);
  }
}

/** The latest depth frame as the host sent it. */
export interface DepthFrame {
  width: number;
  height: number;
  mm: Uint16Array;
  /** Metres as f32, made once per depth frame when the page asked for float32. */
  metres: Float32Array | null;
  pose: Pose;
  projection: Float32Array;
  normFromView: XRRigidTransform;
}

/** The depth information a frame hands out, in the data format the session chose. */
export function makeDepthInformation(depth: DepthFrame, format: 'luminance-alpha' | 'float32' | 'unsigned-short', active: () => boolean): XRCPUDepthInformation {
  const info = internal(() => Object.create(XRCPUDepthInformation.prototype) as XRCPUDepthInformation);
  let values: Uint16Array | Float32Array = depth.mm;
  if (format === 'float32') {
    if (!depth.metres) {
      // The same conversion as the in-process CpuDepthInformation (double product, rounded to f32).
      depth.metres = new Float32Array(depth.mm.length);
      for (let i = 0; i < depth.mm.length; i++) depth.metres[i] = depth.mm[i] * 0.001;
    }
    values = depth.metres;
  }
  Object.assign(info, {
    width: depth.width,
    height: depth.height,
    normDepthBufferFromNormView: depth.normFromView,
    rawValueToMeters: format === 'float32' ? 1 : 0.001,
    transform: transformOf(depth.pose),
    projectionMatrix: depth.projection,
    values,
  });
  info[S] = { active };
  return info;
}

export class XRHitTestSource {
  [S]!: { id: number; cancelled: boolean; cancel(): void };
  constructor() {
    illegalConstructor();
  }
  cancel(): void {
    if (this[S].cancelled) throw domError('InvalidStateError', 'XRHitTestSource: already cancelled');
    this[S].cancelled = true;
    this[S].cancel();
  }
}

export function makeHitTestSource(id: number, cancel: () => void): XRHitTestSource {
  const source = Object.create(XRHitTestSource.prototype) as XRHitTestSource;
  source[S] = { id, cancelled: false, cancel };
  return source;
}

export class XRTransientInputHitTestSource {
  constructor() {
    illegalConstructor();
  }
  cancel(): void {}
}

export class XRHitTestResult {
  [S]!: { pose: Pose; planeId: number; active(): boolean; createAnchor(pose: Pose, planeId: number | null): Promise<XRAnchor> };
  constructor() {
    illegalConstructor();
  }
  getPose(baseSpace: XRSpace): XRPose | null {
    if (!this[S].active()) throw domError('InvalidStateError', 'XRHitTestResult.getPose: its frame is not active');
    const base = baseSpace[S].resolve();
    return base && makePose(XRPose, composePose(invertPose(base), this[S].pose));
  }
  createAnchor(): Promise<XRAnchor> {
    return this[S].createAnchor(this[S].pose, this[S].planeId >= 0 ? this[S].planeId : null);
  }
}

export class XRAnchor {
  readonly anchorSpace!: XRSpace;
  [S]!: { id: number; pose: Pose; deleted: boolean };
  constructor() {
    illegalConstructor();
  }
  delete(): void {
    this[S].deleted = true;
  }
}

export function makeAnchor(id: number, pose: Pose): XRAnchor {
  const anchor = Object.create(XRAnchor.prototype) as XRAnchor;
  anchor[S] = { id, pose, deleted: false };
  Object.defineProperty(anchor, 'anchorSpace', { value: makeSpace(XRSpace, () => anchor[S].pose), enumerable: true });
  return anchor;
}
