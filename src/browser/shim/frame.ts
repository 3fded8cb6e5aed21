/**
 * XRFrame: a snapshot of the device at one tick. Its methods throw InvalidStateError once the frame is
 * no longer active (after its callbacks and events), as the spec requires.
 */
import { composePose, invertPose, perspective, type Pose } from './math.js';
import { S, domError, illegalConstructor, internal, makePose, transformOf, XRJointPose, XRPose, XRSpace, XRView, XRViewerPose, XRJointSpace } from './primitives.js';
import { handOfJoint, jointState } from './input.js';
import { makeDepthInformation, planeOfSpace, XRAnchorSet, XRCPUDepthInformation, XRHitTestResult, XRPlaneSet, type XRAnchor, type XRHitTestSource } from './sensing.js';
import type { XRRigidTransform } from './primitives.js';

/** What a frame needs from its session. */
export interface FrameSession {
  [S]: {
    enabled(feature: string): boolean;
    device: import('./device.js').DeviceState;
    renderState: { depthNear: number; depthFar: number };
    fov: number;
    aspect: number;
    depthFormat: 'luminance-alpha' | 'float32' | 'unsigned-short';
    trackedAnchors(): Set<XRAnchor>;
    createAnchor(pose: Pose, planeId: number | null): Promise<XRAnchor>;
    hitTestSourceId(source: XRHitTestSource): number | null;
  };
}

export class XRFrame {
  readonly session!: FrameSession;
  readonly predictedDisplayTime!: number;
  [S]!: { active: boolean; animationFrame: boolean; views: Set<XRView>; planes: XRPlaneSet | null };
  constructor() {
    illegalConstructor();
  }

  private check(name: string, animationOnly = false): void {
    if (!this[S].active) throw domError('InvalidStateError', `XRFrame.${name}: the frame is not active`);
    if (animationOnly && !this[S].animationFrame) throw domError('InvalidStateError', `XRFrame.${name}: not an animation frame`);
  }

  getViewerPose(referenceSpace: XRSpace): XRViewerPose | null {
    this.check('getViewerPose', true);
    const device = this.session[S].device;
    const base = referenceSpace[S].resolve();
    if (!base || !device.viewer || !device.views) return null;
    const inverse = invertPose(base);
    const { depthNear, depthFar } = this.session[S].renderState;
    const projection = perspective(this.session[S].fov, this.session[S].aspect, depthNear, depthFar);
    const views = device.views.map((view, index) =>
      internal(() => {
        const v = Object.assign(new XRView(), { eye: index === 0 ? 'left' : 'right', projectionMatrix: projection, transform: transformOf(composePose(inverse, view)) });
        v[S] = { index, frame: this };
        this[S].views.add(v);
        return v;
      }),
    );
    return makePose(XRViewerPose, composePose(inverse, device.viewer), { views: Object.freeze(views) });
  }

  getPose(space: XRSpace, baseSpace: XRSpace): XRPose | null {
    this.check('getPose');
    if (!(space instanceof XRSpace) || !(baseSpace instanceof XRSpace)) throw new TypeError('XRFrame.getPose: expected two XRSpaces');
    const p = space[S].resolve();
    const base = baseSpace[S].resolve();
    return p && base ? makePose(XRPose, composePose(invertPose(base), p)) : null;
  }

  getJointPose(joint: XRJointSpace, baseSpace: XRSpace): XRJointPose | null {
    this.check('getJointPose');
    const hand = handOfJoint.get(joint);
    if (!hand) throw new TypeError('XRFrame.getJointPose: expected an XRJointSpace');
    const state = jointState(joint, hand);
    const base = baseSpace[S].resolve();
    if (!state || !base) return null;
    return makePose(XRJointPose, composePose(invertPose(base), state.pose), { radius: state.radius });
  }

  fillJointRadii(jointSpaces: XRJointSpace[], radii: Float32Array): boolean {
    this.check('fillJointRadii');
    if (radii.length < jointSpaces.length) throw new TypeError('XRFrame.fillJointRadii: radii is shorter than jointSpaces');
    let all = true;
    jointSpaces.forEach((joint, i) => {
      const hand = handOfJoint.get(joint);
      if (!hand) throw new TypeError('XRFrame.fillJointRadii: expected XRJointSpaces');
      const state = jointState(joint, hand);
      radii[i] = state ? state.radius : NaN;
      if (!state) all = false;
    });
    return all;
  }

