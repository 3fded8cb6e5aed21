/**
 * `window.xrsim`: what the page publishes to the host. Tags (`xrsim.tag(role, object3D | () => pose)` and
 * three.js objects with `userData.xrsimTag`, found through three's devtools hook), app events
 * (`xrsim.emit(name, data)`) and app errors (uncaught exceptions, unhandled rejections, console.error).
 * Tag poses are reported in world coordinates: scene coordinates are taken to be in the first reference
 * space the page requested (three.js's), as three.js renders them.
 */
import type { PageError, TagExtentRecord } from '../protocol.js';
import { checkPageExtent, extentOf, type MeshLike, type PageExtent } from './extent.js';
import { composePose, matrixPose, normalizeQuat, type Pose } from './math.js';

type PoseSource = () => unknown;

/** Duck type of a three.js Object3D: enough to find its world pose and whether it is in a scene. */
interface Object3DLike {
  isObject3D: true;
  parent: Object3DLike | null;
  visible: boolean;
  isScene?: boolean;
  matrixWorld: { elements: ArrayLike<number> };
  updateWorldMatrix(parents: boolean, children: boolean): void;
  userData: Record<string, unknown>;
  children: Object3DLike[];
  name?: string;
  /** A three.js `Audio`'s current source node. */
  source?: unknown;
}

export class AppState {
  private readonly explicit = new Map<string, PoseSource | Object3DLike>();
  /** Extents the page gave with `xrsim.tag`, by role. */
  private readonly givenExtents = new Map<string, PageExtent>();
  /** The extent last sent for each role (as JSON), and the changes found by the last {@link collectTags}. */
  private readonly sentExtents = new Map<string, string>();
  private changedExtents: TagExtentRecord[] = [];
  /** Roles ever published by discovery: they stay declared (pose null) once their object is gone. */
  private readonly discoveredRoles = new Set<string>();
  private readonly scenes = new Set<Object3DLike>();
  events: [string, unknown][] = [];
  errors: PageError[] = [];

  constructor(
    /** The world pose of the page's scene origin now (the first reference space it requested). */
    private readonly sceneOrigin: () => Pose | null,
    private readonly origin: string,
  ) {}

  /** The page-facing API, frozen. */
  api() {
    return Object.freeze({
      tag: (role: string, target: PoseSource | Object3DLike, extent?: PageExtent) => {
        if (typeof role !== 'string' || role === '') throw new TypeError('xrsim.tag(role, target): role must be a non-empty string');
        if (typeof target !== 'function' && !isObject3D(target)) throw new TypeError('xrsim.tag(role, target): target must be a three.js Object3D or a function returning a pose');
        const given = checkPageExtent(extent);
        this.explicit.set(role, target);
        if (given) this.givenExtents.set(role, given);
        else this.givenExtents.delete(role);
      },
      untag: (role: string) => {
        this.explicit.delete(role);
        this.givenExtents.delete(role);
      },
      emit: (name: string, data?: unknown) => {
        if (typeof name !== 'string' || name === '') throw new TypeError('xrsim.emit(name, data): name must be a non-empty string');
        // A snapshot, as the host records it: JSON values only.
        this.events.push([name, data === undefined ? null : JSON.parse(JSON.stringify(data))]);
      },
    });
  }

  /** Listens for three.js scenes (three announces each one to `__THREE_DEVTOOLS__`). */
  watchThree(win: Window & typeof globalThis): void {
    const hook = new EventTarget();
    hook.addEventListener('observe', (event) => {
      const detail = (event as CustomEvent).detail as Object3DLike | undefined;
      if (detail && detail.isScene) this.scenes.add(detail);
    });
    Object.defineProperty(win, '__THREE_DEVTOOLS__', { value: hook, configurable: true, writable: false });
  }

  /** Records a page error. Stacks lose the server's origin, so they do not depend on the port. */
  recordError(kind: PageError['kind'], error: unknown): void {
    const e = error instanceof Error ? error : null;
    const message = e ? `${e.name}: ${e.message}` : typeof error === 'string' ? error : safeString(error);
    const stack = (e?.stack ?? '').split(this.origin).join('').split('\n').slice(0, 5).join('\n');
    this.errors.push({ kind, message: message.split(this.origin).join(''), stack });
  }

  /**
   * The name of the three.js `Audio` or `PositionalAudio` in a scene whose current source is `source` (three
   * keeps it as `audio.source`), when it has one: `sound.name = 'chime'` names the sound. Else null.
   */
  soundName(source: object): string | null {
    let name: string | null = null;
    for (const scene of this.scenes) {
      traverse(scene, (object) => {
        if (name === null && object.source === source && typeof object.name === 'string' && object.name !== '') name = object.name;
      });
      if (name !== null) return name;
    }
    return null;
  }

