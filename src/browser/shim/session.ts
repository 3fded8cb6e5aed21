/**
 * XRSystem (`navigator.xr`) and XRSession: features, reference spaces, render state, the frame loop,
 * input sources and their events, hit-test sources and anchors. The bridge calls `runTick` once per host
 * tick; nothing here runs on its own.
 */
import type { PageRequest, ShimConfig } from '../protocol.js';
import type { DeviceState } from './device.js';
import { defineEventHandlers, XRInputSourceEvent, XRInputSourcesChangeEvent, XRSessionEvent } from './events.js';
import { makeFrame, type FrameSession } from './frame.js';
import { makeInputSource, makeInputSourceArray, updateGamepad, type SourceData, type XRInputSource, type XRInputSourceArray } from './input.js';
import { makeRenderState, XRWebGLLayer, type XRRenderState } from './layer.js';
import type { Pose } from './math.js';
import { S, checkInternal, domError, internal, makeSpace, XRBoundedReferenceSpace, XRReferenceSpace, XRRay, type XRSpace } from './primitives.js';
import { makeAnchor, makeHitTestSource, type XRAnchor, type XRHitTestSource } from './sensing.js';
import { negotiateFeatures, resolveReferenceSpace, type SessionInit } from './features.js';

/** What sessions share with the bridge. */
export interface Runtime {
  config: Required<ShimConfig>;
  device: DeviceState;
  requests: PageRequest[];
  report(error: unknown): void;
  session: XRSession | null;
  state: 'none' | 'requested' | 'running' | 'ended';
  /** How the page's immersive session was requested: its mode, and whether the call had transient user activation. */
  start: SessionStart | null;
}

/** The first immersive session request of the page (`PageStatus.start`). */
export interface SessionStart {
  mode: string;
  /** `navigator.userActivation.isActive` when the page called `requestSession` (a real click gives it). */
  activation: boolean;
}

interface SourceEntry {
  source: XRInputSource;
  data: SourceData;
}

export class XRSession extends EventTarget implements FrameSession {
  [S]!: ReturnType<typeof sessionState>;
  constructor() {
    checkInternal();
    super();
  }
  get renderState(): XRRenderState {
    return this[S].renderStateObject;
  }
  get inputSources(): XRInputSourceArray {
    return this[S].inputSourceArray;
  }
  get enabledFeatures(): readonly string[] {
    return this[S].features;
  }
  get visibilityState(): 'visible' {
    return 'visible';
  }
  get frameRate(): number {
    return this[S].frameRate;
  }
  get supportedFrameRates(): Float32Array {
    return new Float32Array([this[S].frameRate]);
  }
  get environmentBlendMode(): string {
    return this[S].mode === 'immersive-ar' ? 'alpha-blend' : 'opaque';
  }
  get interactionMode(): string {
    return 'world-space';
  }
  get depthUsage(): string {
    if (!this[S].enabled('depth-sensing')) throw domError('InvalidStateError', 'XRSession.depthUsage: depth-sensing is not enabled');
    return 'cpu-optimized';
  }
  get depthDataFormat(): string {
    if (!this[S].enabled('depth-sensing')) throw domError('InvalidStateError', 'XRSession.depthDataFormat: depth-sensing is not enabled');
    return this[S].depthFormat;
  }
  get domOverlayState(): null {
    return null;
  }
  get isSystemKeyboardSupported(): boolean {
    return false;
  }

  updateRenderState(init: { depthNear?: number; depthFar?: number; inlineVerticalFieldOfView?: number; baseLayer?: XRWebGLLayer | null } = {}): void {
    const s = this[S];
    if (s.ended) throw domError('InvalidStateError', 'XRSession.updateRenderState: the session has ended');
    if (init.baseLayer && !(init.baseLayer instanceof XRWebGLLayer)) throw new TypeError('XRSession.updateRenderState: baseLayer must be an XRWebGLLayer');
    if (init.inlineVerticalFieldOfView !== undefined) throw domError('InvalidStateError', 'XRSession.updateRenderState: inlineVerticalFieldOfView is for inline sessions');
    const base = s.pending ?? s.renderState;
    s.pending = { ...base, ...Object.fromEntries(Object.entries(init).filter(([, v]) => v !== undefined)) };
  }

