/**
 * `replayStream`: plays a recorded session into an app, in process or in Chromium, and compares what the app
 * publishes (tags, app events, app errors) with the recording, frame by frame.
 *
 * The session is rebuilt from the stream's header (embedded scene, task, user, sensing and hand model; the
 * recorded actor script, checked unchanged) with the new app in place of the recorded one, and re-run at
 * full speed with the recorded seed and hand. Every frame, before the app state is compared, the replayed
 * frame's head, hands, controllers, depth image and plane events are checked against the recorded ones, so
 * the app is given exactly the recorded inputs up to the first difference; where the world itself reacts
 * to the app (an actor following a tag that now moves) the app state has already differed a tick earlier,
 * and that is what the report names. A page runs on the session's closed loop, as in the recording (its
 * output of tick N is the app state of tick N; ticks batched only where they cannot depend on its answers).
 *
 * Where the stream's task is absent (its actor script is not where it was recorded: a stream recorded
 * elsewhere, a task directory moved), nothing can be re-simulated: the recorded inputs are played straight
 * from the frames into the app instead (`open-loop.ts`), and the report says so (`mode`).
 */
import { AgentDivergenceError, AgentUnavailableError } from '../actors/agent-protocol.js';
import { recordedAgent, resolveAgent } from '../session/agents.js';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { XrsimInputError } from '../errors.js';
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { Session, type SessionOptions } from '../session/session.js';
import type { StreamHeader } from '../stream/format.js';
import { modelFromHeader } from '../stream/header.js';
import { StreamReader } from '../stream/reader.js';
import { moduleRef, type ProgramSources } from '../task/programs.js';
import { browserDirRef, browserUrlRef } from '../task/browser-programs.js';
import type { WarmChromium } from '../browser/chromium.js';
import { resolveReplayApp, type AppHostKind, type ReplayTarget } from './app-target.js';
import { AppStateComparer, type ReplayDifference } from './compare.js';
import { replayOpenLoop } from './open-loop.js';

export type { ReplayDifference } from './compare.js';
export { resolveReplayApp, type AppHostKind, type ReplayTarget } from './app-target.js';

export interface ReplayOptions {
  /** The app: a name from the stream's task (in-process `apps` or browser pages), a directory or `.html` page, or an app module (`.mjs`). */
  app: string;
  /** The warm Chromium for browser apps (default: one started and closed by this call). */
  chromium?: WarmChromium;
  /** The most ticks per round trip to a page (default: a session's, 32, when re-simulated; 45 open loop). Speed only. */
  batch?: number;
  /** How long a page may take to answer one round trip (default 30 s). */
  tickTimeoutMs?: number;
  /**
   * A page's way in: the CSS selector of the element the simulated user clicks to enter XR (default: the
   * task entry's `start`, else found as sessions find it; docs/BROWSER.md, "Entering XR"). An error for an
   * app that runs in process.
   */
  start?: string;
  /**
   * Who answers the actor's `a.agent` steps: default, the answers recorded in the stream (the agent is not
   * asked again); `reference` or a command line asks that agent afresh (docs/TASKS.md, "Agent actors").
   */
  agent?: string;
}

/** The outcome of {@link replayStream}. */
export interface ReplayReport {
  file: string;
  app: { name: string; host: AppHostKind };
  /** The host of the recorded app. */
  recordedHost: AppHostKind;
  /**
   * `resimulated`: the session was rebuilt from the header and re-run with the recorded actor script (the
   * task is present), app state compared bit for bit; `open-loop`: the task is absent, the recorded inputs
   * were played from the frames, app state compared within {@link OPEN_LOOP_TOLERANCE}.
   */
  mode: ReplayMode;
  identical: boolean;
  /** Frames in the stream. */
  frames: number;
  /** Frames compared (all of them when identical). */
  compared: number;
  firstDivergence: ReplayDifference | null;
}

/**
 * Metres (and quaternion components, and any number in app event data) an open-loop replay's app state may
 * be from the recording: the stream holds float32 poses where the recorded app was given float64 ones (the
 * depth camera, the planes), so an app that computes from them lands within float32's rounding, not on it.
 */
export const OPEN_LOOP_TOLERANCE = 1e-5;

/** How a stream was played into the app (see {@link ReplayReport.mode}). */
export type ReplayMode = 'resimulated' | 'open-loop';

class StopReplay extends Error {}


/**
 * Replays the stream at `path` into `options.app`. Throws `XrsimInputError` for a file that is not a
 * stream, an unknown app, or an actor script changed since the recording; a divergence is a report, not
 * an error.
 */