  /**
   * Every tag's pose now, sorted by role. Also finds the tags whose extent changed since it was last sent
   * (an object's is measured only while it is shown): {@link takeExtents} returns them.
   */
  collectTags(): [string, number[] | null][] {
    const origin = this.sceneOrigin();
    const out = new Map<string, number[] | null>();
    for (const scene of this.scenes) {
      traverse(scene, (object) => {
        const role = object.userData?.xrsimTag;
        if (typeof role === 'string' && role !== '' && !out.has(role)) {
          this.discoveredRoles.add(role);
          const pose = objectPose(object);
          out.set(role, pose);
          if (pose) this.noteExtent(role, object);
        }
      });
    }
    for (const role of this.discoveredRoles) if (!out.has(role)) out.set(role, null);
    for (const [role, target] of this.explicit) {
      try {
        const value = isObject3D(target) ? target : target();
        const pose = isObject3D(value) ? objectPose(value) : valuePose(value);
        out.set(role, pose);
        if (pose) this.noteExtent(role, isObject3D(value) ? value : null);
      } catch (error) {
        this.recordError('exception', error);
        out.set(role, null);
      }
    }
    return [...out.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([role, pose]) => [role, pose && origin ? composePose(origin, pose) : pose]);
  }

  /** The extents that changed in the last {@link collectTags}, once. */
  takeExtents(): TagExtentRecord[] {
    const changed = this.changedExtents;
    this.changedExtents = [];
    return changed;
  }

  /** Measures a shown tag's extent and keeps it when it changed since it was last sent. */
  private noteExtent(role: string, object: Object3DLike | null): void {
    if (object) object.updateWorldMatrix(true, true);
    const [size, text, look] = extentOf(object as unknown as MeshLike | null, this.givenExtents.get(role));
    const key = JSON.stringify([size, text, look]);
    if (this.sentExtents.get(role) === key) return;
    this.sentExtents.set(role, key);
    this.changedExtents.push([role, size, text, look]);
  }
}

function isObject3D(value: unknown): value is Object3DLike {
  return typeof value === 'object' && value !== null && (value as Object3DLike).isObject3D === true;
}

function traverse(object: Object3DLike, visit: (o: Object3DLike) => void): void {
  visit(object);
  for (const child of object.children ?? []) traverse(child, visit);
}

/** An object's pose in scene coordinates, or null when it is not in a scene or not visible. */
function objectPose(object: Object3DLike): Pose | null {
  let root: Object3DLike = object;
  for (let o: Object3DLike | null = object; o; o = o.parent) {
    if (!o.visible) return null;
    root = o;
  }
  if (!root.isScene) return null;
  object.updateWorldMatrix(true, false);
  const e = object.matrixWorld.elements;
  // Remove scale from the rotation columns.
  const sx = Math.hypot(e[0], e[1], e[2]) || 1;
  const sy = Math.hypot(e[4], e[5], e[6]) || 1;
  const sz = Math.hypot(e[8], e[9], e[10]) || 1;
  return matrixPose([e[0] / sx, e[1] / sx, e[2] / sx, 0, e[4] / sy, e[5] / sy, e[6] / sy, 0, e[8] / sz, e[9] / sz, e[10] / sz, 0, e[12], e[13], e[14], 1]);
}

/** A pose from what a tag function returned: null, [x, y, z], {x, y, z}, {position, rotation?} or an Object3D. */
function valuePose(value: unknown): Pose | null {
  if (value === null || value === undefined) return null;
  if (isObject3D(value)) return objectPose(value);
  if (Array.isArray(value) && value.length === 3) return [...vec(value), 0, 0, 0, 1];
  const v = value as { x?: number; position?: unknown; rotation?: unknown; quaternion?: unknown };
  if (typeof v.x === 'number') return [...vec(value), 0, 0, 0, 1];
  if (v.position !== undefined) {
    const q = (v.rotation ?? v.quaternion) as ArrayLike<number> | { x: number; y: number; z: number; w: number } | undefined;
    const rotation = q === undefined ? [0, 0, 0, 1] : Array.isArray(q) || ArrayBuffer.isView(q) ? Array.from(q as ArrayLike<number>) : [(q as { x: number }).x, (q as { y: number }).y, (q as { z: number }).z, (q as { w: number }).w];
    return [...vec(v.position), ...normalizeQuat(rotation[0], rotation[1], rotation[2], rotation[3])];
  }
  throw new TypeError(`xrsim.tag: a pose function returned ${safeString(value)}; expected null, [x, y, z], {x, y, z} or {position, rotation}`);
}

function vec(value: unknown): [number, number, number] {
  const v = value as ArrayLike<number> & { x?: number; y?: number; z?: number };
  const out: [number, number, number] = typeof v.x === 'number' ? [v.x, v.y ?? 0, v.z ?? 0] : [v[0], v[1], v[2]];
  if (!out.every(Number.isFinite)) throw new TypeError(`xrsim.tag: a position must be three finite numbers, got ${safeString(value)}`);
  return out;
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