  async updateTargetFrameRate(rate: number): Promise<void> {
    if (rate !== this[S].frameRate) throw domError('InvalidStateError', `XRSession.updateTargetFrameRate: ${rate} Hz is not supported`);
  }

  async requestReferenceSpace(type: string): Promise<XRReferenceSpace> {
    const s = this[S];
    if (s.ended) throw domError('InvalidStateError', 'XRSession.requestReferenceSpace: the session has ended');
    if (type !== 'viewer' && !s.enabled(type)) throw domError('NotSupportedError', `XRSession.requestReferenceSpace: "${type}" is not enabled`);
    const resolver = resolveReferenceSpace(type, s.runtime.device);
    if (!resolver) throw domError('NotSupportedError', `XRSession.requestReferenceSpace: unknown type "${type}"`);
    const space =
      type === 'bounded-floor'
        ? makeSpace(XRBoundedReferenceSpace, resolver, { boundsGeometry: Object.freeze([[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([x, z]) => new DOMPointReadOnly(x, 0, z, 1))) })
        : makeSpace(XRReferenceSpace, resolver);
    s.spaceKinds.set(space, type);
    return space;
  }

  requestAnimationFrame(callback: XRFrameRequestCallback): number {
    const s = this[S];
    const id = ++s.callbackId;
    if (!s.ended) s.callbacks.set(id, callback);
    return id;
  }

  cancelAnimationFrame(id: number): void {
    this[S].callbacks.delete(id);
  }

  async requestHitTestSource(options: { space: XRSpace; entityTypes?: ('plane' | 'point' | 'mesh')[]; offsetRay?: XRRay }): Promise<XRHitTestSource> {
    const s = this[S];
    if (s.ended) throw domError('InvalidStateError', 'XRSession.requestHitTestSource: the session has ended');
    if (!s.enabled('hit-test')) throw domError('NotSupportedError', 'XRSession.requestHitTestSource: hit-test is not enabled');
    const ray = options.offsetRay;
    if (ray && (ray.origin.x || ray.origin.y || ray.origin.z || ray.direction.x || ray.direction.y || ray.direction.z !== -1)) {
      throw domError('NotSupportedError', 'XRSession.requestHitTestSource: offsetRay other than the default is not supported by the simulator');
    }
    const space = s.spaceKinds.get(options.space) === 'viewer' ? 'viewer' : s.sourceIdOfSpace(options.space);
    if (space === null) throw domError('NotSupportedError', "XRSession.requestHitTestSource: the space must be the viewer space or an input source's targetRaySpace");
    // WebXR's 'point' entities are depth hits in the simulator; 'mesh' has no counterpart.
    const entityTypes = [...new Set((options.entityTypes ?? ['plane']).map((t) => (t === 'point' ? 'depth' : t)))];
    if (entityTypes.some((t) => t !== 'plane' && t !== 'depth')) throw domError('NotSupportedError', 'XRSession.requestHitTestSource: only plane and point entities are simulated');
    const id = ++s.requestId;
    s.runtime.requests.push({ type: 'hit-test-source', id, space, entityTypes: entityTypes as ('plane' | 'depth')[] });
    return new Promise((resolve) => s.pendingHitTestSources.set(id, resolve));
  }

  async requestHitTestSourceForTransientInput(): Promise<never> {
    throw domError('NotSupportedError', 'XRSession.requestHitTestSourceForTransientInput: the simulator has no transient input');
  }

  async end(): Promise<void> {
    if (this[S].ended) throw domError('InvalidStateError', 'XRSession.end: the session has already ended');
    this[S].shutdown();
  }
}

defineEventHandlers(XRSession.prototype, ['end', 'inputsourceschange', 'select', 'selectstart', 'selectend', 'squeeze', 'squeezestart', 'squeezeend', 'visibilitychange', 'frameratechange']);

type XRFrameRequestCallback = (time: number, frame: unknown) => void;

function sessionState(session: XRSession, runtime: Runtime, mode: string, init: SessionInit) {
  const { features, depthFormat } = negotiateFeatures(mode, init);
  const enabled = new Set(features);
  const sources = new Map<number, SourceEntry>();
  const anchors = new Map<number, XRAnchor>();
  const hitTestSources = new Map<XRHitTestSource, number>();
  const pendingAnchors = new Map<number, { resolve(a: XRAnchor): void; reject(e: unknown): void; anchorId: number | null }>();
  const config = runtime.config;
  const state = {
    runtime,
    mode,
    features: Object.freeze(features),
    depthFormat,
    enabled: (feature: string) => enabled.has(feature),
    ended: false,
    device: runtime.device,
    frameRate: 90,
    layerSize: { width: config.layerWidth, height: config.layerHeight },
    fov: config.fov,
    aspect: config.layerWidth / 2 / config.layerHeight,
    renderState: { depthNear: 0.1, depthFar: 1000, inlineVerticalFieldOfView: null as number | null, baseLayer: null as XRWebGLLayer | null },
    renderStateObject: null as unknown as XRRenderState,
    pending: null as null | { depthNear: number; depthFar: number; inlineVerticalFieldOfView: number | null; baseLayer: XRWebGLLayer | null },
    callbacks: new Map<number, XRFrameRequestCallback>(),
    callbackId: 0,
    requestId: 0,
    inputSourceArray: makeInputSourceArray(),
    spaceKinds: new WeakMap<object, string>(),
    pendingHitTestSources: new Map<number, (s: XRHitTestSource) => void>(),
    sourceIdOfSpace(space: XRSpace): number | null {
      for (const [id, entry] of sources) if (entry.source.targetRaySpace === space) return id;
      return null;
    },
    hitTestSourceId: (source: XRHitTestSource) => hitTestSources.get(source) ?? null,
    trackedAnchors: () => new Set([...anchors.values()].filter((a) => !a[S].deleted && runtime.device.anchors.has(a[S].id))),
    createAnchor(pose: Pose, planeId: number | null): Promise<XRAnchor> {
      const id = ++state.requestId;
      runtime.requests.push({ type: 'anchor', id, pose, planeId });
      return new Promise((resolve, reject) => pendingAnchors.set(id, { resolve, reject, anchorId: null }));
    },
    shutdown() {
      if (state.ended) return;
      state.ended = true;
      state.callbacks.clear();
      for (const { reject } of pendingAnchors.values()) reject(domError('InvalidStateError', 'the session ended'));
      pendingAnchors.clear();
      runtime.state = 'ended';
      if (runtime.session === session) runtime.session = null;
      session.dispatchEvent(new XRSessionEvent('end', { session }));
    },
    /** One tick: replies, input sources and their events, then the animation frame. */
    runTick() {
      const device = runtime.device;
      if (state.ended) return;
      if (state.pending) {
        state.renderState = state.pending;
        state.renderStateObject = makeRenderState(state.renderState);
        state.pending = null;
      }
      for (const id of device.replies.hitTestSources ?? []) {
        const resolve = state.pendingHitTestSources.get(id);
        if (!resolve) continue;
        state.pendingHitTestSources.delete(id);
        const source = makeHitTestSource(id, () => {
          hitTestSources.delete(source);
          runtime.requests.push({ type: 'cancel-hit-test-source', id });
        });
        hitTestSources.set(source, id);
        resolve(source);
      }
      for (const [requestId, anchorId] of device.replies.anchors ?? []) {
        const pending = pendingAnchors.get(requestId);
        if (!pending) continue;
        if (anchorId < 0) {
          pendingAnchors.delete(requestId);
          pending.reject(domError('InvalidStateError', 'the anchor could not be created'));
        } else pending.anchorId = anchorId;
      }
      for (const [id, pose] of device.anchors) {
        const anchor = anchors.get(id);
        if (anchor) anchor[S].pose = pose;
      }
      // An anchor's promise resolves once it is first tracked.
      for (const [requestId, pending] of pendingAnchors) {
        if (pending.anchorId === null || !device.anchors.has(pending.anchorId)) continue;
        const anchor = makeAnchor(pending.anchorId, device.anchors.get(pending.anchorId)!);
        anchors.set(pending.anchorId, anchor);
        pendingAnchors.delete(requestId);
        pending.resolve(anchor);
      }
      const eventFrame = makeFrame(session, device.timeMs, false);
      updateInputSources(session, state, sources, eventFrame);
      eventFrame[S].active = false;
      if (state.renderState.baseLayer && state.callbacks.size > 0) {
        const callbacks = state.callbacks;
        state.callbacks = new Map();
        const frame = makeFrame(session, device.timeMs, true);
        for (const callback of callbacks.values()) {
          try {
            callback(device.timeMs, frame);
          } catch (error) {
            runtime.report(error);
          }
        }
        frame[S].active = false;
      }
      if (device.endRequested) state.shutdown();
    },
  };
  state.renderStateObject = makeRenderState(state.renderState);
  return state;
}

const SOURCE_SIDES: Record<number, ['left' | 'right', boolean]> = { 0: ['left', true], 1: ['right', true], 2: ['left', false], 3: ['right', false] };

/**
 * Input sources follow the host's present ids. Order of events within a tick: sources that appeared
 * (inputsourceschange), then select/squeeze events in the host's order, then sources that went away
 * (a hand lost mid-pinch ends its select before it is removed, as in Chromium).
 */
function updateInputSources(session: XRSession, state: ReturnType<typeof sessionState>, sources: Map<number, SourceEntry>, frame: ReturnType<typeof makeFrame>): void {
  const device = state.device;
  const added: XRInputSource[] = [];
  const removed = new Map<number, XRInputSource>();
  for (const [id, entry] of sources) {
    if (device.sources.has(id)) continue;
    sources.delete(id);
    // A source that went away reports no poses any more.
    entry.data.floats = null;
    removed.set(id, entry.source);
  }
  for (const [id, floats] of device.sources) {
    let entry = sources.get(id);
    if (!entry) {
      const [side, hand] = SOURCE_SIDES[id];
      const data: SourceData = { floats: null };
      entry = { source: makeInputSource(side, hand, data, state.enabled('hand-tracking')), data };
      sources.set(id, entry);
      added.push(entry.source);
    }
    entry.data.floats = floats;
    if (entry.source.gamepad) updateGamepad(entry.source.gamepad, floats, device.timeMs);
  }
  state.inputSourceArray[S] = [...sources.keys()].sort((a, b) => a - b).map((id) => sources.get(id)!.source);
  if (added.length) session.dispatchEvent(new XRInputSourcesChangeEvent('inputsourceschange', { session, added, removed: [] }));
  for (const [type, id] of device.events) {
    const source = sources.get(id)?.source ?? removed.get(id);
    if (source) session.dispatchEvent(new XRInputSourceEvent(type, { frame, inputSource: source }));
  }
  if (removed.size) session.dispatchEvent(new XRInputSourcesChangeEvent('inputsourceschange', { session, added: [], removed: [...removed.values()] }));
}

/** `navigator.xr`. */
export class XRSystem extends EventTarget {
  [S]!: Runtime;
  constructor() {
    checkInternal();
    super();
  }

  async isSessionSupported(mode: string): Promise<boolean> {
    return (this[S].config.modes as string[]).includes(mode);
  }

  async requestSession(mode: string, init: SessionInit = {}): Promise<XRSession> {
    const runtime = this[S];
    if (!(runtime.config.modes as string[]).includes(mode)) throw domError('NotSupportedError', `XRSystem.requestSession: mode "${mode}" is not supported`);
    if (runtime.session || runtime.state === 'requested') throw domError('InvalidStateError', 'XRSystem.requestSession: an immersive session is already active');
    runtime.state = 'requested';
    runtime.start ??= { mode, activation: globalThis.navigator?.userActivation?.isActive === true };
    try {
      const session = internal(() => new XRSession());
      session[S] = sessionState(session, runtime, mode, init);
      runtime.session = session;
      runtime.state = 'running';
      return session;
    } catch (error) {
      runtime.state = 'none';
      throw error;
    }
  }
}

defineEventHandlers(XRSystem.prototype, ['devicechange']);

