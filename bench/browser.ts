/**
 * Browser benchmark: `npm run bench -- browser [--json]`. In the warm Debian Chromium:
 * - closed_loop_ticks_per_s: a session of xr/pinch-spawn-ball whose app is the three.js pinch page (what
 *   `xrsim run --app DIR` and sweeps run), one tick per round trip (`browserBatch: 1`), the page's output of
 *   each tick in that tick, the next round trip sent while the page runs this one where it cannot depend on
 *   the answer (`browserInFlight` 2, the default); ticks over the page's loopback socket (the same sessions
 *   over DevTools, the fallback channel, are in `details.closedDevTools`, with the same hash; in lockstep,
 *   `browserInFlight: 1`, in `details.closedLockstep`);
 * - closed_loop_tick_vs_page_frame: a closed-loop tick's wall time ÷ the page's own frame: the same page
 *   running the same session's recorded ticks back to back inside the page, no round trips (the shim's own
 *   timing of its ticks, `details.pageFrame`), in the same run;
 * - batched_ticks_per_s: the same session as sessions run it by default, batching the ticks that cannot
 *   depend on the page's answers (up to 32 a round trip); the same hash (checked here too);
 * - shim_frame_overhead: round trip of a minimal shimmed XR frame (viewer pose and 50 joint reads, both
 *   hands' data decoded) ÷ round trip of an empty page's animation frame through the same bridge;
 * - session_start_s: from a warm Chromium to the first XR frame of a new session (median of 3);
 * - shim_frame_ms / iwer_frame_ms: per-frame cost inside the page without the bridge, our shim against
 *   IWER (npm `iwer`, a Quest 3 with hands) doing the same reads (the decision in docs/BROWSER.md).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserApp } from '../src/browser/browser-app.js';
import { closeSharedChromium, WarmChromium } from '../src/browser/chromium.js';
import { createSession } from '../src/session/session.js';
import type { TickInput } from '../src/browser/protocol.js';
import { startStaticServer } from '../src/browser/static-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PINCH_PAGE = join(root, 'test/fixtures/browser/three-hands');
const pages = (name: string) => join(root, 'bench/browser-pages', name);
const PINCH_SPEC = { task: 'xr/pinch-spawn-ball', seed: 1, duration: 3 };

export async function browserBenchmark(progress: (line: string) => void) {
  const chromium = new WarmChromium();
  try {
    await chromium.browser();
    const open = async (dir: string) => {
      const app = await BrowserApp.open({ chromium, dir, seed: 1, tickTimeoutMs: 60_000 });
      return app;
    };

    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const app = await open(PINCH_PAGE);
      await app.waitForSession();
      const { inputs } = await firstTick();
      await app.tick(inputs);
      starts.push((performance.now() - started) / 1000);
      await app.close();
    }
    starts.sort((a, b) => a - b);
    progress(`session start ${starts.map((s) => s.toFixed(2)).join(', ')} s`);

    const closed = await sessionRun(1);
    const closedLockstep = await sessionRun(1, 1);
    progress(`closed loop in lockstep ${closedLockstep.ticksPerS.toFixed(0)} ticks/s`);
    if (closedLockstep.hash !== closed.hash) throw new Error(`pipelined and lockstep sessions differ: ${closed.hash} against ${closedLockstep.hash}`);
    progress(`closed loop (a session running the page, one tick per round trip) ${closed.ticksPerS.toFixed(0)} ticks/s (${closed.socketRoundTrips} of ${closed.roundTrips} round trips over the page's socket)`);
    // The same sessions with every tick over DevTools (the fallback channel), for comparison in one run.
    const closedDevTools = await withTickChannel('devtools', () => sessionRun(1));
    progress(`closed loop over DevTools ${closedDevTools.ticksPerS.toFixed(0)} ticks/s`);
    if (closedDevTools.hash !== closed.hash) throw new Error(`the socket and DevTools channels differ: ${closed.hash} against ${closedDevTools.hash}`);
    const batched = await sessionRun(undefined);
    progress(`batched session ${batched.ticksPerS.toFixed(0)} ticks/s (${batched.roundTrips} round trips for ${batched.ticks} ticks)`);
    if (batched.hash !== closed.hash) throw new Error(`batched and unbatched sessions differ: ${batched.hash} against ${closed.hash}`);

    // The same recorded inputs (both hands) for the overhead pages.
    const inputs = await recordedInputs();
    const roundTrip = async (dir: string, xr: boolean) => {
      const app = await open(dir);
      if (xr) await app.waitForSession();
      // Both pages tick over the same channel: wait until the shim's socket is open (or has failed).
      else await app.page.waitForFunction("window.__xrsimHost.status().bridge !== 'connecting'", undefined, { polling: 10 });
      await app.tick(inputs.slice(0, 30));
      const started = performance.now();
      for (const input of inputs.slice(30)) await app.tick([input]);
      const ms = (performance.now() - started) / (inputs.length - 30);
      const inPage = await app.page.evaluate<{ ticks: number; ms: number }>('window.__xrsimHost.stats()');
      await app.close();
      return { ms, inPageMs: inPage.ms / inPage.ticks };
    };
    const pageFrame = await pageOwnFrame(open, inputs);
    progress(`the pinch page's own frame ${pageFrame.ms.toFixed(3)} ms (its ticks back to back in the page)`);
    const emptyFrame = await roundTrip(pages('empty'), false);
    const xrFrame = await roundTrip(pages('xr-minimal'), true);
    progress(`round trip: empty page frame ${emptyFrame.ms.toFixed(2)} ms, shimmed XR frame ${xrFrame.ms.toFixed(2)} ms`);

    const inPage = await inPageComparison(chromium, inputs);
    progress(`in the page: shim ${inPage.shim.toFixed(3)} ms a frame, IWER ${inPage.iwer === null ? 'n/a' : inPage.iwer.toFixed(3)} ms a frame`);

    return {
      details: { sessionStartS: starts, closed, closedLockstep, closedDevTools, batched, pageFrame, lockstepTickVsPageFrame: round(1000 / closedLockstep.ticksPerS / pageFrame.ms, 2), closedTickVsShimFrame: round(1000 / closed.ticksPerS / inPage.shim, 2), emptyFrame, xrFrame, inPage, loadAverage1Min: round(loadavg()[0], 2) },
      summary: {
        closed_loop_ticks_per_s: round(closed.ticksPerS),
        closed_loop_tick_vs_page_frame: round(1000 / closed.ticksPerS / pageFrame.ms, 2),
        batched_ticks_per_s: round(batched.ticksPerS),
        shim_frame_overhead: round(xrFrame.ms / emptyFrame.ms, 2),
        session_start_s: round(starts[1], 2),
        shim_frame_ms: round(inPage.shim, 3),
        iwer_frame_ms: inPage.iwer === null ? null : round(inPage.iwer, 3),
      },
    };
  } finally {
    await chromium.close();
  }
}

/**
 * What users run: a session whose app is the page (`xrsim run --app DIR`), in the process's warm Chromium,
 * with at most `browserBatch` ticks per round trip (undefined: the default). Timed from the first tick to
 * the last (startup is session_start_s); the median of {@link SESSION_TRIALS} sessions, since one session
 * is under a second.
 */