  fillPoses(spaces: XRSpace[], baseSpace: XRSpace, transforms: Float32Array): boolean {
    this.check('fillPoses');
    if (transforms.length < spaces.length * 16) throw new TypeError('XRFrame.fillPoses: transforms is shorter than 16 × spaces');
    const base = baseSpace[S].resolve();
    const inverse = base && invertPose(base);
    let all = true;
    spaces.forEach((space, i) => {
      const p = inverse && space[S].resolve();
      if (!p) {
        transforms.fill(NaN, i * 16, i * 16 + 16);
        all = false;
        return;
      }
      transforms.set(transformOf(composePose(inverse!, p)).matrix, i * 16);
    });
    return all;
  }

  /** Null without the plane-detection feature (as Chromium does; three.js tests it every frame). */
  get detectedPlanes(): XRPlaneSet | null {
    this.check('detectedPlanes');
    if (!this.session[S].enabled('plane-detection')) return null;
    if (!this[S].planes) this[S].planes = new XRPlaneSet(this.session[S].device.planes.values());
    return this[S].planes;
  }

  getDepthInformation(view: XRView): XRCPUDepthInformation | null {
    this.check('getDepthInformation', true);
    if (!this.session[S].enabled('depth-sensing')) throw domError('NotSupportedError', 'XRFrame.getDepthInformation: depth-sensing is not enabled');
    if (!view || !this[S].views.has(view)) throw domError('InvalidStateError', 'XRFrame.getDepthInformation: the view is not from this frame');
    const depth = this.session[S].device.depth;
    return depth && makeDepthInformation(depth, this.session[S].depthFormat, () => this[S].active);
  }

  getHitTestResults(source: XRHitTestSource): XRHitTestResult[] {
    this.check('getHitTestResults');
    const id = this.session[S].hitTestSourceId(source);
    if (id === null) throw domError('InvalidStateError', 'XRFrame.getHitTestResults: the hit-test source is not of this session or was cancelled');
    return (this.session[S].device.hits.get(id) ?? []).map(([px, py, pz, qx, qy, qz, qw, , , planeId]) => {
      const result = Object.create(XRHitTestResult.prototype) as XRHitTestResult;
      result[S] = { pose: [px, py, pz, qx, qy, qz, qw], planeId, active: () => this[S].active, createAnchor: (pose, plane) => this.session[S].createAnchor(pose, plane) };
      return result;
    });
  }

  getHitTestResultsForTransientInput(): never[] {
    this.check('getHitTestResultsForTransientInput');
    return [];
  }

  createAnchor(pose: XRRigidTransform, space: XRSpace): Promise<XRAnchor> {
    if (!this[S].active) return Promise.reject(domError('InvalidStateError', 'XRFrame.createAnchor: the frame is not active'));
    if (!this.session[S].enabled('anchors')) return Promise.reject(domError('NotSupportedError', 'XRFrame.createAnchor: anchors are not enabled'));
    const base = space[S].resolve();
    if (!base) return Promise.reject(domError('InvalidStateError', 'XRFrame.createAnchor: the space is not tracked'));
    const world = composePose(base, [pose.position.x, pose.position.y, pose.position.z, pose.orientation.x, pose.orientation.y, pose.orientation.z, pose.orientation.w]);
    const planeId = planeOfSpace.get(space) ?? null;
    return this.session[S].createAnchor(world, planeId);
  }

  get trackedAnchors(): XRAnchorSet {
    this.check('trackedAnchors');
    if (!this.session[S].enabled('anchors')) throw domError('NotSupportedError', 'XRFrame.trackedAnchors: anchors are not enabled');
    return new XRAnchorSet(this.session[S].trackedAnchors());
  }
}

/** A new active frame. */
export function makeFrame(session: FrameSession, time: number, animationFrame: boolean): XRFrame {
  const frame = Object.create(XRFrame.prototype) as XRFrame;
  Object.defineProperties(frame, { session: { value: session, enumerable: true }, predictedDisplayTime: { value: time, enumerable: true } });
  frame[S] = { active: true, animationFrame, views: new Set(), planes: null };
  return frame;
}
