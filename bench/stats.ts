/**
 * Timing helpers for benchmarks (wall clocks are fine here: benchmarks are not sessions).
 */
import { readFileSync } from 'node:fs';

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

/** CPU ms another process has used so far (all its threads), from /proc; null where there is none. */
export function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

/** CPU ms the given processes have used so far, summed; null if any cannot be read. */
export function processesCpuMs(pids: number[]): number | null {
  let sum = 0;
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms === null) return null;
    sum += ms;
  }
  return sum;
}
