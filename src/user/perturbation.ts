/**
 * Seeded perturbation of a hand, for flakiness studies: physiological tremor of the wrist, joint-angle
 * jitter, and noise on the joint positions the headset reports. Each has its own seeded stream
 * (`tremor-left`, `jitter-right`, ...), so the same seed reproduces it exactly and another seed differs.
 *
 * The tremor's frequencies and phases are drawn once. Jitter and tracking noise are drawn every tick for
 * every joint, so they are counter-based (`kernels/counter-rng.ts`): the draw for (tick, joint) is a pure
 * function of the stream's key, whatever was drawn before, and costs one hash.
 */
import { CounterStream } from '../../kernels/counter-rng.js';
import { JOINT_COUNT } from '../../kernels/hand-fk.js';
import type { RandomStreams } from '../random.js';
import type { UserModel } from '../task/user-options.js';
import type { HandPerturbation } from './hand.js';

/** A counter-based stream keyed by 32 bits drawn from the session's seedrandom stream `name`. */
export function counterStream(random: RandomStreams, name: string): CounterStream {
  return new CounterStream(Math.floor(random.get(name).next() * 4294967296));
}

/**
 * Perturbation sources for one hand. Tremor: per axis, two sinusoids at frequencies drawn from the band
 * with random phases, amplitude-weighted 0.6/0.4 so the peak is the configured amplitude.
 */
export function handPerturbation(side: 'left' | 'right', config: NonNullable<UserModel['perturbation']>, random: RandomStreams, dt: number): HandPerturbation {
  const setup = random.get(`tremor-${side}`);
  const waves = new Float64Array(3 * 2 * 3); // axis × wave × (angular frequency, phase, amplitude)
  for (let axis = 0; axis < 3; axis++) {
    for (let w = 0; w < 2; w++) {
      const o = (axis * 2 + w) * 3;
      waves[o] = 2 * Math.PI * setup.uniform(config.tremorBand[0], config.tremorBand[1]);
      waves[o + 1] = setup.uniform(0, 2 * Math.PI);
      waves[o + 2] = config.tremorAmplitude * (w === 0 ? 0.6 : 0.4);
    }
  }
  const jitter = counterStream(random, `jitter-${side}`);
  return {
    tremor(t, position) {
      for (let axis = 0; axis < 3; axis++) {
        let offset = 0;
        for (let w = 0; w < 2; w++) {
          const o = (axis * 2 + w) * 3;
          offset += waves[o + 2] * Math.sin(waves[o] * t + waves[o + 1]);
        }
        position[axis] += offset;
      }
    },
    jitter(t, angles) {
      if (config.jointJitter === 0) return;
      // Draw i of tick k for angle i at tick k.
      jitter.seek(Math.round(t / dt));
      for (let i = 0; i < angles.length; i++) angles[i] += config.jointJitter * jitter.normal(i);
    },
  };
}

/**
 * Tracking noise: what the headset reports, not where the hand is. Draw `side · 78 + joint · 3 + axis` of
 * tick k (side 0 left, 1 right) is that coordinate's noise at tick k.
 */
export class TrackingNoise {
  private readonly stream: CounterStream;
  private readonly offsets = new Float64Array(JOINT_COUNT * 3);

  constructor(
    random: RandomStreams,
    /** Standard deviation per coordinate, metres. */
    readonly sigma: number,
  ) {
    this.stream = counterStream(random, 'tracking-noise');
  }

  /** The offsets (xyz per joint, metres) of one hand at `tick`, in a buffer reused by the next call. */
  at(tick: number, side: number): Float64Array {
    const stream = this.stream.seek(tick);
    const base = side * JOINT_COUNT * 3;
    for (let i = 0; i < JOINT_COUNT * 3; i++) this.offsets[i] = this.sigma * stream.normal(base + i);
    return this.offsets;
  }
}
