/**
 * Drives a browser app from an in-process session (phase 1): the session steps; each tick's app frame is
 * encoded by a `BrowserRelay` and sent to the page; the page's outputs come back and are applied at the
 * next frame. With `batch` > 1, that many ticks travel per round trip (open loop within a batch).
 */
import { fileURLToPath } from 'node:url';
import type { SimModel } from '../model/types.js';
import { createSession, Session, type SessionOptions } from '../session/session.js';
import type { SessionSpec } from '../session/spec.js';
import type { BrowserApp } from './browser-app.js';
import type { TickInput, TickOutput } from './protocol.js';
import { BrowserRelay } from './relay.js';
import { withRelay } from './relay-app.js';

export interface DriveOptions {
  /** The session: task, scene, seed, hand... (`app` is the relay). */
  spec: Omit<SessionSpec, 'app' | 'record'>;
  app: BrowserApp;
  /** Ticks per round trip (default 1: closed loop). */
  batch?: number;
  /** Called with each tick's input and the page's output. */
  onTick?(input: TickInput, output: TickOutput): void;
}

export interface DriveResult {
  session: Session;
  relay: BrowserRelay;
  inputs: TickInput[];
  outputs: TickOutput[];
}

export async function driveBrowserApp(options: DriveOptions): Promise<DriveResult> {
  const { session, relay: r } = await createRelayedSession(options.spec, (dt) => new BrowserRelay(dt));
  const batch = Math.max(1, options.batch ?? 1);
  const inputs: TickInput[] = [];
  const outputs: TickOutput[] = [];
  const flush = async () => {
    const sent = r.take();
    if (sent.length === 0) return;
    const got = await options.app.tick(sent);
    r.accept(got);
    sent.forEach((input, i) => options.onTick?.(input, got[i]));
    inputs.push(...sent);
    outputs.push(...got);
  };
  while (!session.done) {
    if (r.inputs.length >= batch) await flush();
    session.step();
  }
  await flush();
  return { session, relay: r, inputs, outputs };
}

/**
 * Where a relayed session comes from: a spec (its app becomes the relay app), or a model built with the
 * relay app ({@link relayAppPath}) as its app, with the session's options (`xrsim replay` rebuilds one from
 * a stream's header).
 */
export type RelayedSessionSource = Omit<SessionSpec, 'app'> | { model: SimModel; options: SessionOptions };

/** Starts a session whose app is the relay `create` makes (given the session's tick length). */
export async function createRelayedSession<R extends BrowserRelay>(source: RelayedSessionSource, create: (dt: number) => R): Promise<{ session: Session; relay: R }> {
  const made: { relay?: R } = {};
  const session = await withRelay(
    (dt) => (made.relay = create(dt)),
    () => ('model' in source ? Session.create(source.model, source.options) : createSession({ ...source, app: relayAppPath() })),
  );
  if (!made.relay) throw new Error('the session did not start the relay app');
  return { session, relay: made.relay };
}

/** The relay app module (relay-app.ts), compiled or not: the `app` of a session that runs a browser app. */
export function relayAppPath(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? fileURLToPath(new URL('../../dist/src/browser/relay-app.js', import.meta.url)) : fileURLToPath(new URL('./relay-app.js', import.meta.url));
}
