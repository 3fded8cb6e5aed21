/**
 * Progress of long work on stderr, fitted to where it runs: on a terminal, one live bar redrawn at most ten
 * times a second; elsewhere (CI logs, pipes), a plain line only when both enough time and enough of the
 * work have passed since the last one (every 10 s or every 5 %, whichever is rarer), so a million-session
 * sweep writes a few dozen lines, not a million.
 */

/** Where progress goes, and the clock it is timed by (harness time only; injectable for tests). */
export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Counts a progress line reports. */
export interface ProgressCounts {
  done: number;
  total: number;
  /** Left out of the line when not given (work without verdicts). */
  failed?: number;
  errored?: number;
  /** Work already done before this run started (a resumed sweep): left out of the rate. */
  resumed: number;
}

/** Seconds and share of the work between two plain lines (both must pass). */
export const PLAIN_INTERVAL_S = 10;
export const PLAIN_STEP = 0.05;
const TTY_INTERVAL_S = 0.1;

/** A progress printer: call it with counts after each item, and `finish()` at the end. */
export function progressPrinter(
  output: ProgressOutput = process.stderr,
  now: () => number = () => Number(process.hrtime.bigint()) / 1e9, // wall clock: progress display only, not simulation
  label = 'sessions',
): ((p: ProgressCounts) => void) & { finish(): void } {
  const tty = output.isTTY === true;
  const start = now();
  let lastTime = -Infinity;
  let lastDone = -Infinity;
  let drawn = false;
  const describe = (p: ProgressCounts, t: number) => {
    const fresh = p.done - p.resumed;
    const rate = fresh / Math.max(t - start, 1e-9);
    const eta = rate > 0 ? (p.total - p.done) / rate : 0;
    const problems = p.failed === undefined ? '' : ` · ${p.failed} failed, ${p.errored ?? 0} errored`;
    return `${p.done}/${p.total} ${label} · ${rate.toFixed(1)}/s · ETA ${formatDuration(eta)}${problems}`;
  };
  const print = (p: ProgressCounts) => {
    const t = now();
    const last = p.done >= p.total;
    if (tty) {
      if (!last && t - lastTime < TTY_INTERVAL_S) return;
      const width = 24;
      const filled = p.total > 0 ? Math.round((width * p.done) / p.total) : width;
      output.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${describe(p, t)}\u001b[K`);
      drawn = true;
    } else {
      const enoughTime = t - lastTime >= PLAIN_INTERVAL_S;
      const enoughWork = p.total > 0 && (p.done - lastDone) / p.total >= PLAIN_STEP;
      if (!(enoughTime && enoughWork) && !(last && p.done !== lastDone && lastDone >= 0)) return;
      output.write(`[${p.total > 0 ? Math.floor((100 * p.done) / p.total) : 100}%] ${describe(p, t)}\n`);
      lastDone = p.done;
    }
    lastTime = t;
  };
  return Object.assign(print, {
    finish: () => {
      if (tty && drawn) output.write('\n');
    },
  });
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${seconds.toFixed(0)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}
