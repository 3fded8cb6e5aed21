/**
 * Trials on a machine whose speed changes under us. The development VM shares its host: for seconds at a
 * time the same in-thread work runs up to 40 % slower (measured: 200-session blocks of tiny sessions at
 * 500 to 890 per second, with CPU time per session following, so it is not a wait for a core). A ratio
 * between two configurations timed one after the other is then a ratio of machine speeds as much as of
 * configurations.
 *
 * So each trial is bracketed by a probe, a fixed piece of in-thread work timed just before and just after
 * it. A trial is steady when the two probes agree within {@link STEADY_TOLERANCE}; the figures are medians
 * over steady trials only. Trials are run until {@link SteadyTrialsOptions.wanted} are steady or
 * {@link SteadyTrialsOptions.most} have run; if fewer than half of the wanted ones were steady, every trial
 * counts (a machine that never settles still gets figures, and the details say so). Every trial, steady or
 * not, is reported with its probe drift.
 */

/** The most two probes around a steady trial may differ, as a fraction of the faster one. */
export const STEADY_TOLERANCE = 0.08;

export interface SteadyTrialsOptions<T> {
  /** Runs trial number `index` (from 0) and returns what it measured. */
  trial: (index: number) => Promise<T>;
  /** Times a fixed piece of in-thread work, in seconds. */
  probe: () => Promise<number>;
  /** Steady trials wanted. */
  wanted: number;
  /** The most trials run. */
  most: number;
  progress: (line: string) => void;
}

export interface SteadyTrials<T> {
  /** The steady trials' results (every trial's when too few were steady), in the order run. */
  used: T[];
  /** Whether `used` holds only steady trials. */
  steady: boolean;
  /** Per trial run: how far its two probes differed (fraction of the faster), rounded. */
  drifts: number[];
}

/** Runs bracketed trials as described above. */
export async function steadyTrials<T>(options: SteadyTrialsOptions<T>): Promise<SteadyTrials<T>> {
  const { trial, probe, wanted, most, progress } = options;
  const all: T[] = [];
  const steadyOnes: T[] = [];
  const drifts: number[] = [];
  await probe(); // once untimed: the first run of any code in a process is slower while V8 compiles it
  let before = await probe();
  for (let index = 0; index < most && steadyOnes.length < wanted; index++) {
    progress(`trial ${index + 1} (${steadyOnes.length} of ${wanted} steady so far, at most ${most}) …`);
    const result = await trial(index);
    const after = await probe();
    const drift = Math.abs(after - before) / Math.min(after, before);
    drifts.push(Math.round(drift * 1000) / 1000);
    all.push(result);
    if (drift <= STEADY_TOLERANCE) steadyOnes.push(result);
    before = after; // the probe after one trial is the probe before the next
  }
  const steady = steadyOnes.length * 2 >= wanted;
  return { used: steady ? steadyOnes : all, steady, drifts };
}

/**
 * Runs a trial's steps in order, or in reverse order when `index` is odd, so that a machine slowly
 * speeding up or down across trials favours none of the configurations the steps time.
 */
export async function inAlternatingOrder(index: number, steps: (() => Promise<void>)[]): Promise<void> {
  for (const step of index % 2 === 1 ? [...steps].reverse() : steps) await step();
}
