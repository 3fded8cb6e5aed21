/**
 * Decoding the sensing event records (plane, surface, hit-test and anchor events; layouts in
 * `frame/events.ts`) into plain objects, for tools, tests, replays and the browser shim.
 */
import { EventType, NO_PLANE, type DecodedEvent } from '../frame/events.js';
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
const ORIENTATIONS = ['horizontal', 'vertical', null] as const;

/** Decodes a sensing event, or returns null for other kinds of event. */
export function decodeSensingEvent(event: DecodedEvent): SensingEvent | null {
  const p = event.payload;
  const floats = (from: number, count: number) => p.slice(from, from + count).map(asFloat);
  switch (event.type) {
    case EventType.PlaneAdded:
    case EventType.PlaneUpdated: {
      const n = p[13];
      const points: [number, number][] = [];
      for (let i = 0; i < n; i++) points.push([asFloat(p[14 + i * 2]), asFloat(p[15 + i * 2])]);
      return {
        kind: event.type === EventType.PlaneAdded ? 'plane-added' : 'plane-updated',
        plane: p[0],
        surface: p[1],
        label: SEMANTIC_LABELS[p[2]],
        orientation: ORIENTATIONS[p[3]] ?? null,
        lastChangedTick: p[4],
        flags: p[5],
        pose: floats(6, 7),
        polygon: points,
      };
    }
    case EventType.PlaneRemoved:
      return { kind: 'plane-removed', plane: p[0] };
    case EventType.SurfaceAdded:
      return { kind: 'surface-added', surface: p[0], spec: readJsonPayload<SurfaceSpec>(p, 1) };
    case EventType.SurfaceMoved:
      return { kind: 'surface-moved', surface: p[0], pose: floats(1, 7) };
    case EventType.SurfaceRemoved:
      return { kind: 'surface-removed', surface: p[0] };
    case EventType.HitTestResults: {
      const results = [];
      for (let i = 0; i < p[1]; i++) {
        const o = 2 + i * 9;
        results.push({ plane: p[o] === NO_PLANE ? null : p[o], distance: asFloat(p[o + 1]), pose: floats(o + 2, 7) });
      }
      return { kind: 'hit-test-results', request: p[0], results };
    }
    case EventType.AnchorCreated:
      return { kind: 'anchor-created', anchor: p[0], plane: p[1] === NO_PLANE ? null : p[1], pose: floats(2, 7) };
    case EventType.AnchorMoved:
      return { kind: 'anchor-moved', anchor: p[0], pose: floats(1, 7) };
    case EventType.AnchorLost:
      return { kind: 'anchor-lost', anchor: p[0] };
    default:
      return null;
  }
}
