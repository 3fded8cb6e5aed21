/**
 * Every kind of event record as a plain JSON object with named fields, and a one-line text: what `jsonl`
 * and `mcap` exports write and what the viewer's timeline shows. Collider indices are named after the
 * object that owns them (`scene:table`, `task:ball`, `hand:right`).
 */
import { EventType, INPUT_EVENT_KINDS, INPUT_EVENT_PAYLOAD as IE, POSE_WORDS, TAG_POSE_RECORD as TR, TAG_POSES_PAYLOAD, UNREACHABLE_PARTS, UNREACHABLE_PAYLOAD as UR, type DecodedEvent } from '../frame/events.js';
import { readJsonPayload } from '../frame/json-record.js';
import type { SimModel } from '../model/types.js';
import { decodeSensingEvent } from '../sensing/events.js';

/** An event as JSON: its name and its fields. */
export type EventJson = { name: string } & Record<string, unknown>;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const asFloat = (word: number) => {
  u32[0] = word;
  return f32[0];
};
const side = (hand: number) => (hand === 0 ? 'left' : 'right');

/** Names of a model's colliders, by index: the owning object's qualified id. */
export function colliderNames(model: SimModel): string[] {
  return model.colliders.map((c) => {
    switch (c.owner.kind) {
      case 'static':
        return `${model.statics[c.owner.index].origin}:${model.statics[c.owner.index].id}`;
      case 'sensor':
        return `sensor:${model.sensors[c.owner.index].id}`;
      case 'body':
        return `${model.bodies[c.owner.index].origin}:${model.bodies[c.owner.index].id}`;
      default:
        return `hand:${side(model.handParts[c.owner.index].hand)}`;
    }
  });
}

/** One event as JSON. `colliders` names collider indices (see {@link colliderNames}). */
export function eventJson(event: DecodedEvent, colliders: readonly string[]): EventJson {
  const p = event.payload;
  const name = event.name;
  const collider = (i: number) => colliders[i] ?? `collider:${i}`;
  switch (event.type) {
    case EventType.ContactStart:
    case EventType.ContactStop:
    case EventType.SensorEnter:
    case EventType.SensorExit:
      return { name, a: collider(p[0]), b: collider(p[1]) };
    case EventType.TrackingLost:
    case EventType.TrackingRegained:
      return { name, hand: side(p[0]) };
    case EventType.TargetUnreachable:
      return { name, part: UNREACHABLE_PARTS[p[UR.part]] ?? String(p[UR.part]), distance: asFloat(p[UR.distance]), reach: asFloat(p[UR.reach]) };
    case EventType.AppError:
    case EventType.ActorFailure:
    case EventType.PageStart:
    case EventType.AgentDecision:
    case EventType.AudioStart:
    case EventType.AudioUpdate:
    case EventType.AudioStop:
      return { name, ...readJsonPayload<Record<string, unknown>>(p, 0) };
    case EventType.AppEvent: {
      const { name: appName, data } = readJsonPayload<{ name: string; data?: unknown }>(p, 0);
      return { name, event: appName, data };
    }
    case EventType.TagDeclared:
      return { name, tag: p[0], ...readJsonPayload<{ role: string; id: string }>(p, 1) };
    case EventType.TagPoses: {
      const tags = [];
      for (let k = 0, o = TAG_POSES_PAYLOAD.records; k < p[TAG_POSES_PAYLOAD.count]; k++, o += TR.words) {
        tags.push({ tag: p[o + TR.tag], present: p[o + TR.present] === 1, pose: p.slice(o + TR.pose, o + TR.pose + POSE_WORDS).map(asFloat) });
      }
      return { name, tags };
    }
    case EventType.InputEvent:
      return { name, kind: INPUT_EVENT_KINDS[p[IE.kind]] ?? String(p[IE.kind]), source: side(p[IE.source]) };
    default: {
      const sensing = decodeSensingEvent(event);
      if (sensing) {
        const { kind: _kind, ...fields } = sensing;
        return { name, ...fields };
      }
      return { name, payload: p };
    }
  }
}

/** A one-line description of an event, for tooltips and logs. */
export function eventText(json: EventJson): string {
  const { name, ...fields } = json;
  if ('a' in fields) return `${name}: ${String(fields.a)} – ${String(fields.b)}`;
  if (name === 'app-event') return `app event "${String(fields.event)}"${fields.data === undefined ? '' : ` ${JSON.stringify(fields.data)}`}`;
  if (name === 'app-error') return `app error in ${String(fields.phase)}: ${String(fields.message)}`;
  if (name === 'actor-failure') return `actor failure: ${String(fields.step ?? '')} ${String(fields.reason ?? '')}`.trim();
  if (name === 'page-start') return fields.by === 'click' ? `the user clicked ${String(fields.element)} to enter ${String(fields.mode)}` : `the page entered ${String(fields.mode)} by itself`;
  if (name === 'agent-decision') return `agent decision ${String(fields.decision)} (step ${String(fields.step)} of "${String(fields.instruction)}"): ${JSON.stringify(fields.answer)}`;
  if (name === 'audio-start') return `sound "${String(fields.sound)}" started (voice ${String(fields.voice)}) ${audioPlace(fields.position)}, gain ${String(fields.gain)}${fields.loop ? ', looping' : ''}`;
  if (name === 'audio-update') return `voice ${String(fields.voice)}${'position' in fields ? (Array.isArray(fields.position) ? ` moved ${audioPlace(fields.position)}` : ' no longer spatialised') : ''}${'gain' in fields ? ` gain ${String(fields.gain)}` : ''}`;
  if (name === 'audio-stop') return `voice ${String(fields.voice)} stopped`;
  if (name === 'input-event') return `${String(fields.kind)} (${String(fields.source)})`;
  if (name === 'tag-declared') return `tag ${String(fields.role)} = ${String(fields.id)}`;
  if ('hand' in fields) return `${name} (${String(fields.hand)})`;
  if ('plane' in fields && !('results' in fields)) return `${name} ${String(fields.plane)}${fields.label ? ` (${String(fields.label)})` : ''}`;
  if ('surface' in fields) return `${name} ${String(fields.surface)}`;
  if ('anchor' in fields) return `${name} ${String(fields.anchor)}`;
  if (name === 'target-unreachable') return `${String(fields.part)} sent ${Number(fields.distance).toFixed(2)} m away, reach ${Number(fields.reach).toFixed(2)} m`;
  return name;
}

/** Where a sound plays, in words. */
function audioPlace(position: unknown): string {
  return Array.isArray(position) ? `at [${position.map((v) => Number(v).toFixed(3)).join(', ')}]` : 'not spatialised';
}