export async function replayStream(path: string, options: ReplayOptions): Promise<ReplayReport> {
  const reader = StreamReader.open(path);
  try {
    const { header } = reader;
    const recordedHost = recordedHostOf(header);
    const resolved = resolveReplayApp(options.app, { taskId: String(header.spec.task ?? ''), recordedHost });
    if (options.start !== undefined && resolved.host !== 'browser') {
      throw new XrsimInputError(`--start names the element a page is entered by, but the app ${options.app} runs in process`, { file: '--start', expected: 'a browser app (a page, a directory or a task app with "host": "browser"), or no --start' });
    }
    const target = resolved.host === 'browser' && options.start !== undefined ? { ...resolved, start: options.start } : resolved;
    const mode: ReplayMode = taskPresent(header) ? 'resimulated' : 'open-loop';
    const report: ReplayReport = { file: path, app: { name: target.name, host: target.host }, recordedHost, mode, identical: false, frames: reader.frames, compared: 0, firstDivergence: null };
    const comparer = new AppStateComparer(header.encoding.mode === 'quantised', mode === 'open-loop' ? OPEN_LOOP_TOLERANCE : 0);
    const recordedFrames = reader.framesInOrder();
    /** Compares one replayed frame; true once a difference is found. */
    const onFrame = (frame: FrameView): boolean => {
      if (report.firstDivergence) return true;
      const next = recordedFrames.next();
      if (next.done) {
        report.firstDivergence = { tick: frame.tick, kind: 'input', name: 'time', recorded: null, replayed: `frame ${frame.tick}` };
        return true;
      }
      report.compared++;
      report.firstDivergence = comparer.compare(next.value, frame);
      return report.firstDivergence !== null;
    };
    const agent = options.agent === undefined || options.agent === 'replay' ? recordedAgent(path) : resolveAgent(options.agent, { dir: `${path.replace(/\.xrs$/, '')}.agent` });
    const sessionOptions: SessionOptions = { seed: header.seed, dominantHand: header.dominantHand, perturbationSeed: (header.spec as { perturbationSeed?: number }).perturbationSeed, agent };
    if (mode === 'open-loop') {
      await replayOpenLoop(reader, header, target, options, (recorded, replayed) => {
        report.compared++;
        report.firstDivergence = comparer.compare(recorded, replayed);
        return report.firstDivergence !== null;
      });
    } else {
      try {
        if (target.host === 'in-process') await replaySession(replayModel(header, { name: target.name, ...moduleRef(target.module, '--app', '$') }), sessionOptions, onFrame);
        else await replayInBrowser(header, target, sessionOptions, options, onFrame);
      } catch (err) {
        // The replayed app led the actor to an agent decision the recording does not hold.
        if (!(err instanceof AgentUnavailableError)) throw err;
        report.firstDivergence ??= { tick: err instanceof AgentDivergenceError ? err.tick : report.compared, kind: 'input', name: 'agent', recorded: null, replayed: err.message };
      }
    }
    if (!report.firstDivergence && report.compared < reader.frames) {
      report.firstDivergence = { tick: report.compared, kind: 'input', name: 'time', recorded: `${reader.frames} frames`, replayed: `${report.compared} frames` };
    }
    report.identical = report.firstDivergence === null;
    return report;
  } finally {
    reader.close();
  }
}

/** Whether the recorded session can be re-simulated here: its actor script (if it had one) is where it was recorded. */
function taskPresent(header: StreamHeader): boolean {
  const actors = header.sources.programs?.actors;
  return !actors || existsSync(actors.path);
}

/**
 * The host of the recorded app: a session's browser app (`host: "browser"`), or, in streams recorded before
 * pages ran on the session's closed loop, the relay module that stood in for the page.
 */
function recordedHostOf(header: StreamHeader): AppHostKind {
  const app = header.sources.programs?.app;
  if (!app) return 'in-process';
  return ('host' in app && app.host === 'browser') || /^relay-app\.(js|ts)$/.test(basename(app.path)) ? 'browser' : 'in-process';
}

/** The recorded session's model with `app` as its app (the recorded actor script must be unchanged). */
function replayModel(header: StreamHeader, app: NonNullable<ProgramSources['app']>): SimModel {
  const actors = header.sources.programs?.actors;
  return modelFromHeader(header, { ...(actors ? { actors } : {}), app });
}

/** Re-runs the session, frame by frame into `onFrame`, until it ends or `onFrame` says stop. */
async function replaySession(model: SimModel, options: SessionOptions, onFrame: (frame: FrameView) => boolean): Promise<void> {
  const session = await Session.create(model, options);
  try {
    await session.run({
      onFrame: (frame) => {
        if (onFrame(frame)) throw new StopReplay();
      },
    });
  } catch (err) {
    if (!(err instanceof StopReplay)) throw err;
  } finally {
    await session.close();
  }
}

/** Re-runs the session with the page as its app, on the session's closed loop, in this call's Chromium. */
async function replayInBrowser(
  header: StreamHeader,
  target: Extract<ReplayTarget, { host: 'browser' }>,
  sessionOptions: SessionOptions,
  options: ReplayOptions,
  onFrame: (frame: FrameView) => boolean,
): Promise<void> {
  // Loaded here, so that `xrsim` loads playwright-core only to replay into a page.
  const { WarmChromium } = await import('../browser/chromium.js');
  const ref = target.url ? browserUrlRef(target.url) : browserDirRef(target.name, target.dir, target.page, '--app', '$');
  const model = replayModel(header, { ...ref, name: target.name, ...(target.start ? { start: target.start } : {}) });
  const chromium = options.chromium ?? new WarmChromium();
  try {
    const page = { chromium, tickTimeoutMs: options.tickTimeoutMs ?? 30_000 };
    await replaySession(model, { ...sessionOptions, page, ...(options.batch !== undefined ? { browserBatch: options.batch } : {}) }, onFrame);
  } finally {
    if (!options.chromium) await chromium.close();
  }
}
