/**
 * Point-of-view images on the GPU path, with headless-gl (the optional `gl` package: WebGL 1 in Node, on
 * Mesa's software rasterizer here). Two passes over the same triangles: flat colours, then linear z-depth
 * packed into RGB as millimetres.
 *
 * headless-gl needs an X display (run under `xvfb-run -a`) and loads in only one thread per process, so
 * the CLI renders in its own process; never load this module from a worker pool.
 */
import { createRequire } from 'node:module';
import type { RasterCamera } from '../../kernels/depth-raster.js';
import type { Mesh } from './mesh.js';

/** A rendered view: RGB bytes and z-depth in metres (Infinity where nothing was drawn), rows from the top. */
export interface RenderedView {
  width: number;
  height: number;
  rgb: Uint8Array;
  depth: Float32Array;
}

/** Why the GPU renderer is unavailable, with what to do about it. */
export class GlUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlUnavailableError';
  }
}

/** How to install the optional renderer, for error messages. */
export const GL_INSTALL_HELP = [
  'headless-gl (the optional "gl" package) renders point-of-view images. To install it:',
  '  sudo apt-get install -y libxi-dev libx11-dev libxext-dev libgl1-mesa-dev pkg-config xvfb',
  '  npm install gl   # builds from source, about 4 minutes',
  'then run under a virtual display: xvfb-run -a npx xrsim render ...',
  'Or render on the CPU instead: --renderer cpu (same images from the depth kernel).',
].join('\n');

/** Handles are opaque objects. */
type Handle = object;
/** The part of WebGL 1 used here (the project compiles without the DOM library). */
interface GL {
  readonly VERTEX_SHADER: number;
  readonly FRAGMENT_SHADER: number;
  readonly COMPILE_STATUS: number;
  readonly LINK_STATUS: number;
  readonly ARRAY_BUFFER: number;
  readonly STATIC_DRAW: number;
  readonly FLOAT: number;
  readonly DEPTH_TEST: number;
  readonly CULL_FACE: number;
  readonly COLOR_BUFFER_BIT: number;
  readonly DEPTH_BUFFER_BIT: number;
  readonly TRIANGLES: number;
  readonly RGBA: number;
  readonly UNSIGNED_BYTE: number;
  createShader(type: number): Handle | null;
  shaderSource(shader: Handle, source: string): void;
  compileShader(shader: Handle): void;
  getShaderParameter(shader: Handle, name: number): unknown;
  getShaderInfoLog(shader: Handle): string | null;
  createProgram(): Handle | null;
  attachShader(program: Handle, shader: Handle): void;
  linkProgram(program: Handle): void;
  getProgramParameter(program: Handle, name: number): unknown;
  getProgramInfoLog(program: Handle): string | null;
  useProgram(program: Handle): void;
  getUniformLocation(program: Handle, name: string): Handle | null;
  getAttribLocation(program: Handle, name: string): number;
  uniformMatrix4fv(location: Handle | null, transpose: boolean, value: Float32Array): void;
  uniform4f(location: Handle | null, x: number, y: number, z: number, w: number): void;
  uniform1i(location: Handle | null, x: number): void;
  createBuffer(): Handle | null;
  bindBuffer(target: number, buffer: Handle): void;
  bufferData(target: number, data: Float32Array, usage: number): void;
  deleteBuffer(buffer: Handle): void;
  enableVertexAttribArray(index: number): void;
  vertexAttribPointer(index: number, size: number, type: number, normalized: boolean, stride: number, offset: number): void;
  viewport(x: number, y: number, width: number, height: number): void;
  enable(cap: number): void;
  disable(cap: number): void;
  clearColor(r: number, g: number, b: number, a: number): void;
  clear(mask: number): void;
  drawArrays(mode: number, first: number, count: number): void;
  readPixels(x: number, y: number, width: number, height: number, format: number, type: number, pixels: Uint8Array): void;
  getExtension(name: 'STACKGL_destroy_context'): { destroy(): void } | null;
}

const VERTEX = `
attribute vec3 position;
attribute vec3 colour;
uniform mat4 view;
uniform vec4 projection; // x scale, y scale, A, B
varying vec3 vColour;
varying float vDepth;
void main() {
  vec4 p = view * vec4(position, 1.0);
  vColour = colour;
  vDepth = -p.z;
  gl_Position = vec4(p.x * projection.x, p.y * projection.y, p.z * projection.z + projection.w, -p.z);
}`;

const FRAGMENT = `
precision highp float;
uniform int pass; // 0 colour, 1 depth
varying vec3 vColour;
varying float vDepth;
void main() {
  if (pass == 0) {
    gl_FragColor = vec4(vColour, 1.0);
  } else {
    float mm = floor(vDepth * 1000.0 + 0.5);
    float high = floor(mm / 65536.0);
    float mid = floor((mm - high * 65536.0) / 256.0);
    float low = mm - high * 65536.0 - mid * 256.0;
    gl_FragColor = vec4(high / 255.0, mid / 255.0, low / 255.0, 1.0);
  }
}`;

