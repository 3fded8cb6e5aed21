/**
 * Timing helpers for benchmarks (wall clocks are fine here: benchmarks are not sessions).
 */

/** Seconds elapsed while running `fn`. */
export async function seconds(fn: () => unknown | Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Median of a list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rounds to `digits` significant digits for reports. */
export function round(value: number, digits = 3): number {
  return Number(value.toPrecision(digits));
}

/**
 * CPU time of this process so far, ms (user + system). On a machine shared with other work, wall-clock
 * figures include the time the process waited for a core; CPU time does not, so benchmarks report both.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
