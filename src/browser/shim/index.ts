/**
 * The xrsim WebXR shim: `install(config)` puts a simulated WebXR device into the page, under virtual time,
 * and a handle the host ticks (`window.__xrsimHost`). It must run before any page script: the host adds
 * the bundle (`dist/xrsim-shim.js`) as an init script. Also importable as `xrsim/shim` for bundlers.
 *
 * The handle holds data only: it takes tick inputs and returns what the page published. Nothing of the
 * host (files, processes, the network) is reachable through it.
 */
import { DEFAULT_LAYER_SIZE, PAGE_HANDLE, PROTOCOL_VERSION, type PageStatus, type ShimConfig, type TickInput, type TickOutput } from '../protocol.js';
import { AppState } from './app-state.js';
import { DeviceState } from './device.js';
import * as events from './events.js';
import { XRFrame } from './frame.js';
import * as input from './input.js';
import * as layer from './layer.js';
import { captureLayer } from './layer-capture.js';
import { connectBridge } from './bridge-socket.js';
import * as primitives from './primitives.js';
import { S, internal } from './primitives.js';
import { IDENTITY_POSE } from './math.js';
import * as sensing from './sensing.js';
import { XRSession, XRSystem, type Runtime } from './session.js';
import { VirtualClock } from './virtual-time.js';
import { WebAudioObserver } from './web-audio.js';
import { AudioVoices } from './audio-voices.js';

export type { ShimConfig, TickInput, TickOutput };

const DEFAULTS = { layerWidth: DEFAULT_LAYER_SIZE.width, layerHeight: DEFAULT_LAYER_SIZE.height, fov: Math.PI / 2, modes: ['immersive-vr', 'immersive-ar'], bridge: '' } as const;

/** Installs the shim into `win` (default: the current window). Idempotent per window. */
export function install(config: ShimConfig, win: Window & typeof globalThis = window): void {
  if (config.protocol !== PROTOCOL_VERSION) throw new Error(`xrsim shim: protocol ${PROTOCOL_VERSION}, the host speaks ${config.protocol}`);
  if (PAGE_HANDLE in win) return;
  const full = { ...DEFAULTS, ...config } as Required<ShimConfig>;
  const runtime: Runtime = { config: full, device: new DeviceState(), requests: [], report: () => undefined, session: null, state: 'none', start: null };
  let primarySpace: primitives.XRSpace | null = null;
  const app = new AppState(() => (primarySpace ? primarySpace[S].resolve() : IDENTITY_POSE), win.location.origin);
  // Exceptions in callbacks the shim runs are reported as the browser reports uncaught ones.
  runtime.report = (error) => (typeof win.reportError === 'function' ? win.reportError(error) : app.recordError('exception', error));
  const clock = new VirtualClock(full.seed, full.epochMs, runtime.report);
  clock.install(win);
  const webAudio = new WebAudioObserver(clock, runtime.report);
  webAudio.install(win);
  const voices = new AudioVoices(webAudio, win, () => runtime.device.viewer, (source) => app.soundName(source));
  captureErrors(win, app);
  const leaving = watchLeaving(win);
  app.watchThree(win);
  layer.installMakeXRCompatible(win);
  exposeInterfaces(win);
  const system = internal(() => new XRSystem());
  system[S] = runtime;
  Object.defineProperty(win.Navigator.prototype, 'xr', { get: () => system, configurable: true, enumerable: true });
  // Remember the page's first non-viewer reference space: its coordinates are the scene's.
  const request = XRSession.prototype.requestReferenceSpace;
  Object.defineProperty(XRSession.prototype, 'requestReferenceSpace', {
    configurable: true,
    writable: true,
    value: async function (this: XRSession, type: string) {
      const space = await request.call(this, type);
      if (type !== 'viewer' && !primarySpace) primarySpace = space;
      return space;
    },
  });
  Object.defineProperty(win, 'xrsim', { value: app.api(), configurable: false, writable: false, enumerable: false });

  let bridgeState = (): PageStatus['bridge'] => 'none';
  const status = (): PageStatus => {
    const session = runtime.session?.[S];
    const layerSet = !!(session && (session.renderState.baseLayer || session.pending?.baseLayer));
    const requests = !!session && (session.enabled('hit-test') || session.enabled('anchors'));
    return { session: runtime.state, frameReady: !!session && layerSet && session.callbacks.size > 0, requests, bridge: bridgeState(), start: runtime.start };
  };
  const yieldTask = macrotaskYield(win);
  // Real time spent in ticks (the page's own clock is virtual), for the host's benchmarks.
  const realNow = win.Performance.prototype.now.bind(win.performance);
  const busy = { ticks: 0, ms: 0 };
  /** The last batch asked for (settled once it has run). */
  let last: Promise<unknown> = Promise.resolve();
  const handle = Object.freeze({
    status,
    /** Ticks run and the real milliseconds they took in the page. */
    stats: () => ({ ...busy }),
    /**
     * Runs the ticks in order; returns what the page published after each. Batches sent before the last
     * one's answer (a pipelined host) wait for it: a tick never starts inside another.
     */
    tick(batch: TickInput[]): Promise<TickOutput[]> {
      const previous = last;
      // `await`, not `.then`: a page script may have replaced Promise.prototype.then.
      const run = async () => {
        try {
          await previous;
        } catch {
          // That batch's caller got its error.
        }
        return runTicks(batch);
      };
      return (last = run());
    },
  });
  /** Runs one batch of ticks. */
  async function runTicks(batch: TickInput[]): Promise<TickOutput[]> {
    const outputs: TickOutput[] = [];
    for (const tickInput of batch) {
      const started = realNow();
      if (webAudio.active) await webAudio.settle(); // audio decoded since the last tick, delivered now
      clock.advanceTo(tickInput.t * 1000);
      runtime.device.apply(tickInput);
      if (webAudio.active) webAudio.fireEnded();
      // The window's animation frames pause while an immersive session runs, as on standalone headsets.
      if (!runtime.session) clock.runAnimationFrames();
      runtime.session?.[S].runTick();
      // Read back before yielding: what the frame callback drew, before anything else can draw.
      const image = tickInput.c ? captureLayer(runtime.session?.[S].renderState.baseLayer) : null;
      if (runtime.device.endRequested && runtime.state !== 'ended' && !runtime.session) runtime.state = 'ended';
      // Promise continuations and rejection reports of this tick settle before it is read.
      await yieldTask();
      const audio = webAudio.active ? voices.collect() : null;
      const tags = app.collectTags();
      const extents = app.takeExtents();
      outputs.push({
        k: tickInput.k,
        tags,
        events: app.events,
        errors: app.errors,
        requests: runtime.requests.splice(0),
        session: runtime.state,
        ...(image ? { layer: image } : {}),
        ...(audio ? { audio } : {}),
        ...(extents.length ? { extents } : {}),
        ...(leaving.url !== null ? { left: leaving.url } : {}),
      });
      app.events = [];
      app.errors = [];
      busy.ticks++;
      busy.ms += realNow() - started;
    }
    return outputs;
  }
  Object.defineProperty(win, PAGE_HANDLE, { value: handle, configurable: false, writable: false, enumerable: false });
  if (full.bridge) bridgeState = connectBridge(win, full.bridge, handle.tick);
}

