/**
 * Rendering: XRRenderState, XRWebGLLayer (a real WebGL framebuffer with a colour and a depth-stencil
 * renderbuffer, the two views side by side), XRWebGLBinding (present so pages can feature-test it, without
 * projection layers, so three.js renders through XRWebGLLayer), and `makeXRCompatible`.
 */
import { S, checkInternal, domError, internal, XRViewport, type XRView } from './primitives.js';

export interface LayerSize {
  width: number;
  height: number;
}

export class XRRenderState {
  readonly depthNear!: number;
  readonly depthFar!: number;
  readonly inlineVerticalFieldOfView!: number | null;
  readonly baseLayer!: XRWebGLLayer | null;
  constructor() {
    checkInternal();
  }
}

export function makeRenderState(init: { depthNear: number; depthFar: number; inlineVerticalFieldOfView: number | null; baseLayer: XRWebGLLayer | null }): XRRenderState {
  return Object.assign(Object.create(XRRenderState.prototype) as XRRenderState, init);
}

export class XRLayer extends EventTarget {}

type GL = WebGLRenderingContext | WebGL2RenderingContext;

/** What a layer needs from its session. */
export interface LayerSession {
  [S]: { ended: boolean; layerSize: LayerSize };
}

export class XRWebGLLayer extends XRLayer {
  readonly antialias = false;
  readonly ignoreDepthValues = true;
  fixedFoveation: number | null = null;
  readonly framebuffer: WebGLFramebuffer;
  readonly framebufferWidth: number;
  readonly framebufferHeight: number;
  private readonly viewports: XRViewport[];
  readonly context: GL;

  constructor(session: LayerSession, context: GL, layerInit: XRWebGLLayerInit = {}) {
    super();
    if (!session || !(S in session)) throw new TypeError('XRWebGLLayer: the first argument must be an XRSession');
    if (session[S].ended) throw domError('InvalidStateError', 'XRWebGLLayer: the session has ended');
    if (!context || typeof context.createFramebuffer !== 'function') throw new TypeError('XRWebGLLayer: the second argument must be a WebGL context');
    if (context.isContextLost()) throw domError('InvalidStateError', 'XRWebGLLayer: the WebGL context is lost');
    const scale = Math.min(Math.max(layerInit.framebufferScaleFactor ?? 1, 0.2), 1);
    const size = session[S].layerSize;
    const width = Math.max(2, Math.round(size.width * scale));
    const height = Math.max(1, Math.round(size.height * scale));
    this.context = context;
    this.framebufferWidth = width;
    this.framebufferHeight = height;
    this.framebuffer = createFramebuffer(context, width, height, layerInit.depth !== false || layerInit.stencil === true);
    const half = Math.floor(width / 2);
    this.viewports = internal(() => [new XRViewport(0, 0, half, height), new XRViewport(half, 0, width - half, height)]);
  }

  getViewport(view: XRView): XRViewport | null {
    const state = view?.[S];
    if (!state) throw new TypeError('XRWebGLLayer.getViewport: expected an XRView');
    return this.viewports[state.index] ?? null;
  }

  static getNativeFramebufferScaleFactor(session: LayerSession): number {
    return session?.[S]?.ended ? 0 : 1;
  }
}

interface XRWebGLLayerInit {
  antialias?: boolean;
  depth?: boolean;
  stencil?: boolean;
  alpha?: boolean;
  ignoreDepthValues?: boolean;
  framebufferScaleFactor?: number;
}

function createFramebuffer(gl: GL, width: number, height: number, depth: boolean): WebGLFramebuffer {
  const webgl2 = typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext;
  const previousFramebuffer = gl.getParameter(gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
  const previousRenderbuffer = gl.getParameter(gl.RENDERBUFFER_BINDING) as WebGLRenderbuffer | null;
  const framebuffer = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  const color = gl.createRenderbuffer();
  gl.bindRenderbuffer(gl.RENDERBUFFER, color);
  gl.renderbufferStorage(gl.RENDERBUFFER, webgl2 ? (gl as WebGL2RenderingContext).RGBA8 : gl.RGBA4, width, height);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color);
  if (depth) {
    const depthStencil = gl.createRenderbuffer();
    gl.bindRenderbuffer(gl.RENDERBUFFER, depthStencil);
    gl.renderbufferStorage(gl.RENDERBUFFER, webgl2 ? (gl as WebGL2RenderingContext).DEPTH24_STENCIL8 : gl.DEPTH_STENCIL, width, height);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_STENCIL_ATTACHMENT, gl.RENDERBUFFER, depthStencil);
  }
  gl.bindRenderbuffer(gl.RENDERBUFFER, previousRenderbuffer);
  gl.bindFramebuffer(gl.FRAMEBUFFER, previousFramebuffer);
  return framebuffer;
}

export class XRWebGLBinding {
  constructor(session: LayerSession, context: GL) {
    if (!session || !(S in session)) throw new TypeError('XRWebGLBinding: the first argument must be an XRSession');
    if (session[S].ended) throw domError('InvalidStateError', 'XRWebGLBinding: the session has ended');
    if (!context || context.isContextLost()) throw domError('InvalidStateError', 'XRWebGLBinding: the WebGL context is lost');
  }
  /** GPU depth: the shim offers CPU-optimised depth only. */
  getDepthInformation(_view: XRView): null {
    throw domError('NotSupportedError', "XRWebGLBinding.getDepthInformation: the session's depth usage is cpu-optimized");
  }
}

/** Adds `makeXRCompatible` to WebGL contexts (always compatible: there is one simulated device). */
export function installMakeXRCompatible(win: Window & typeof globalThis): void {
  for (const proto of [win.WebGLRenderingContext?.prototype, win.WebGL2RenderingContext?.prototype]) {
    if (proto) Object.defineProperty(proto, 'makeXRCompatible', { value: () => Promise.resolve(), writable: true, configurable: true });
  }
}