async function sessionRun(
  browserBatch: number | undefined,
  browserInFlight?: number,
): Promise<{ ticksPerS: number; ticks: number; seconds: number; roundTrips: number; socketRoundTrips: number; hash: string; trialsTicksPerS: number[] }> {
  try {
    await createSession({ ...PINCH_SPEC, duration: 0.1, app: PINCH_PAGE }).then((s) => s.run()); // warm up
    const trials = [];
    for (let trial = 0; trial < SESSION_TRIALS; trial++) {
      const session = await createSession({ ...PINCH_SPEC, app: PINCH_PAGE, ...(browserBatch ? { browserBatch } : {}), ...(browserInFlight ? { browserInFlight } : {}) });
      const started = performance.now();
      const result = await session.run();
      const seconds = (performance.now() - started) / 1000;
      if (result.status === 'errored') throw new Error(`the session errored: ${result.error?.message}`);
      if (trials.length > 0 && result.hash !== trials[0].hash) throw new Error(`two runs of one browser session differ: ${result.hash} against ${trials[0].hash}`);
      const stats = session.browserStats!;
      trials.push({ ticksPerS: result.ticks / seconds, ticks: result.ticks, seconds, roundTrips: stats.roundTrips, socketRoundTrips: stats.socketRoundTrips, hash: result.hash });
    }
    const sorted = [...trials].sort((a, b) => a.ticksPerS - b.ticksPerS);
    return { ...sorted[sorted.length >> 1], trialsTicksPerS: trials.map((t) => round(t.ticksPerS)) };
  } finally {
    await closeSharedChromium();
  }
}

/**
 * The pinch page's own frame: after its session started, the recorded session's ticks run back to back in
 * the page in one call (no round trip between them); the shim's real time per tick (decoding, the XR frame
 * with three.js's drawing, collecting the output). Median of 3 pages.
 */
