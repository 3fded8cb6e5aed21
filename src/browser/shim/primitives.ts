/**
 * WebXR's value types: XRRigidTransform, XRPose and its kinds, XRView, XRViewport, XRRay, and the spaces
 * (XRSpace, XRReferenceSpace, XRBoundedReferenceSpace, XRJointSpace). A space knows how to find its pose in
 * the world (the xrsim world, which is `local-floor`) at the current frame, or null when it is not tracked.
 */
import { composePose, invertPose, normalizeQuat, poseMatrix, type Pose } from './math.js';

/** Key of the shim's internal state on WebXR objects (never exposed as a global). */
export const S = Symbol('xrsim');

export function domError(name: string, message: string): DOMException {
  return new DOMException(message, name);
}

/** Throws TypeError: WebXR interfaces without a public constructor. */
export function illegalConstructor(): never {
  throw new TypeError('Illegal constructor');
}

let constructing = false;
/** Builds an instance of a class whose public constructor throws. */
export function internal<T>(make: () => T): T {
  constructing = true;
  try {
    return make();
  } finally {
    constructing = false;
  }
}
/** Throws unless called inside `internal` (WebXR interfaces the page cannot construct). */
export function checkInternal(): void {
  if (!constructing) illegalConstructor();
}

export class XRRigidTransform {
  readonly position: DOMPointReadOnly;
  readonly orientation: DOMPointReadOnly;
  private cachedMatrix: Float32Array | null = null;
  private cachedInverse: XRRigidTransform | null = null;

  constructor(position?: DOMPointInit, orientation?: DOMPointInit) {
    const p = position ?? {};
    const o = orientation ?? {};
    if ((p.w ?? 1) !== 1) throw new TypeError("XRRigidTransform: position's w must be 1");
    this.position = new DOMPointReadOnly(p.x ?? 0, p.y ?? 0, p.z ?? 0, 1);
    const [x, y, z, w] = normalizeQuat(o.x ?? 0, o.y ?? 0, o.z ?? 0, o.w ?? 1);
    this.orientation = new DOMPointReadOnly(x, y, z, w);
  }

  get matrix(): Float32Array {
    return (this.cachedMatrix ??= poseMatrix(poseOf(this)));
  }

  get inverse(): XRRigidTransform {
    return (this.cachedInverse ??= transformOf(invertPose(poseOf(this))));
  }
}

export function poseOf(t: XRRigidTransform): Pose {
  return [t.position.x, t.position.y, t.position.z, t.orientation.x, t.orientation.y, t.orientation.z, t.orientation.w];
}

/** A transform from a pose, keeping its quaternion as given (already unit). */
export function transformOf(p: ArrayLike<number>): XRRigidTransform {
  const t = Object.create(XRRigidTransform.prototype) as XRRigidTransform;
  Object.assign(t, {
    position: new DOMPointReadOnly(p[0], p[1], p[2], 1),
    orientation: new DOMPointReadOnly(p[3], p[4], p[5], p[6]),
    cachedMatrix: null,
    cachedInverse: null,
  });
  return t;
}

export class XRPose {
  readonly transform!: XRRigidTransform;
  readonly emulatedPosition: boolean = false;
  readonly linearVelocity: DOMPointReadOnly | null = null;
  readonly angularVelocity: DOMPointReadOnly | null = null;
  constructor() {
    checkInternal();
  }
}

export class XRJointPose extends XRPose {
  readonly radius!: number;
}

export class XRViewport {
  constructor(
    readonly x: number,
    readonly y: number,
    readonly width: number,
    readonly height: number,
  ) {
    checkInternal();
  }
}

export class XRView {
  readonly eye!: 'left' | 'right' | 'none';
  readonly projectionMatrix!: Float32Array;
  readonly transform!: XRRigidTransform;
  readonly recommendedViewportScale: number | null = null;
  readonly isFirstPersonObserver = false;
  /** Index into the layer's viewports. */
  [S]!: { index: number; frame: object };
  constructor() {
    checkInternal();
  }
  requestViewportScale(_scale: number | null): void {}
}

