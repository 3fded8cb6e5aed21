/**
 * Reading back what the page drew into its XR layer this tick (for videos of browser apps: what the user
 * saw). Called by the bridge right after the tick's animation frame, only on ticks the host asks for
 * (`TickInput.c`). It reads the base layer's framebuffer with `readPixels` and restores every binding it
 * touched, so three.js's cached GL state stays true and the page cannot tell it happened.
 */
import type { LayerImage } from '../protocol.js';
import type { XRWebGLLayer } from './layer.js';

type GL = WebGLRenderingContext | WebGL2RenderingContext;

/** Reused between captures: one layer's RGBA bytes. */
let rgba: Uint8Array | null = null;

/** The layer's pixels as RGB rows from the top, base64; null when there is no layer or reading fails. */
export function captureLayer(layer: XRWebGLLayer | null | undefined): LayerImage | null {
  if (!layer) return null;
  const gl: GL = layer.context;
  if (gl.isContextLost()) return null;
  const width = layer.framebufferWidth;
  const height = layer.framebufferHeight;
  if (!rgba || rgba.length !== width * height * 4) rgba = new Uint8Array(width * height * 4);
  const webgl2 = typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext;
  const g2 = gl as WebGL2RenderingContext;
  const readBinding = gl.getParameter(webgl2 ? g2.READ_FRAMEBUFFER_BINDING : gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
  const packBuffer = webgl2 ? (gl.getParameter(g2.PIXEL_PACK_BUFFER_BINDING) as WebGLBuffer | null) : null;
  const packAlignment = gl.getParameter(gl.PACK_ALIGNMENT) as number;
  try {
    gl.bindFramebuffer(webgl2 ? g2.READ_FRAMEBUFFER : gl.FRAMEBUFFER, layer.framebuffer);
    if (packBuffer) g2.bindBuffer(g2.PIXEL_PACK_BUFFER, null);
    if (packAlignment !== 4) gl.pixelStorei(gl.PACK_ALIGNMENT, 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
  } finally {
    gl.bindFramebuffer(webgl2 ? g2.READ_FRAMEBUFFER : gl.FRAMEBUFFER, readBinding);
    if (packBuffer) g2.bindBuffer(g2.PIXEL_PACK_BUFFER, packBuffer);
    if (packAlignment !== 4) gl.pixelStorei(gl.PACK_ALIGNMENT, packAlignment);
  }
  return { width, height, rgb: rgbFromTop(rgba, width, height) };
}

/** GL's rows run from the bottom: RGB rows from the top, base64 (alpha dropped: the video has none). */
function rgbFromTop(pixels: Uint8Array, width: number, height: number): string {
  const row = width * 3;
  const rgb = new Uint8Array(row * height);
  for (let y = 0; y < height; y++) {
    let src = (height - 1 - y) * width * 4;
    let dst = y * row;
    for (let x = 0; x < width; x++, src += 4, dst += 3) {
      rgb[dst] = pixels[src];
      rgb[dst + 1] = pixels[src + 1];
      rgb[dst + 2] = pixels[src + 2];
    }
  }
  // btoa takes a binary string: built in slices (one call per byte would be slow, one call for all overflows the stack).
  let binary = '';
  for (let i = 0; i < rgb.length; i += 0x8000) binary += String.fromCharCode.apply(null, rgb.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(binary);
}
