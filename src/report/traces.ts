/**
 * The decisive quantities of a recorded session over time: each validator's watched quantity (its
 * `trace`), sampled at every frame of the stream and thinned for plotting as it is read: each bucket of
 * frames keeps its smallest and largest value, so a one-frame spike is never lost. Reports draw these for
 * failed sessions, with the thresholds and the evidence ticks.
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
    const series = validators.map(() => new MinMaxThinner(reader.frames, maxPoints));
    for (const frame of reader.framesInOrder()) {
      ctx.state.observe(frame);
      validators.forEach(({ validator }, i) => {
        validator.observe(frame);
        const value = validator.trace?.();
        if (value !== null && value !== undefined && Number.isFinite(value)) series[i].push(frame.time, value);
      });
    }
    return validators
      .map(({ spec }, i) => ({
        formula: spec.type,
        description: spec.description ?? '',
        milestones: spec.milestones.map((m) => ({ id: m.id, threshold: m.threshold })),
        points: series[i].points(),
        dt: model.timing.dt,
      }))
      .filter((t) => t.points.length > 0);
  } finally {
    reader.close();
  }
}

/**
 * Thins a series of about `expected` points to at most `max`, in one pass: consecutive points fall into
 * buckets of equal size, and each bucket keeps its minimum and its maximum (in time order).
 */
export class MinMaxThinner {
  private readonly bucketSize: number;
  private readonly kept: [number, number][] = [];
  private inBucket = 0;
  private low: [number, number] | null = null;
  private high: [number, number] | null = null;

  constructor(expected: number, max: number) {
    if (!(max >= 2)) throw new RangeError(`a thinned series keeps at least 2 points, got ${max}`);
    this.bucketSize = Math.max(1, Math.ceil(expected / Math.floor(max / 2)));
  }

  push(time: number, value: number): void {
    if (!this.low || !this.high) {
      this.low = this.high = [time, value];
    } else if (value < this.low[1]) {
      this.low = [time, value];
    } else if (value > this.high[1]) {
      this.high = [time, value];
    }
    if (++this.inBucket === this.bucketSize) this.flush();
  }

  /** The kept points, in time order. */
  points(): [number, number][] {
    this.flush();
    return this.kept;
  }

  private flush(): void {
    const { low, high } = this;
    if (low && high) {
      if (low === high) this.kept.push(low);
      else if (low[0] <= high[0]) this.kept.push(low, high);
      else this.kept.push(high, low);
    }
    this.low = this.high = null;
    this.inBucket = 0;
  }
}

/** A series thinned to at most `max` points by bucketed minimum and maximum (see {@link MinMaxThinner}). */
export function thinMinMax(points: readonly (readonly [number, number])[], max: number): [number, number][] {
  if (points.length <= max) return points.map(([t, v]) => [t, v]);
  const thinner = new MinMaxThinner(points.length, max);
  for (const [t, v] of points) thinner.push(t, v);
  return thinner.points();
}