/** The module to load: `gl`, unless XRSIM_GL_MODULE names another (tests use it to simulate its absence). */
export function glModuleName(): string {
  return process.env.XRSIM_GL_MODULE || 'gl';
}

/** Loads `gl` or explains why it cannot. */
function loadGl(): (width: number, height: number, options: object) => GL | null {
  const require = createRequire(import.meta.url);
  try {
    return require(glModuleName()) as (width: number, height: number, options: object) => GL | null;
  } catch (err) {
    throw new GlUnavailableError(`the "gl" package is not installed or did not build (${(err as Error).message.split('\n')[0]})\n${GL_INSTALL_HELP}`);
  }
}

/** A headless-gl context of one size. */
export class GlRenderer {
  private readonly gl: GL;
  private readonly program: Handle;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const create = loadGl();
    const gl = create(width, height, { antialias: false, preserveDrawingBuffer: true });
    if (!gl) throw new GlUnavailableError(`headless-gl could not create a context: no X display? Run under xvfb-run -a.\n${GL_INSTALL_HELP}`);
    this.gl = gl;
    this.program = link(gl);
  }

  /** Renders `mesh` from `camera` (its size must match the renderer's). `colour: false` skips the colour pass. */
  render(mesh: Mesh, camera: RasterCamera, options: { colour?: boolean } = {}): RenderedView {
    const gl = this.gl;
    const { width, height } = this;
    if (camera.width !== width || camera.height !== height) throw new RangeError('camera and renderer sizes differ');
    gl.viewport(0, 0, width, height);
    gl.useProgram(this.program);
    const buffers = [this.attribute('position', mesh.positions), this.attribute('colour', mesh.colours)];
    const R = camera.rotation;
    const C = camera.position;
    const t = [0, 1, 2].map((r) => -(R[r * 3] * C[0] + R[r * 3 + 1] * C[1] + R[r * 3 + 2] * C[2]));
    // Column-major world→camera matrix.
    const view = new Float32Array([R[0], R[3], R[6], 0, R[1], R[4], R[7], 0, R[2], R[5], R[8], 0, t[0], t[1], t[2], 1]);
    const { near, far } = camera;
    gl.uniformMatrix4fv(gl.getUniformLocation(this.program, 'view'), false, view);
    gl.uniform4f(gl.getUniformLocation(this.program, 'projection'), (2 * camera.fx) / width, (2 * camera.fy) / height, (far + near) / (near - far), (2 * far * near) / (near - far));
    gl.enable(gl.DEPTH_TEST);
    gl.disable(gl.CULL_FACE);
    const passLocation = gl.getUniformLocation(this.program, 'pass');
    const read = (pass: number, clear: [number, number, number]) => {
      gl.uniform1i(passLocation, pass);
      gl.clearColor(clear[0], clear[1], clear[2], 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      gl.drawArrays(gl.TRIANGLES, 0, mesh.vertices);
      const pixels = new Uint8Array(width * height * 4);
      gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      return pixels;
    };
    const colour = options.colour === false ? new Uint8Array(width * height * 4) : read(0, [0, 0, 0]);
    const packed = read(1, [1, 1, 1]);
    for (const b of buffers) gl.deleteBuffer(b);
    const rgb = new Uint8Array(width * height * 3);
    const depth = new Float32Array(width * height);
    for (let row = 0; row < height; row++) {
      // GL rows start at the bottom.
      const source = (height - 1 - row) * width;
      for (let col = 0; col < width; col++) {
        const s = (source + col) * 4;
        const d = row * width + col;
        rgb.set(colour.subarray(s, s + 3), d * 3);
        const isClear = packed[s] === 255 && packed[s + 1] === 255 && packed[s + 2] === 255;
        depth[d] = isClear ? Infinity : (packed[s] * 65536 + packed[s + 1] * 256 + packed[s + 2]) / 1000;
      }
    }
    return { width, height, rgb, depth };
  }

  /** Releases the context. */
  dispose(): void {
    this.gl.getExtension('STACKGL_destroy_context')?.destroy();
  }

  private attribute(name: string, data: Float32Array): Handle {
    const gl = this.gl;
    const buffer = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    const location = gl.getAttribLocation(this.program, name);
    gl.enableVertexAttribArray(location);
    gl.vertexAttribPointer(location, 3, gl.FLOAT, false, 0, 0);
    return buffer;
  }
}

function link(gl: GL): Handle {
  const compile = (type: number, source: string) => {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(shader)}`);
    return shader;
  };
  const program = gl.createProgram()!;
  gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`shader program: ${gl.getProgramInfoLog(program)}`);
  return program;
}
