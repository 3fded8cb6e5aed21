/**
 * What validators of XR tasks read beyond bodies: the app's tagged objects (from TagDeclared/TagPoses
 * records), its events (AppEvent, AppError), input events, actor failures and its sounds (AudioStart,
 * AudioUpdate, AudioStop: the named events `audio:start`, `audio:update`, `audio:stop`, and the voices
 * playing), decoded once per frame for all of a session's validators. Works the same live and on a
 * replayed stream.
 */
import { EventType, INPUT_EVENT_KINDS, INPUT_EVENT_PAYLOAD as IE, TAG_POSE_RECORD as TR, TAG_POSES_PAYLOAD, UNREACHABLE_PAYLOAD } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import { readJsonPayload } from '../frame/json-record.js';
import { readAudioRecord, type AudioPosition, type AudioStartRecord, type AudioStopRecord, type AudioUpdateRecord } from '../frame/audio-events.js';
import type { Quat, Vec3 } from '../geometry/types.js';
import { TagTriggers } from './tag-triggers.js';

/** A tag's state in the current frame. */
export interface TagState {
  readonly role: string;
  present: boolean;
  position: Vec3;
  rotation: Quat;
  /** Whether the app gave a rotation (a tag with only a position has the identity). */
  id: string;
  /** Its declared size (x, y, z, metres), or null when the app gave none. The same array until it is re-declared. */
  size: Vec3 | null;
  /** The declared height of its smallest text (metres), or null. */
  text: number | null;
  /** The declared name of its visual state (`pressed`, ...), or null. */
  look: string | null;
}

/** A declared tag: its role, id and extent. */
interface Declaration {
  role: string;
  id: string;
  size: Vec3 | null;
  text: number | null;
  look: string | null;
  state: TagState | null;
}

/** An event of the current frame that validators can count or order. */
export interface NamedEvent {
  /**
   * `app:<name>` for app events, `input:<selectstart|...>:<left|right>`, `app-error`, `actor-failure`,
   * `audio:start` (data: `AudioStartRecord`), `audio:update` (`AudioUpdateRecord`), `audio:stop` (`{ voice, sound }`),
   * `target-unreachable` (data: {@link UnreachableData}), `tag:<role>:appears|disappears|starts-moving|stops-moving`
   * (`tag-triggers.ts`), or a kernel event name.
   */
  name: string;
  data?: unknown;
}

/** A `target-unreachable` event's data: the part (0/1 the left/right hand, 2/3 a controller), how far its target was from the shoulder and the reach (metres). */
export interface UnreachableData {
  part: number;
  distance: number;
  reach: number;
}

/** A voice playing at the end of the current frame: its sound, world position (null: not spatialised), gain. */
export interface VoiceState {
  sound: string;
  position: AudioPosition;
  gain: number;
  loop: boolean;
  /** The tick it started in. */
  startTick: number;
}


/** Decoded per-frame state shared by a session's validators. */
export class FrameState {
  /** Declared tags by number, each with its role's state once a pose was read (one lookup per pose). */
  private readonly roles = new Map<number, Declaration>();
  readonly tags = new Map<string, TagState>();
  /** The states in {@link tags}, in the order first seen: for loops over every tag each frame, with no iterator. */
  readonly tagList: TagState[] = [];
  /** This frame's events (cleared every frame). */
  readonly events: NamedEvent[] = [];
  /** The voices playing at the end of this frame, by voice number (a stopped one is removed). */
  readonly voices = new Map<number, VoiceState>();
  /** Tag state changes (appears, starts moving, ...) as this frame's events (`tag-triggers.ts`). */
  private readonly triggers = new TagTriggers();

