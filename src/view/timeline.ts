/**
 * What the viewer needs from the whole stream, gathered in one pass: events to mark on the timeline,
 * detected planes and run-time surfaces over time, the app's tag declarations, each validator's watched
 * quantity (its `trace`) and the milestones scored on the replay with their evidence ticks.
 *
 * The pass yields to the event loop after every chunk, so the thread running it (the viewer's worker)
 * keeps answering other requests while a long stream is read.
 */
import { decodeEvents } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import { decodeSensingEvent } from '../sensing/events.js';
import { replayModelFromHeader } from '../stream/header.js';
import { StreamReader } from '../stream/reader.js';
import { FrameState } from '../validate/frame-state.js';
import { createValidator } from '../validate/registry.js';
import type { Milestone, Validator } from '../validate/types.js';
import type { ValidatorContext } from '../validate/xr-context.js';
import { colliderNames, eventJson, eventText } from '../export/event-json.js';
import type { EventMarker, Timeline, TraceSeries } from './api-types.js';
import { describeSurface } from './scene-description.js';

/** Events too frequent to mark one by one (they are still counted). */
const UNMARKED = new Set(['tag-poses', 'plane-updated', 'anchor-moved', 'hit-test-results']);

/** Limits of what is sent to the page. */
export interface TimelineOptions {
  /** Most event markers kept (the first ones); default 5000. */
  maxMarkers?: number;
  /** Most points per trace; default 600. */
  maxPoints?: number;
}

/** Reads the stream at `path` once and gathers its timeline. Damage stops the pass and is reported in `error`. */
export async function buildTimeline(path: string, options: TimelineOptions = {}): Promise<Timeline> {
  const maxMarkers = options.maxMarkers ?? 5000;
  const reader = StreamReader.open(path, { allowTruncated: true });
  const timeline: Timeline = { events: [], eventCounts: {}, planes: [], surfaces: [], tags: [], traces: [], milestones: [], error: null };
  try {
    const model = replayModelFromHeader(reader.header);
    const colliders = colliderNames(model);
    const ctx: ValidatorContext = { model, dominantHand: reader.header.dominantHand, state: new FrameState() };
    let validators: { spec: (typeof model.validators)[number]; validator: Validator; points: number[][] }[] = [];
    try {
      validators = model.validators.map((spec) => ({ spec, validator: createValidator(spec, ctx), points: [] }));
    } catch (err) {
      timeline.error = `the validators could not be built: ${(err as Error).message}`;
    }
    const observe = (frame: FrameView) => {
      gatherEvents(frame, timeline, colliders, maxMarkers);
      if (validators.length === 0) return;
      ctx.state.observe(frame);
      for (const v of validators) {
        v.validator.observe(frame);
        const value = v.validator.trace?.();
        if (value !== null && value !== undefined && Number.isFinite(value)) v.points.push([frame.time, value]);
      }
    };
    try {
      let sinceYield = 0;
      for (const frame of reader.framesInOrder()) {
        observe(frame);
        if (++sinceYield >= reader.header.encoding.chunkFrames) {
          sinceYield = 0;
          await new Promise((resume) => setImmediate(resume));
        }
      }
    } catch (err) {
      timeline.error = (err as Error).message;
    }
    const finished = validators.map(({ validator }) => validator.finish());
    timeline.milestones = finished.flat() as Milestone[];
    timeline.traces = validators
      .map(({ spec, points }, i): TraceSeries => ({
        formula: spec.type,
        description: spec.description ?? '',
        milestones: finished[i].map((m) => ({ id: m.id, threshold: m.threshold, comparison: m.comparison })),
        points: thin(points, options.maxPoints ?? 600),
      }))
      .filter((t) => t.points.length > 0);
    return timeline;
  } finally {
    reader.close();
  }
}

function gatherEvents(frame: FrameView, timeline: Timeline, colliders: readonly string[], maxMarkers: number): void {
  if (frame.eventWords === 0) return;
  const tick = frame.tick;
  for (const event of decodeEvents(frame.events, frame.eventWords)) {
    timeline.eventCounts[event.name] = (timeline.eventCounts[event.name] ?? 0) + 1;
    if (event.name === 'tag-poses') continue;
    const sensing = decodeSensingEvent(event);
    if (sensing?.kind === 'plane-added' || sensing?.kind === 'plane-updated') {
      timeline.planes.push({ plane: sensing.plane, tick, label: sensing.label, pose: sensing.pose, polygon: sensing.polygon });
    } else if (sensing?.kind === 'plane-removed') {
      timeline.planes.push({ plane: sensing.plane, tick, label: '', pose: null, polygon: [] });
    } else if (sensing?.kind === 'surface-added') {
      timeline.surfaces.push({ surface: sensing.surface, tick, kind: 'added', object: describeSurface(sensing.surface, sensing.spec) });
    } else if (sensing?.kind === 'surface-moved') {
      timeline.surfaces.push({ surface: sensing.surface, tick, kind: 'moved', pose: sensing.pose });
    } else if (sensing?.kind === 'surface-removed') {
      timeline.surfaces.push({ surface: sensing.surface, tick, kind: 'removed' });
    }
    if (UNMARKED.has(event.name)) continue;
    const json = eventJson(event, colliders);
    if (event.name === 'tag-declared') timeline.tags.push({ index: Number(json.tag), role: String(json.role), id: String(json.id), tick });
    if (timeline.events.length < maxMarkers) timeline.events.push(marker(tick, json.name, eventText(json)));
  }
}

const marker = (tick: number, name: string, text: string): EventMarker => ({ tick, name, text });

/** Keeps every k-th point (and the last), so a series has at most `max` points. */
function thin(points: number[][], max: number): number[][] {
  if (points.length <= max) return points;
  const step = Math.ceil(points.length / max);
  const kept = points.filter((_, i) => i % step === 0);
  if (kept[kept.length - 1] !== points[points.length - 1]) kept.push(points[points.length - 1]);
  return kept;
}
