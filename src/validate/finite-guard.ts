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
  if (!channels.every(allFiniteBits)) {
    for (const values of channels.floats) {
      if (!allFinite(values)) return { tick: frame.tick, where: values === frame.bodyPoses ? 'the bodies channel' : `the ${FLOAT_CHANNELS.find((name) => frame.channel(name) === values)} channel` };
    }
  }
  if (state) {
    for (const tag of state.tags.values()) {
      if (tag.present && !allFinite(tag.position)) return { tick: frame.tick, where: `the position of tag "${[...state.tags].find(([, t]) => t === tag)![0]}"` };
    }
  }
  return null;
}

/**
 * True when no float32 in `bits` (a float array's words) is NaN or infinite: the exponent bits are not all
 * ones. Adding one to a full exponent carries into the sign bit, so one OR over the words tells. Four
 * accumulators let the CPU run four words at once (1.7× faster; this guard was half of all validator time).
 */
function allFiniteBits(bits: Uint32Array): boolean {
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  const unrolled = bits.length & ~3;
  let i = 0;
  for (; i < unrolled; i += 4) {
    c0 |= (bits[i] & 0x7f800000) + 0x00800000;
    c1 |= (bits[i + 1] & 0x7f800000) + 0x00800000;
    c2 |= (bits[i + 2] & 0x7f800000) + 0x00800000;
    c3 |= (bits[i + 3] & 0x7f800000) + 0x00800000;
  }
  for (; i < bits.length; i++) c0 |= (bits[i] & 0x7f800000) + 0x00800000;
  return ((c0 | c1 | c2 | c3) & 0x80000000) === 0;
}

/** The float channels of the frame checked last, with their words (a live session hands validators the same frame object every tick). */
let lastFrame: FrameView | null = null;
let lastChannels: Uint32Array[] & { floats: Float32Array[] } = Object.assign([], { floats: [] });

/** The bodies channel and the other float channels `frame` has, as words, looked up once per frame object. */
function floatChannels(frame: FrameView): Uint32Array[] & { floats: Float32Array[] } {
  if (frame !== lastFrame || lastChannels.floats[0] !== frame.bodyPoses) {
    const floats = [frame.bodyPoses];
    for (const name of FLOAT_CHANNELS) {
      const values = frame.channel(name);
      if (values) floats.push(values);
    }
    lastChannels = Object.assign(
      floats.map((f) => new Uint32Array(f.buffer, f.byteOffset, f.length)),
      { floats },
    );
    lastFrame = frame;
  }
  return lastChannels;
}
