/**
 * An app module that hands each session's frames to a `BrowserRelay` (phase 1: how a browser app runs
 * inside an in-process `Session` without changes to the session). `claimRelays` says which relay the next
 * sessions get; the registry lives on `globalThis`, so this module works however it was loaded.
 */
import type { AppContext, XrFrameLike } from '../app/types.js';
import { BrowserRelay } from './relay.js';

type Claim = (dt: number) => BrowserRelay;
const KEY = Symbol.for('xrsim.browser-relay-claims');
const claims: Claim[] = ((globalThis as Record<symbol, unknown>)[KEY] ??= []) as Claim[];

/** Runs `create` with `claim` giving the relay of the session it creates (sessions are created one at a time). */
export async function withRelay<T>(claim: Claim, create: () => Promise<T>): Promise<T> {
  claims.push(claim);
  try {
    return await create();
  } finally {
    const i = claims.indexOf(claim);
    if (i >= 0) claims.splice(i, 1);
  }
}

export function setup(ctx: AppContext): void {
  const claim = claims.shift();
  if (!claim) throw new Error('relay-app: no browser relay was offered for this session (use withRelay)');
  ctx.state.relay = claim(ctx.dt);
}

export function frame(xr: XrFrameLike, ctx: AppContext): void {
  (ctx.state.relay as BrowserRelay).module().frame(xr, ctx);
}
