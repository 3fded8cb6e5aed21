/**
 * The one place where a non-finite value becomes a failure. Formulas fold frames with comparisons
 * (`if (d > worst) worst = d`), and NaN compares false with everything: a body at infinity used to leave
 * `region` and `drift` at their starting metric of 0, a pass. Rather than make every formula NaN-aware,
 * this guard watches every float a formula can read (the fixed channels: bodies, head, hands, contacts,
 * controllers; and the tags' decoded positions). From the first frame where one is NaN or infinite, no
 * metric of the session means anything, so every milestone fails: metric null, score 0, that frame as
 * evidence. A metric that comes out non-finite by itself is failed by `scoreMilestones`.
 *
 * Tag rotations are the exception: an app's degenerate orientation (facing straight up) is NaN, the
 * suite's apps produce them, and the only formula that reads one (`presses`) treats such a target as
 * not pressable, a verdict on the app rather than on the measurement.
 */
import type { FrameView } from '../frame/frame.js';
import type { FrameState } from './frame-state.js';
import type { Milestone, Validator } from './types.js';

/** The fixed float channels a frame may have, besides `bodies`. */
const FLOAT_CHANNELS = ['head', 'hand-left', 'hand-right', 'contacts', 'controller-left', 'controller-right'];

/** The first non-finite value seen: where and when. */
interface NonFinite {
  tick: number;
  where: string;
}

/** Wraps a session's validators so that a non-finite value in any frame fails every milestone. */
export function failOnNonFinite(inner: Validator, state: FrameState | null): Validator {
  let found: NonFinite | null = null;
  return {
    observe(frame) {
      inner.observe(frame); // decodes the frame state (tags) first
      if (!found) found = firstNonFinite(frame, state);
    },
    finish(): Milestone[] {
      const milestones = inner.finish();
      if (!found) return milestones;
      const note = `a non-finite value (NaN or infinity) in ${found.where} at tick ${found.tick}: no metric can be measured`;
      // The non-finite frame decides: a milestone waiting for a judge (`errored`) is failed instead.
      return milestones.map(({ errored: _waiting, ...m }) => ({ ...m, passed: false, score: 0, metric: null, ticks: [found!.tick], note }));
    },
    ...(inner.trace ? { trace: inner.trace } : {}),
  };
}

// `x - x` is 0 for every finite x and NaN for NaN and ±Infinity.
function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] - values[i] !== 0) return false;
  return true;
}

function firstNonFinite(frame: FrameView, state: FrameState | null): NonFinite | null {
  const channels = floatChannels(frame);
  for (let c = 0; c < channels.length; c++) {
    const values = channels[c];
    if (!allFiniteFloat32(values)) {
      const where = values === frame.bodyPoses ? 'the bodies channel' : `the ${FLOAT_CHANNELS.find((name) => frame.channel(name) === values)} channel`;
      return { tick: frame.tick, where };
    }
  }
  if (state) {
    for (let k = 0; k < state.tagList.length; k++) {
      const tag = state.tagList[k];
      if (tag.present && !allFinite(tag.position)) return { tick: frame.tick, where: `the position of tag "${[...state.tags].find(([, t]) => t === tag)![0]}"` };
    }
  }
  return null;
}

/**
 * True when no value of a float32 array is NaN or infinite: their sum in float64 is then finite (float32
 * values are below 3.5e38, so no float64 sum of fewer than 5e269 of them can overflow), and a NaN or an
 * infinity makes the sum NaN or infinite. Eight running sums let the CPU add eight values at once; this is
 * 1.7× faster than testing each value's exponent bits, and this guard is a quarter of all validator time.
 */
function allFiniteFloat32(values: Float32Array): boolean {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
  const unrolled = values.length & ~7;
  let i = 0;
  for (; i < unrolled; i += 8) {
    s0 += values[i];
    s1 += values[i + 1];
    s2 += values[i + 2];
    s3 += values[i + 3];
    s4 += values[i + 4];
    s5 += values[i + 5];
    s6 += values[i + 6];
    s7 += values[i + 7];
  }
  for (; i < values.length; i++) s0 += values[i];
  const sum = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
  return sum - sum === 0;
}

/** The float channels of the frame checked last (a live session hands validators the same frame object every tick). */
let lastFrame: FrameView | null = null;
let lastChannels: Float32Array[] = [];

/** The bodies channel and the other float channels `frame` has, looked up once per frame object. */
function floatChannels(frame: FrameView): Float32Array[] {
  if (frame !== lastFrame || lastChannels[0] !== frame.bodyPoses) {
    const floats = [frame.bodyPoses];
    for (const name of FLOAT_CHANNELS) {
      const values = frame.channel(name);
      if (values) floats.push(values);
    }
    lastChannels = floats;
    lastFrame = frame;
  }
  return lastChannels;
}
