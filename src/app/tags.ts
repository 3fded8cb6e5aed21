/**
 * Semantic tags: the app names its objects by role (`start-button`, `menu`, `ball`), so tests find
 * equivalent objects in different implementations. Each tick, after the app's frame, every tag's pose is
 * evaluated and recorded (TagPoses); a new role or a re-tagged one is declared first (TagDeclared).
 * Actors resolve tags from the latest evaluation; validators read them from the frames.
 */
import { EventType } from '../frame/events.js';
import type { Frame } from '../frame/frame.js';
import { writeJsonRecord } from '../frame/json-record.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import type { TagExtent } from './types.js';

/** What an app's `poseOf` may return. */
export type TagPoseSource = () => Vec3 | { position: Vec3; rotation?: Quat } | null;

interface TagEntry {
  index: number;
  role: string;
  id: string;
  poseOf: TagPoseSource;
  declared: boolean;
  position: Vec3 | null;
  rotation: Quat | null;
  /** The declared extent, as recorded: `size` [x, y, z], `text` and `look`, each only when given. */
  extent: { size?: Vec3; text?: number; look?: string } | null;
}

/**
 * The most tags an app may hold at once. Every tick records all their poses in one record (9 words a
 * tag), and a record holds at most 65,535 words.
 */
export const MAX_TAGS = 4096;

/** The most characters of a tag's role and of its id. */
export const MAX_TAG_NAME_CHARS = 256;

/** What an absent tag or rotation is recorded as. */
const NO_POSITION: readonly number[] = [0, 0, 0];
const NO_ROTATION: readonly number[] = [0, 0, 0, 1];

/** The tags of one app. */
export class TagRegistry {
  private readonly byRole = new Map<string, TagEntry>();
  private nextIndex = 0;

  /**
   * Declares (or re-declares) a role. Throws (into the app, so it becomes an app error) past the limits or
   * for an extent that is not one.
   */
  tag(role: string, id: string, poseOf: TagPoseSource, extent?: TagExtent): void {
    if (typeof role !== 'string' || role === '' || typeof poseOf !== 'function') throw new TypeError('ctx.tag(role, id, poseOf): role must be a non-empty string and poseOf a function');
    const checked = checkExtent(extent);
    const name = String(id);
    if (role.length > MAX_TAG_NAME_CHARS || name.length > MAX_TAG_NAME_CHARS) throw new RangeError(`ctx.tag(role, id, poseOf): role and id may have at most ${MAX_TAG_NAME_CHARS} characters`);
    if (!this.byRole.has(role) && this.byRole.size >= MAX_TAGS) {
      throw new RangeError(`ctx.tag: an app may hold at most ${MAX_TAGS} tags at once; untag some before tagging more`);
    }
    this.byRole.set(role, { index: this.nextIndex++, role, id: name, poseOf, declared: false, position: null, rotation: null, extent: checked });
  }

  untag(role: string): void {
    this.byRole.delete(role);
  }

  /** Where the tagged object was at the last evaluation, or null. */
  pose(role: string): { position: Vec3; rotation: Quat | null; id: string } | null {
    const entry = this.byRole.get(role);
    return entry?.position ? { position: entry.position, rotation: entry.rotation, id: entry.id } : null;
  }

  /** Roles currently tagged. */
  roles(): string[] {
    return [...this.byRole.keys()];
  }

  /**
   * Evaluates every tag and records declarations and poses in `frame`. `onError` receives a poseOf that
   * threw (an app bug: recorded as an app error, the tag is absent this tick).
   */
  publish(frame: Frame, onError: (err: unknown, role: string) => void): void {
    if (this.byRole.size === 0) return;
    for (const entry of this.byRole.values()) {
      if (!entry.declared) {
        // The extent only when given: a tag without one records what it always did.
        writeJsonRecord(frame, EventType.TagDeclared, [entry.index], entry.extent ? { role: entry.role, id: entry.id, ...entry.extent } : { role: entry.role, id: entry.id });
        entry.declared = true;
      }
      try {
        const value = entry.poseOf();
        if (value === null || value === undefined) {
          entry.position = null;
          entry.rotation = null;
        } else if (Array.isArray(value)) {
          entry.position = [Number(value[0]), Number(value[1]), Number(value[2])];
          entry.rotation = null;
        } else {
          entry.position = [Number(value.position[0]), Number(value.position[1]), Number(value.position[2])];
          entry.rotation = value.rotation ? [...value.rotation] : null;
        }
        // Recorded as float32: a finite double past 3.4e38 would still become infinite there.
        if (entry.position && !entry.position.every(isFiniteFloat32)) throw new TypeError(`tag "${entry.role}": poseOf returned a non-finite position`);
        // A rotation is recorded as given (a degenerate one is NaN, and `presses` cannot press it), but it must be 4 numbers.
        if (entry.rotation && entry.rotation.length !== 4) throw new TypeError(`tag "${entry.role}": poseOf returned a rotation that is not 4 numbers`);
      } catch (err) {
        entry.position = null;
        entry.rotation = null;
        onError(err, entry.role);
      }
    }
    frame.beginRecord(EventType.TagPoses);
    frame.word(this.byRole.size);
    for (const entry of this.byRole.values()) {
      frame.word(entry.index);
      frame.word(entry.position ? 1 : 0);
      const p = entry.position ?? NO_POSITION;
      const q = entry.rotation ?? NO_ROTATION;
      for (let k = 0; k < 3; k++) frame.float(p[k]);
      for (let k = 0; k < 4; k++) frame.float(q[k]);
    }
    frame.endRecord();
  }
}

/** A tag's extent as recorded, or null without one. Throws a TypeError naming what is wrong. */
function checkExtent(extent: TagExtent | undefined): TagEntry['extent'] {
  if (extent === undefined) return null;
  const usage = 'ctx.tag(role, id, poseOf, extent): extent must be { size?: metres or [x, y, z], text?: metres, look?: a name }';
  if (extent === null || typeof extent !== 'object' || Array.isArray(extent)) throw new TypeError(`${usage}, got ${describe(extent)}`);
  const unknown = Object.keys(extent).filter((key) => key !== 'size' && key !== 'text' && key !== 'look');
  if (unknown.length) throw new TypeError(`${usage}; unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`);
  const positive = (v: unknown) => typeof v === 'number' && v > 0 && isFiniteFloat32(v);
  const out: { size?: Vec3; text?: number; look?: string } = {};
  if (extent.size !== undefined) {
    const size = extent.size;
    if (positive(size)) out.size = [size as number, size as number, size as number];
    else if (Array.isArray(size) && size.length === 3 && size.every(positive)) out.size = [size[0], size[1], size[2]];
    else throw new TypeError(`${usage}: size must be a positive number or three positive numbers, got ${describe(size)}`);
  }
  if (extent.text !== undefined) {
    if (!positive(extent.text)) throw new TypeError(`${usage}: text must be a positive number, got ${describe(extent.text)}`);
    out.text = extent.text;
  }
  if (extent.look !== undefined) {
    if (typeof extent.look !== 'string' || extent.look.length > MAX_TAG_NAME_CHARS) throw new TypeError(`${usage}: look must be a string of at most ${MAX_TAG_NAME_CHARS} characters, got ${describe(extent.look)}`);
    out.look = extent.look;
  }
  return Object.keys(out).length ? out : null;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isFiniteFloat32(v: number): boolean {
  return Number.isFinite(Math.fround(v));
}
