/**
 * How large a tagged three.js object is, for the design heuristics: its geometry's bounding box in the
 * object's own frame (every mesh below it, at its world scale), as the in-process `ctx.tag(..., { size })`
 * declares it. A page may say it instead (`xrsim.tag(role, object, { size, text })`, or `userData.xrsimSize`
 * and `userData.xrsimText`, the height of the object's smallest text in metres). Rounded to the millimetre, so
 * that an object's extent is sent again only when it really changes. Its look is a fingerprint of what a user
 * sees change on a highlight or a press: its meshes' visibility, colours, emissive colours, opacity and
 * textures (a page's own name for it, `userData.xrsimLook` or `extent.look`, wins).
 */

/** Duck type of the three.js parts read here. */
export interface MeshLike {
  parent: MeshLike | null;
  children: MeshLike[];
  matrixWorld: { elements: ArrayLike<number> };
  userData?: Record<string, unknown>;
  visible?: boolean;
  material?: MaterialLike | MaterialLike[];
  geometry?: { boundingBox: { min: { x: number; y: number; z: number }; max: { x: number; y: number; z: number } } | null; computeBoundingBox?(): void };
}

interface MaterialLike {
  visible?: boolean;
  opacity?: number;
  color?: { getHex(): number };
  emissive?: { getHex(): number };
  map?: { uuid?: string } | null;
}

/** A page-given extent (`xrsim.tag`'s third argument). */
export interface PageExtent {
  size?: number | number[];
  text?: number;
  look?: string;
}

/** The extent as sent: size [x, y, z] or null, text height or null, look or null. */
export type Extent = [size: [number, number, number] | null, text: number | null, look: string | null];

/** Meshes a look reads at most (a large model's first ones). */
const LOOK_MESHES = 64;

/** The extent of `object` (world matrices already updated), or of what the page said. */
export function extentOf(object: MeshLike | null, given: PageExtent | undefined): Extent {
  const data = object?.userData ?? {};
  const sizeGiven = given?.size ?? (data.xrsimSize as PageExtent['size']);
  const textGiven = given?.text ?? (data.xrsimText as number | undefined);
  const size = sizeGiven !== undefined ? sizeOf(sizeGiven) : object ? measured(object) : null;
  const text = typeof textGiven === 'number' && textGiven > 0 && Number.isFinite(textGiven) ? mm(textGiven) : null;
  const lookGiven = given?.look ?? data.xrsimLook;
  const look = typeof lookGiven === 'string' ? lookGiven.slice(0, 256) : object ? lookOf(object) : null;
  return [size, text, look];
}

/** A fingerprint (FNV-1a, 32 bits, hex) of the visible state of an object's meshes. */
function lookOf(object: MeshLike): string {
  let hash = 0x811c9dc5;
  const mix = (value: number) => {
    hash = Math.imul(hash ^ (value | 0), 0x01000193);
    hash = Math.imul(hash ^ ((value / 4294967296) | 0), 0x01000193);
  };
  let meshes = 0;
  const visit = (o: MeshLike) => {
    if (meshes >= LOOK_MESHES) return;
    mix(o.visible === false ? 0 : 1);
    if (o.visible === false) return; // nothing below it shows
    const materials = o.material === undefined ? [] : Array.isArray(o.material) ? o.material : [o.material];
    if (materials.length) meshes++;
    for (const m of materials) {
      mix(m.visible === false ? 0 : 1);
      mix(Math.round((m.opacity ?? 1) * 100));
      mix(m.color ? m.color.getHex() : -1);
      mix(m.emissive ? m.emissive.getHex() : -1);
      const uuid = m.map?.uuid ?? '';
      for (let i = 0; i < uuid.length; i++) mix(uuid.charCodeAt(i));
    }
    for (const child of o.children ?? []) visit(child);
  };
  visit(object);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Checks a page-given extent, throwing a TypeError that names what was expected. */
export function checkPageExtent(extent: unknown): PageExtent | undefined {
  if (extent === undefined) return undefined;
  const e = extent as PageExtent;
  const ok = typeof e === 'object' && e !== null && (e.size === undefined || sizeOf(e.size) !== null) && (e.text === undefined || (typeof e.text === 'number' && e.text > 0 && Number.isFinite(e.text))) && (e.look === undefined || typeof e.look === 'string');
  if (!ok) throw new TypeError('xrsim.tag(role, target, extent): extent must be { size?: metres or [x, y, z], text?: metres, look?: a name }, sizes positive');
  return e;
}

function sizeOf(value: number | number[]): [number, number, number] | null {
  const v = typeof value === 'number' ? [value, value, value] : value;
  return Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && n > 0 && Number.isFinite(n)) ? [mm(v[0]), mm(v[1]), mm(v[2])] : null;
}

/** The bounding box of every geometry at and below `object`, in the object's frame (with its world scale). */
function measured(object: MeshLike): [number, number, number] | null {
  const o = object.matrixWorld.elements;
  // The object's world axes, unit length: a point's coordinates along them are its offsets in the object's frame.
  const axes = [0, 4, 8].map((c) => {
    const n = Math.hypot(o[c], o[c + 1], o[c + 2]) || 1;
    return [o[c] / n, o[c + 1] / n, o[c + 2] / n];
  });
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const visit = (mesh: MeshLike) => {
    const g = mesh.geometry;
    if (g) {
      if (!g.boundingBox) g.computeBoundingBox?.();
      const box = g.boundingBox;
      if (box && Number.isFinite(box.min.x)) {
        const m = mesh.matrixWorld.elements;
        for (let corner = 0; corner < 8; corner++) {
          const x = corner & 1 ? box.max.x : box.min.x;
          const y = corner & 2 ? box.max.y : box.min.y;
          const z = corner & 4 ? box.max.z : box.min.z;
          const wx = m[0] * x + m[4] * y + m[8] * z + m[12] - o[12];
          const wy = m[1] * x + m[5] * y + m[9] * z + m[13] - o[13];
          const wz = m[2] * x + m[6] * y + m[10] * z + m[14] - o[14];
          for (let a = 0; a < 3; a++) {
            const along = axes[a][0] * wx + axes[a][1] * wy + axes[a][2] * wz;
            if (along < lo[a]) lo[a] = along;
            if (along > hi[a]) hi[a] = along;
          }
        }
      }
    }
    for (const child of mesh.children ?? []) visit(child);
  };
  visit(object);
  if (!Number.isFinite(lo[0])) return null;
  const size = [0, 1, 2].map((a) => mm(hi[a] - lo[a]));
  // A flat quad has no depth: give it a millimetre, so that it is still a box.
  return size.some((v) => v > 0) ? [Math.max(size[0], 0.001), Math.max(size[1], 0.001), Math.max(size[2], 0.001)] : null;
}

function mm(v: number): number {
  return Math.round(v * 1000) / 1000;
}