  /** Decodes `frame`'s records. Call once per frame before the validators observe it. */
  observe(frame: FrameView): void {
    // Both checks cost less than what they skip: emptying an empty array and reading `.buffer` are calls into V8.
    if (this.events.length !== 0) this.events.length = 0;
    for (let k = 0; k < this.tagList.length; k++) this.tagList[k].present = false;
    const e = frame.events;
    if (this.words !== e) {
      this.words = e; // a frame's event words are replaced only when they grow
      this.floats = new Float32Array(e.buffer, e.byteOffset, e.length);
    }
    for (let i = 0; i < frame.eventWords; i += 1 + (e[i] & 0xffff)) {
      const type = e[i] >>> 16;
      const length = e[i] & 0xffff;
      if (type < EventType.AppError) {
        // Physics, tracking and sensing are not needed here, but for a hand that could not reach its target.
        if (type === EventType.TargetUnreachable) this.events.push({ name: 'target-unreachable', data: this.unreachable(e, i + 1) });
        continue;
      }
      // Tag poses come every frame: read them in place. The rest are rare.
      if (type === EventType.TagPoses) {
        this.readPoses(e, this.floats, i + 1);
        continue;
      }
      const payload = Array.from(e.subarray(i + 1, i + 1 + length));
      switch (type) {
        case EventType.TagDeclared: {
          const { role, id, size, text, look } = readJsonPayload<{ role: string; id: string; size?: Vec3; text?: number; look?: string }>(payload, 1);
          this.roles.set(payload[0], { role, id, size: size ?? null, text: text ?? null, look: look ?? null, state: null });
          break;
        }
        case EventType.AppEvent: {
          const { name, data } = readJsonPayload<{ name: string; data?: unknown }>(payload, 0);
          this.events.push({ name: `app:${name}`, data });
          break;
        }
        case EventType.AppError:
          this.events.push({ name: 'app-error', data: readJsonPayload(payload, 0) });
          break;
        case EventType.ActorFailure:
          this.events.push({ name: 'actor-failure', data: readJsonPayload(payload, 0) });
          break;
        case EventType.AgentDecision:
          this.events.push({ name: 'agent-decision', data: readJsonPayload(payload, 0) });
          break;
        case EventType.InputEvent:
          this.events.push({ name: `input:${INPUT_EVENT_KINDS[payload[IE.kind]]}:${payload[IE.source] === 0 ? 'left' : 'right'}` });
          break;
        case EventType.AudioStart: {
          const start = readAudioRecord<AudioStartRecord>(payload);
          this.voices.set(start.voice, { sound: start.sound, position: start.position, gain: start.gain, loop: start.loop, startTick: frame.tick });
          this.events.push({ name: 'audio:start', data: start });
          break;
        }
        case EventType.AudioUpdate: {
          const update = readAudioRecord<AudioUpdateRecord>(payload);
          const voice = this.voices.get(update.voice);
          if (voice && update.position !== undefined) voice.position = update.position;
          if (voice && update.gain !== undefined) voice.gain = update.gain;
          this.events.push({ name: 'audio:update', data: update });
          break;
        }
        case EventType.AudioStop: {
          const { voice } = readAudioRecord<AudioStopRecord>(payload);
          this.events.push({ name: 'audio:stop', data: { voice, sound: this.voices.get(voice)?.sound ?? null } });
          this.voices.delete(voice);
          break;
        }
      }
    }
    this.triggers.update(this.tagList, frame.time, this.events);
  }

  /** A TargetUnreachable payload at word `o`. */
  private unreachable(e: Uint32Array, o: number): UnreachableData {
    return { part: e[o + UNREACHABLE_PAYLOAD.part], distance: this.floats[o + UNREACHABLE_PAYLOAD.distance], reach: this.floats[o + UNREACHABLE_PAYLOAD.reach] };
  }

  /** The event words last decoded, and the same memory as floats. */
  private words: Uint32Array | null = null;
  private floats: Float32Array = new Float32Array(0);

  /** Reads a TagPoses payload starting at word `o0` of the event words `w` (and their float view `f`). */
  private readPoses(w: Uint32Array, f: Float32Array, o0: number): void {
    const count = w[o0 + TAG_POSES_PAYLOAD.count];
    for (let k = 0, o = o0 + TAG_POSES_PAYLOAD.records; k < count; k++, o += TR.words) {
      const declared = this.roles.get(w[o + TR.tag]);
      if (!declared) continue;
      const tag = (declared.state ??= this.stateOf(declared.role, declared.id));
      tag.id = declared.id;
      tag.size = declared.size;
      tag.text = declared.text;
      tag.look = declared.look;
      tag.present = w[o + TR.present] === 1;
      const p = tag.position;
      const q = tag.rotation;
      const pose = o + TR.pose;
      p[0] = f[pose];
      p[1] = f[pose + 1];
      p[2] = f[pose + 2];
      q[0] = f[pose + 3];
      q[1] = f[pose + 4];
      q[2] = f[pose + 5];
      q[3] = f[pose + 6];
    }
  }

  /** The state of the tags with `role`, created (absent, at the origin) the first time. */
  private stateOf(role: string, id: string): TagState {
    let tag = this.tags.get(role);
    if (!tag) {
      tag = { role, present: false, position: [0, 0, 0], rotation: [0, 0, 0, 1], id, size: null, text: null, look: null };
      this.tags.set(role, tag);
      this.tagList.push(tag);
    }
    return tag;
  }
}
