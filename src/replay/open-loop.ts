/**
 * Replaying a stream whose task is absent (recorded elsewhere, or its task directory since moved): nothing
 * is re-simulated. Each recorded frame's head, hands, controllers, plane events and depth image are played
 * straight into the app, open loop, through the same app host and frame builder a session uses (the senses
 * from `StreamSensing`), and what the app publishes is written into a copy of the frame for comparison. A
 * page gets its ticks in batches (one per round trip while it may ask the host for hit tests or anchors).
 *
 * The app's randomness comes from the recorded seed's `app` stream, as in the recorded session, so a
 * deterministic app replays identically. What only the live world could answer (app bodies, anchors, depth
 * hit tests) is the app's error here, and shows as a difference.
 */
import { AppHost } from '../app/host.js';
import { importApp } from '../app/module.js';
import type { AppModule } from '../app/types.js';
import { EventType } from '../frame/events.js';
import { Frame, type FrameView } from '../frame/frame.js';
import type { StreamHeader } from '../stream/format.js';
import { replayModelFromHeader } from '../stream/header.js';
import type { StreamReader } from '../stream/reader.js';
import { moduleRef } from '../task/programs.js';
import { RandomStreams } from '../random.js';
import type { BrowserHostApp } from '../browser/host-app.js';
import type { ReplayTarget } from './app-target.js';
import { StreamSensing } from './stream-sensing.js';

/** Event records the replayed app writes itself (the recorded ones are what it is compared with). */
const APP_WRITTEN = new Set<number>([EventType.TagDeclared, EventType.TagPoses, EventType.AppEvent, EventType.AppError, EventType.InputEvent, EventType.HitTestResults, EventType.PageStart, EventType.AudioStart, EventType.AudioUpdate, EventType.AudioStop]);

export interface OpenLoopOptions {
  chromium?: import('../browser/chromium.js').WarmChromium;
  /** The most ticks per round trip to a page (default 45). */
  batch?: number;
  tickTimeoutMs?: number;
}

/**
 * Plays every frame of `reader` into `target`; `compare(recorded, replayed)` is called for each frame in
 * order and returns true to stop.
 */
export async function replayOpenLoop(
  reader: StreamReader,
  header: StreamHeader,
  target: ReplayTarget,
  options: OpenLoopOptions,
  compare: (recorded: FrameView, replayed: FrameView) => boolean,
): Promise<void> {
  const model = replayModelFromHeader(header);
  const sensing = new StreamSensing(model);
  const perturbationSeed = (header.spec as { perturbationSeed?: number }).perturbationSeed;
  const random = new RandomStreams(header.seed, perturbationSeed).get('app');
  let host: AppHost | null = null;
  let browser: BrowserHostApp | null = null;
  let ownChromium: { close(): Promise<void> } | null = null;
  let module: AppModule;
  if (target.host === 'in-process') {
    module = await importApp(moduleRef(target.module, '--app', '$'));
  } else {
    const [{ WarmChromium }, { BrowserHostApp }] = await Promise.all([import('../browser/chromium.js'), import('../browser/host-app.js')]);
    const chromium = options.chromium ?? new WarmChromium();
    if (!options.chromium) ownChromium = chromium;
    const ref = { name: target.name, host: 'browser' as const, path: target.url ?? target.dir, page: target.page, ...(target.url ? { url: target.url } : {}), ...(target.start ? { start: target.start } : {}), sha256: '' };
    browser = new BrowserHostApp({ ref, chromium, tickTimeoutMs: options.tickTimeoutMs ?? 30_000, reportError: (e) => host?.recordPageError(e.kind, e.message, e.stack), reportStart: (start) => host?.recordPageStart(start) });
    module = browser.module();
  }
  const noBodies = () => {
    throw new Error('app bodies cannot be replayed from a stream without its task');
  };
  host = new AppHost(module, model, noBodies, sensing.asSensing(), random, { blocking: browser !== null });
  const batch = browser ? Math.max(1, options.batch ?? 45) : 1;
  const recordedFrames = Array.from({ length: batch }, () => new Frame(reader.layout));
  const replayedFrames = Array.from({ length: batch }, () => new Frame(reader.layout));
  const frames = reader.framesInOrder();
  try {
    for (let done = false; !done; ) {
      let n = 0;
      while (n < batch) {
        const next = frames.next();
        if (next.done) {
          done = true;
          break;
        }
        const recorded = recordedFrames[n];
        const replayed = replayedFrames[n];
        copyFrame(next.value, recorded, () => true);
        copyFrame(next.value, replayed, (type) => !APP_WRITTEN.has(type));
        sensing.observe(recorded);
        if (replayed.tick === 0) host.setup(replayed);
        host.run(replayed, replayed.tick, replayed.time);
        if (host.awaiting) await host.settle(replayed);
        n++;
        if (!browser?.batchable) break;
      }
      if (browser && n > 0) {
        const outputs = await browser.exchange();
        outputs.forEach((output, i) => host!.applyBridged(replayedFrames[i], () => browser!.apply(output)));
      }
      for (let i = 0; i < n; i++) {
        if (compare(recordedFrames[i], replayedFrames[i])) return;
      }
    }
  } finally {
    await browser?.close();
    await ownChromium?.close();
  }
}

/** Copies a frame (fixed section, depth image) and the event records `keep` accepts. */
function copyFrame(from: Frame, to: Frame, keep: (type: number) => boolean): void {
  to.words.set(from.words);
  to.eventWords = 0;
  const events = from.events;
  for (let i = 0; i < from.eventWords; ) {
    const length = events[i] & 0xffff;
    if (keep(events[i] >>> 16)) {
      to.reserveEvents(length + 1);
      to.events.set(events.subarray(i, i + length + 1), to.eventWords);
      to.eventWords += length + 1;
    }
    i += length + 1;
  }
  to.hasDepth = from.hasDepth;
  to.depthFill = null;
  if (from.hasDepth && from.depthImage && to.depthPixels) to.depthPixels.set(from.depthImage);
}
