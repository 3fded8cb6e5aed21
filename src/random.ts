/**
 * Seeded randomness. Each subsystem draws from its own seedrandom (ARC4) stream keyed `${seed}/${subsystem}`
 * (`kernels/arc4.ts`: seedrandom's numbers, without its old-space closures),
 * so adding a subsystem, or drawing more numbers in one, never shifts another's numbers.
 * Nothing in a session may use `Math.random`.
 */
import { Arc4Stream } from '../kernels/arc4.js';

/** Subsystems that perturbation seeds re-draw. */
export const PERTURBATION_SUBSYSTEMS = /^(tremor-|jitter-|tracking-noise$|depth-noise$|actor-timing$)/;

/** A deterministic source of uniform numbers in [0, 1). */
export interface RandomStream {
  /** Next uniform number in [0, 1). */
  next(): number;
  /** Next uniform number in [low, high). */
  uniform(low: number, high: number): number;
}

/** The per-session family of named random streams. */
export class RandomStreams {
  private readonly streams = new Map<string, RandomStream>();

  /**
   * @param perturbationSeed when given, the perturbation subsystems (tremor, jitter, tracking and depth
   *   noise, actor timing) draw from it instead of `seed`: the same session with other perturbations, for
   *   flakiness studies. Everything else (initial conditions, apps) still follows `seed`.
   */
  constructor(
    readonly seed: number,
    readonly perturbationSeed?: number,
  ) {}

  /** The stream for `subsystem`, created on first use. */
  get(subsystem: string): RandomStream {
    let stream = this.streams.get(subsystem);
    if (!stream) {
      const perturbed = this.perturbationSeed !== undefined && PERTURBATION_SUBSYSTEMS.test(subsystem);
      const arc4 = new Arc4Stream(perturbed ? `${this.perturbationSeed}/perturbation/${subsystem}` : `${this.seed}/${subsystem}`);
      stream = {
        next: () => arc4.double(),
        uniform: (low, high) => low + (high - low) * arc4.double(),
      };
      this.streams.set(subsystem, stream);
    }
    return stream;
  }
}
