/**
 * Decoding the sensing event records (plane, surface, hit-test and anchor events; layouts in
 * `frame/events.ts`) into plain objects, for tools, tests, replays and the browser shim.
 */
import { ANCHOR_CREATED_PAYLOAD as AC, EventType, HIT_RESULT_RECORD as HR, HIT_TEST_PAYLOAD as HT, MOVED_PAYLOAD as MV, NO_PLANE, PLANE_ORIENTATIONS, PLANE_PAYLOAD as PL, POSE_WORDS, type DecodedEvent } from '../frame/events.js';
import { readJsonPayload } from '../frame/json-record.js';
import { SEMANTIC_LABELS, type SemanticLabel } from '../geometry/types.js';
import type { SurfaceSpec } from '../scene/types.js';

/** A pose as 7 numbers: position xyz, quaternion xyzw. */
type Pose7 = number[];

/** A decoded sensing event. */
export type SensingEvent =
  | {
      kind: 'plane-added' | 'plane-updated';
      plane: number;
      surface: number;
      label: SemanticLabel;
      orientation: 'horizontal' | 'vertical' | null;
      lastChangedTick: number;
      /** PlaneUpdated: 1 = attributes changed, 2 = pose changed. */
      flags: number;
      pose: Pose7;
      polygon: [number, number][];
    }
  | { kind: 'plane-removed'; plane: number }
  | { kind: 'surface-added'; surface: number; spec: SurfaceSpec }
  | { kind: 'surface-moved'; surface: number; pose: Pose7 }
  | { kind: 'surface-removed'; surface: number }
  | { kind: 'hit-test-results'; request: number; results: { plane: number | null; distance: number; pose: Pose7 }[] }
  | { kind: 'anchor-created'; anchor: number; plane: number | null; pose: Pose7 }
  | { kind: 'anchor-moved'; anchor: number; pose: Pose7 }
  | { kind: 'anchor-lost'; anchor: number };

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const asFloat = (word: number) => {
  u32[0] = word;
  return f32[0];
};

/** Decodes a sensing event, or returns null for other kinds of event. */
export function decodeSensingEvent(event: DecodedEvent): SensingEvent | null {
  const p = event.payload;
  const floats = (from: number, count: number) => p.slice(from, from + count).map(asFloat);
  switch (event.type) {
    case EventType.PlaneAdded:
    case EventType.PlaneUpdated: {
      const n = p[PL.pointCount];
      const points: [number, number][] = [];
      for (let i = 0, o = PL.points; i < n; i++, o += 2) points.push([asFloat(p[o]), asFloat(p[o + 1])]);
      return {
        kind: event.type === EventType.PlaneAdded ? 'plane-added' : 'plane-updated',
        plane: p[PL.plane],
        surface: p[PL.surface],
        label: SEMANTIC_LABELS[p[PL.label]],
        orientation: PLANE_ORIENTATIONS[p[PL.orientation]] ?? null,
        lastChangedTick: p[PL.changedTick],
        flags: p[PL.flags],
        pose: floats(PL.pose, POSE_WORDS),
        polygon: points,
      };
    }
    case EventType.PlaneRemoved:
      return { kind: 'plane-removed', plane: p[0] };
    case EventType.SurfaceAdded:
      return { kind: 'surface-added', surface: p[0], spec: readJsonPayload<SurfaceSpec>(p, 1) };
    case EventType.SurfaceMoved:
      return { kind: 'surface-moved', surface: p[MV.id], pose: floats(MV.pose, POSE_WORDS) };
    case EventType.SurfaceRemoved:
      return { kind: 'surface-removed', surface: p[0] };
    case EventType.HitTestResults: {
      const results = [];
      for (let i = 0, o = HT.results; i < p[HT.count]; i++, o += HR.words) {
        const plane = p[o + HR.plane];
        results.push({ plane: plane === NO_PLANE ? null : plane, distance: asFloat(p[o + HR.distance]), pose: floats(o + HR.pose, POSE_WORDS) });
      }
      return { kind: 'hit-test-results', request: p[HT.request], results };
    }
    case EventType.AnchorCreated:
      return { kind: 'anchor-created', anchor: p[AC.anchor], plane: p[AC.plane] === NO_PLANE ? null : p[AC.plane], pose: floats(AC.pose, POSE_WORDS) };
    case EventType.AnchorMoved:
      return { kind: 'anchor-moved', anchor: p[MV.id], pose: floats(MV.pose, POSE_WORDS) };
    case EventType.AnchorLost:
      return { kind: 'anchor-lost', anchor: p[0] };
    default:
      return null;
  }
}