/** Every WebXR interface the shim implements, as globals (non-enumerable, like WebIDL interfaces). */
function exposeInterfaces(win: Window & typeof globalThis): void {
  const interfaces: Record<string, unknown> = {
    XRSystem,
    XRSession,
    XRFrame,
    XRRenderState: layer.XRRenderState,
    XRLayer: layer.XRLayer,
    XRWebGLLayer: layer.XRWebGLLayer,
    XRWebGLBinding: layer.XRWebGLBinding,
    XRSpace: primitives.XRSpace,
    XRReferenceSpace: primitives.XRReferenceSpace,
    XRBoundedReferenceSpace: primitives.XRBoundedReferenceSpace,
    XRJointSpace: primitives.XRJointSpace,
    XRRigidTransform: primitives.XRRigidTransform,
    XRPose: primitives.XRPose,
    XRViewerPose: primitives.XRViewerPose,
    XRJointPose: primitives.XRJointPose,
    XRView: primitives.XRView,
    XRViewport: primitives.XRViewport,
    XRRay: primitives.XRRay,
    XRInputSource: input.XRInputSource,
    XRInputSourceArray: input.XRInputSourceArray,
    XRHand: input.XRHand,
    XRPlane: sensing.XRPlane,
    XRPlaneSet: sensing.XRPlaneSet,
    XRDepthInformation: sensing.XRDepthInformation,
    XRCPUDepthInformation: sensing.XRCPUDepthInformation,
    XRHitTestSource: sensing.XRHitTestSource,
    XRTransientInputHitTestSource: sensing.XRTransientInputHitTestSource,
    XRHitTestResult: sensing.XRHitTestResult,
    XRAnchor: sensing.XRAnchor,
    XRAnchorSet: sensing.XRAnchorSet,
    XRSessionEvent: events.XRSessionEvent,
    XRInputSourceEvent: events.XRInputSourceEvent,
    XRInputSourcesChangeEvent: events.XRInputSourcesChangeEvent,
    XRReferenceSpaceEvent: events.XRReferenceSpaceEvent,
  };
  for (const [name, value] of Object.entries(interfaces)) {
    Object.defineProperty(win, name, { value, writable: true, configurable: true, enumerable: false });
  }
}

/** Uncaught exceptions, unhandled rejections and console.error become app errors. */
function captureErrors(win: Window & typeof globalThis, app: AppState): void {
  win.addEventListener('error', (event) => {
    if (event instanceof ErrorEvent) app.recordError('exception', event.error ?? event.message);
  });
  win.addEventListener('unhandledrejection', (event) => app.recordError('rejection', event.reason));
  const consoleError = win.console.error.bind(win.console);
  win.console.error = (...args: unknown[]) => {
    app.recordError('console', args.length === 1 && args[0] instanceof Error ? args[0] : args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(' '));
    consoleError(...args);
  };
}

/**
 * The URL of the new document the page starts to navigate to, once it does (reload, `location = …`, a link,
 * a form): the Navigation API's `navigate` event fires synchronously as the navigation starts, so the tick
 * that started it reports it, however long the next document takes to arrive. Same-document navigations
 * (`pushState`, hash changes) are not leaving.
 */
function watchLeaving(win: Window & typeof globalThis): { url: string | null } {
  const leaving: { url: string | null } = { url: null };
  type NavigateEvent = Event & { destination: { url: string; sameDocument: boolean } };
  const navigation = (win as unknown as { navigation?: EventTarget }).navigation;
  navigation?.addEventListener('navigate', (event) => {
    const { destination } = event as NavigateEvent;
    if (!destination.sameDocument) leaving.url ??= destination.url;
  });
  return leaving;
}

/** A full macrotask turn (MessageChannel: not clamped like timers, and untouched by virtual time). */
function macrotaskYield(win: Window & typeof globalThis): () => Promise<void> {
  const channel = new win.MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
}
