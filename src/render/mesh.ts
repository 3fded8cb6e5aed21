/**
 * Triangles for a scene geometry store, for the GPU renderer: boxes and slabs exactly, curved primitives
 * tessellated finely enough (48 segments) that their surface is within a millimetre of the analytic one
 * at room scale. Vertices are in world coordinates, each with its object's flat colour.
 */
import { PrimitiveType, type SceneGeometry } from '../../kernels/scene-geometry.js';

/** Segments around curved primitives. */
const SEGMENTS = 48;
/** Rings per hemisphere of spheres and capsule caps. */
const RINGS = 16;

/** A triangle soup: 3 floats of position and 3 of colour (0–1) per vertex. */
export interface Mesh {
  positions: Float32Array;
  colours: Float32Array;
  vertices: number;
}

/**
 * Triangulates the enabled primitives whose kind bit is in `kinds`. `colourOf(i)` gives primitive i's RGB
 * colour (0–255).
 */
export function sceneMesh(g: SceneGeometry, kinds: number, colourOf: (primitive: number) => readonly number[]): Mesh {
  const positions: number[] = [];
  const colours: number[] = [];
  for (let i = 0; i < g.count; i++) {
    if (!g.enabled(i) || ((1 << g.kind(i)) & kinds) === 0) continue;
    const local = localTriangles(g, i);
    const c = colourOf(i);
    for (let v = 0; v < local.length; v += 3) {
      const x = local[v], y = local[v + 1], z = local[v + 2];
      // Local → world: the transpose of the stored world→local rotation, then the position.
      for (let k = 0; k < 3; k++) positions.push(g.rot(i, 0, k) * x + g.rot(i, 1, k) * y + g.rot(i, 2, k) * z + g.position[i * 3 + k]);
      colours.push(c[0] / 255, c[1] / 255, c[2] / 255);
    }
  }
  return { positions: new Float32Array(positions), colours: new Float32Array(colours), vertices: positions.length / 3 };
}

/** A primitive's triangles in its own frame, as a flat list of vertex coordinates. */
function localTriangles(g: SceneGeometry, i: number): number[] {
  const p = g.params;
  const k = i * 3;
  const out: number[] = [];
  const quad = (a: number[], b: number[], c: number[], d: number[]) => out.push(...a, ...b, ...c, ...a, ...c, ...d);
  switch (g.type(i)) {
    case PrimitiveType.Box: {
      const [hx, hy, hz] = [p[k], p[k + 1], p[k + 2]];
      const corner = (sx: number, sy: number, sz: number) => [sx * hx, sy * hy, sz * hz];
      for (const s of [-1, 1]) {
        quad(corner(s, -1, -1), corner(s, 1, -1), corner(s, 1, 1), corner(s, -1, 1));
        quad(corner(-1, s, -1), corner(1, s, -1), corner(1, s, 1), corner(-1, s, 1));
        quad(corner(-1, -1, s), corner(1, -1, s), corner(1, 1, s), corner(-1, 1, s));
      }
      return out;
    }
    case PrimitiveType.Prism: {
      const half = p[k];
      const start = g.polygonRange[i * 2];
      const n = g.polygonRange[i * 2 + 1];
      const point = (v: number, y: number) => [g.polygons[(start + (v % n)) * 2], y, g.polygons[(start + (v % n)) * 2 + 1]];
      for (let v = 1; v < n - 1; v++) for (const y of [-half, half]) out.push(...point(0, y), ...point(v, y), ...point(v + 1, y));
      for (let v = 0; v < n; v++) quad(point(v, -half), point(v + 1, -half), point(v + 1, half), point(v, half));
      return out;
    }
    case PrimitiveType.Sphere:
      return roundBody(p[k], 0, false);
    case PrimitiveType.Capsule:
      return roundBody(p[k], p[k + 1], false);
    default:
      return roundBody(p[k], p[k + 1], true);
  }
}

/**
 * A sphere (halfLength 0), a capsule (hemispheres at ±halfLength) or a cylinder (`flat`: caps are discs) of
 * radius r along Y.
 */
function roundBody(r: number, halfLength: number, flat: boolean): number[] {
  const out: number[] = [];
  const ring = (s: number) => [Math.cos((2 * Math.PI * s) / SEGMENTS), Math.sin((2 * Math.PI * s) / SEGMENTS)];
  // Profile from the top pole to the bottom pole: (radius, y) pairs.
  const profile: [number, number][] = [];
  if (flat) {
    profile.push([0, halfLength], [r, halfLength], [r, -halfLength], [0, -halfLength]);
  } else {
    for (let j = 0; j <= RINGS; j++) {
      const a = (Math.PI / 2) * (1 - j / RINGS);
      profile.push([r * Math.cos(a), halfLength + r * Math.sin(a)]);
    }
    for (let j = 0; j <= RINGS; j++) {
      const a = (-Math.PI / 2) * (j / RINGS);
      profile.push([r * Math.cos(a), -halfLength + r * Math.sin(a)]);
    }
  }
  for (let j = 0; j + 1 < profile.length; j++) {
    const [r0, y0] = profile[j];
    const [r1, y1] = profile[j + 1];
    for (let s = 0; s < SEGMENTS; s++) {
      const [c0, s0] = ring(s);
      const [c1, s1] = ring(s + 1);
      out.push(r0 * c0, y0, r0 * s0, r1 * c0, y1, r1 * s0, r1 * c1, y1, r1 * s1);
      out.push(r0 * c0, y0, r0 * s0, r1 * c1, y1, r1 * s1, r0 * c1, y0, r0 * s1);
    }
  }
  return out;
}
