/** Helpers of the browser tests: run a fixture page as a session's app, on the session's closed loop. */
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BridgeStats, TickChannel } from '../../src/browser/browser-app.js';
import type { WarmChromium } from '../../src/browser/chromium.js';
import type { PageStatus, TickInput, TickOutput } from '../../src/browser/protocol.js';
import type { SessionResult } from '../../src/session/result.js';
import { createSession, type Session } from '../../src/session/session.js';
import type { SessionSpec } from '../../src/session/spec.js';

export const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
export const FIXTURES = fileURLToPath(new URL('../fixtures/browser/', import.meta.url));

export interface PageRun {
  session: Session;
  result: SessionResult;
  /** Every tick's input to the page and the page's output, in tick order. */
  inputs: TickInput[];
  outputs: TickOutput[];
  /** Whether the page's XR session was ready to run a frame when its first tick was sent. */
  started: boolean;
  /** The page's status once its session started (its tick channel: `bridge`). */
  status: PageStatus | null;
  stats: BridgeStats;
}

/**
 * Runs fixture page `name` (or the app directory at an absolute path) as the app of the session `spec` (its
 * page seeded from the session's `app` stream), by default one tick per round trip (`batch`: the most ticks
 * a round trip, as `browserBatch`).
 */
export async function runPage(
  chromium: WarmChromium,
  name: string,
  spec: Omit<SessionSpec, 'app'>,
  options: { batch?: number; tickTimeoutMs?: number; tickChannel?: TickChannel } = {},
): Promise<PageRun> {
  const inputs: TickInput[] = [];
  const outputs: TickOutput[] = [];
  const observe = (sent: readonly TickInput[], got: readonly TickOutput[]) => {
    inputs.push(...sent);
    outputs.push(...got);
  };
  const session = await createSession(
    { ...spec, app: isAbsolute(name) ? name : join(FIXTURES, name), browserBatch: options.batch ?? 1 },
    { page: { chromium, tickTimeoutMs: options.tickTimeoutMs ?? 30_000, tickChannel: options.tickChannel, observe } },
  );
  const page = session.browserPage!;
  const status = page.status ? { ...page.status } : null;
  const result = await session.run();
  return { session, result, inputs, outputs, started: status?.frameReady === true, status, stats: { ...page.stats } };
}

/** The app events named `name`, with their ticks. */
export function appEvents<T = Record<string, unknown>>(outputs: TickOutput[], name: string): { tick: number; data: T }[] {
  return outputs.flatMap((o) => o.events.filter(([n]) => n === name).map(([, data]) => ({ tick: o.k, data: data as T })));
}

/** Every app error the page reported. */
export function pageErrors(outputs: TickOutput[]) {
  return outputs.flatMap((o) => o.errors.map((e) => ({ tick: o.k, ...e })));
}