async function pageOwnFrame(open: (dir: string) => Promise<BrowserApp>, inputs: TickInput[]): Promise<{ ms: number; trials: number[] }> {
  const trials: number[] = [];
  for (let trial = 0; trial < 3; trial++) {
    const app = await open(PINCH_PAGE);
    try {
      await app.waitForSession();
      await app.tick(inputs.slice(0, 30));
      const before = await app.page.evaluate<{ ticks: number; ms: number }>('window.__xrsimHost.stats()');
      await app.tick(inputs.slice(30));
      const after = await app.page.evaluate<{ ticks: number; ms: number }>('window.__xrsimHost.stats()');
      trials.push((after.ms - before.ms) / (after.ticks - before.ticks));
    } finally {
      await app.close();
    }
  }
  const sorted = [...trials].sort((a, b) => a - b);
  return { ms: round(sorted[1], 3), trials: trials.map((t) => round(t, 3)) };
}

/** Runs `work` with `XRSIM_TICK_CHANNEL` set (sessions open their pages with the environment's channel). */
async function withTickChannel<T>(channel: 'socket' | 'devtools', work: () => Promise<T>): Promise<T> {
  const before = process.env.XRSIM_TICK_CHANNEL;
  process.env.XRSIM_TICK_CHANNEL = channel;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.XRSIM_TICK_CHANNEL;
    else process.env.XRSIM_TICK_CHANNEL = before;
  }
}

/** Timed sessions per mode (closed loop, batched). */
const SESSION_TRIALS = 3;

function round(x: number, digits = 1): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

/** Tick 0's input of the pinch session (what the first XR frame needs). */
async function firstTick(): Promise<{ inputs: TickInput[] }> {
  const all = await recordedInputs();
  return { inputs: all.slice(0, 1) };
}

let recorded: TickInput[] | null = null;
/** The pinch session's tick inputs, recorded once from a session running the pinch page. */
async function recordedInputs(): Promise<TickInput[]> {
  if (recorded) return recorded;
  const inputs: TickInput[] = [];
  try {
    const session = await createSession({ ...PINCH_SPEC, app: PINCH_PAGE }, { page: { observe: (sent) => inputs.push(...sent) } });
    await session.run();
  } finally {
    await closeSharedChromium();
  }
  recorded = inputs;
  return recorded;
}

/** Per-frame cost inside the page, no bridge: our shim (ESM build) and IWER, the same reads each frame. */
async function inPageComparison(chromium: WarmChromium, inputs: TickInput[]): Promise<{ shim: number; iwer: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-bench-pages-'));
  for (const name of ['shim-inpage', 'iwer']) {
    const out = join(dir, name);
    mkdirSync(out);
    for (const file of readdirSync(pages(name))) copyFileSync(join(pages(name), file), join(out, file));
    copyFileSync(join(pages('common'), 'frame-reads.js'), join(out, 'frame-reads.js'));
  }
  copyFileSync(join(root, 'dist/shim/index.js'), join(dir, 'shim-inpage/shim.js'));
  let iwerBuilt = true;
  try {
    const { build } = await import('esbuild');
    await build({ entryPoints: ['iwer'], bundle: true, format: 'esm', outfile: join(dir, 'iwer/iwer.js'), absWorkingDir: root, logLevel: 'silent' });
  } catch {
    iwerBuilt = false;
  }
  const server = await startStaticServer({ root: dir });
  const browser = await chromium.browser();
  const measure = async (name: string, arg: unknown): Promise<number> => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/${name}/index.html`);
      await page.waitForFunction('typeof window.runFrames === "function"', undefined, { timeout: 30_000, polling: 50 });
      await page.evaluate(`window.runFrames(${JSON.stringify(typeof arg === 'number' ? 30 : (arg as TickInput[]).slice(0, 30))})`);
      const result = await page.evaluate<{ msPerFrame: number; reads: number }>(`window.runFrames(${JSON.stringify(typeof arg === 'number' ? arg : (arg as TickInput[]).slice(30))})`);
      if (result.reads === 0) throw new Error(`${name}: no joint was read`);
      return result.msPerFrame;
    } finally {
      await context.close();
    }
  };
  try {
    const shim = await measure('shim-inpage', inputs);
    const iwer = iwerBuilt ? await measure('iwer', inputs.length - 30).catch(() => null) : null;
    return { shim, iwer };
  } finally {
    await server.close();
  }
}