export class XRViewerPose extends XRPose {
  readonly views!: readonly XRView[];
}

export function makePose<T extends XRPose>(kind: new () => T, pose: Pose, extra: Record<string, unknown> = {}): T {
  return internal(() => Object.assign(new kind(), { transform: transformOf(pose) }, extra));
}

export class XRRay {
  readonly origin: DOMPointReadOnly;
  readonly direction: DOMPointReadOnly;
  readonly matrix: Float32Array;
  constructor(origin?: DOMPointInit | XRRigidTransform, direction?: DOMPointInit) {
    if (origin instanceof XRRigidTransform) {
      const [x, y, z] = [origin.matrix[8], origin.matrix[9], origin.matrix[10]];
      this.origin = new DOMPointReadOnly(origin.position.x, origin.position.y, origin.position.z, 1);
      this.direction = new DOMPointReadOnly(-x, -y, -z, 0);
    } else {
      const o = origin ?? {};
      const d = direction ?? { x: 0, y: 0, z: -1 };
      const n = Math.hypot(d.x ?? 0, d.y ?? 0, d.z ?? 0);
      if (n === 0 || (d.w ?? 0) !== 0 || (o.w ?? 1) !== 1) throw new TypeError('XRRay: invalid origin or direction');
      this.origin = new DOMPointReadOnly(o.x ?? 0, o.y ?? 0, o.z ?? 0, 1);
      this.direction = new DOMPointReadOnly((d.x ?? 0) / n, (d.y ?? 0) / n, (d.z ?? 0) / n, 0);
    }
    // The transform taking the −Z ray from the origin onto this ray.
    const [dx, dy, dz] = [this.direction.x, this.direction.y, this.direction.z];
    const q = dz < -1 + 1e-9 ? [0, 0, 0, 1] : dz > 1 - 1e-9 ? [0, 1, 0, 0] : normalizeQuat(dy, -dx, 0, 1 - dz);
    this.matrix = poseMatrix([this.origin.x, this.origin.y, this.origin.z, q[0], q[1], q[2], q[3]]);
  }
}

/** How a space finds its world pose now (null: not tracked). */
export type Resolver = () => Pose | null;

export class XRSpace extends EventTarget {
  [S]!: { resolve: Resolver };
  constructor() {
    checkInternal();
    super();
  }
}

export function makeSpace<T extends XRSpace>(kind: new () => T, resolve: Resolver, extra: Record<string, unknown> = {}): T {
  const space = internal(() => new kind());
  space[S] = { resolve };
  return Object.assign(space, extra);
}

export class XRReferenceSpace extends XRSpace {
  onreset: ((event: Event) => void) | null = null;
  getOffsetReferenceSpace(originOffset: XRRigidTransform): XRReferenceSpace {
    if (!(originOffset instanceof XRRigidTransform)) throw new TypeError('getOffsetReferenceSpace: expected an XRRigidTransform');
    const parent = this[S].resolve;
    const offset = poseOf(originOffset);
    const kind = this instanceof XRBoundedReferenceSpace ? XRBoundedReferenceSpace : XRReferenceSpace;
    const extra = this instanceof XRBoundedReferenceSpace ? { boundsGeometry: offsetBounds(this.boundsGeometry, offset) } : {};
    return makeSpace(kind, () => {
      const p = parent();
      return p && composePose(p, offset);
    }, extra);
  }
}

export class XRBoundedReferenceSpace extends XRReferenceSpace {
  readonly boundsGeometry!: readonly DOMPointReadOnly[];
}

function offsetBounds(bounds: readonly DOMPointReadOnly[], offset: Pose): DOMPointReadOnly[] {
  // Bounds are in the space's own coordinates: the inverse offset maps them (on the floor plane).
  const inverse = invertPose(offset);
  return bounds.map((b) => {
    const p = composePose(inverse, [b.x, 0, b.z, 0, 0, 0, 1]);
    return new DOMPointReadOnly(p[0], 0, p[2], 1);
  });
}

export class XRJointSpace extends XRSpace {
  readonly jointName!: string;
}
