/**
 * Seeded perturbation of a hand, for flakiness studies: physiological tremor of the wrist, joint-angle
 * jitter, and noise on the joint positions the headset reports. Each draws from its own seeded stream
 * (`tremor-left`, `jitter-right`, ...), so the same seed reproduces it exactly and another seed differs.
 */
import type { RandomStreams, RandomStream } from '../random.js';
import type { UserModel } from '../task/user-options.js';
import type { HandPerturbation } from './hand.js';

/** Gaussian sample from a uniform stream (Box–Muller; one of the pair). */
export function gaussian(stream: RandomStream): number {
  const u = Math.max(stream.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * stream.next());
}

/**
 * Perturbation sources for one hand. Tremor: per axis, two sinusoids at frequencies drawn from the band
 * with random phases, amplitude-weighted 0.6/0.4 so the peak is the configured amplitude.
 */
export function handPerturbation(side: 'left' | 'right', config: NonNullable<UserModel['perturbation']>, random: RandomStreams): HandPerturbation {
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
  const jitter = random.get(`jitter-${side}`);
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
    jitter(angles) {
      if (config.jointJitter === 0) return;
      for (let i = 0; i < angles.length; i++) angles[i] += config.jointJitter * gaussian(jitter);
    },
  };
}

/** Adds tracking noise (what the headset reports, not where the hand is) to joint positions, in place. */
export function addTrackingNoise(positions: Float32Array, sigma: number, stream: RandomStream): void {
  for (let i = 0; i < positions.length; i++) positions[i] += sigma * gaussian(stream);
}
