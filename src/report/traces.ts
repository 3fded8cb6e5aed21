/**
 * The decisive quantities of a recorded session over time: each validator's watched quantity (its
 * `trace`), sampled at every frame of the stream and thinned for plotting. Reports draw these for failed
 * sessions, with the thresholds and the evidence ticks.
 */
import { modelFromHeader } from '../stream/header.js';
import { StreamReader } from '../stream/reader.js';
import { FrameState } from '../validate/frame-state.js';
import { createValidator } from '../validate/registry.js';
import type { ValidatorContext } from '../validate/xr-context.js';

/** One validator's quantity over a session. */
export interface ValidatorTrace {
  /** The formula and what it says of itself. */
  formula: string;
  description: string;
  /** Its milestones. */
  milestones: { id: string; threshold: number }[];
  /** [seconds, value] pairs (null values are left out). */
  points: [number, number][];
  /** Seconds per tick of the session (to place evidence ticks). */
  dt: number;
}

/** Traces every validator of the session recorded in `path`, keeping at most `maxPoints` per trace. */
export function traceStream(path: string, maxPoints = 400): ValidatorTrace[] {
  const reader = StreamReader.open(path, { allowTruncated: true });
  try {
    const { header } = reader;
    const model = modelFromHeader(header);
    const ctx: ValidatorContext = { model, dominantHand: header.dominantHand, state: new FrameState() };
    const validators = model.validators.map((spec) => ({ spec, validator: createValidator(spec, ctx) }));
    const points: [number, number][][] = validators.map(() => []);
    for (const frame of reader.framesInOrder()) {
      ctx.state.observe(frame);
      validators.forEach(({ validator }, i) => {
        validator.observe(frame);
        const value = validator.trace?.();
        if (value !== null && value !== undefined && Number.isFinite(value)) points[i].push([frame.time, value]);
      });
    }
    return validators
      .map(({ spec }, i) => ({
        formula: spec.type,
        description: spec.description ?? '',
        milestones: spec.milestones.map((m) => ({ id: m.id, threshold: m.threshold })),
        points: thin(points[i], maxPoints),
        dt: model.timing.dt,
      }))
      .filter((t) => t.points.length > 0);
  } finally {
    reader.close();
  }
}

/** Keeps every k-th point (and the last), so a trace has at most `max` points. */
function thin(points: [number, number][], max: number): [number, number][] {
  if (points.length <= max) return points;
  const step = Math.ceil(points.length / max);
  const kept = points.filter((_, i) => i % step === 0);
  if (kept[kept.length - 1] !== points[points.length - 1]) kept.push(points[points.length - 1]);
  return kept;
}
