/**
 * Connecting to the queue's Redis. At start, {@link probeRedis} connects once, with no retries, so an
 * unreachable server, wrong credentials or a missing database are a clear error before anything runs.
 * During a run, {@link redisOptions} gives BullMQ's connections a bounded reconnection policy: backoff
 * from 250 ms doubling to 5 s, for at most `reconnectSeconds` in all, after which `onGiveUp` is called and
 * the connection ends. Every message names the server by {@link QueueTarget.display} (password hidden) and
 * passes through {@link scrub}, so credentials never reach a log, a result or a report.
 */
import type { Redis } from 'ioredis';
import { QueueUnavailableError, XrsimInputError } from '../errors.js';
import type { QueueTarget } from './url.js';

/** Default seconds a connection lost during a run keeps trying to come back. */
export const DEFAULT_RECONNECT_SECONDS = 60;
/** Seconds to wait for a TCP (and TLS) connection. */
const CONNECT_TIMEOUT_MS = 10_000;
/** BullMQ's minimum Redis version. */
const MIN_REDIS_MAJOR = 5;

/** Checks a reconnection window in seconds. */
export function checkReconnectSeconds(seconds: number | undefined): number {
  const value = seconds ?? DEFAULT_RECONNECT_SECONDS;
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) throw new XrsimInputError(`the queue's reconnection window must be a number of seconds ≥ 0, got ${value}`, { expected: 'seconds, such as 60' });
  return value;
}

/** The delay before reconnection attempt `times` (1-based), or null once `windowMs` of delays are spent. */
export function reconnectDelay(times: number, windowMs: number): number | null {
  let spent = 0;
  for (let attempt = 1; attempt <= times; attempt++) {
    const delay = Math.min(250 * 2 ** (attempt - 1), 5000);
    if (spent + delay > windowMs) return null;
    if (attempt === times) return delay;
    spent += delay;
  }
  return null;
}

/** ioredis options, as both ioredis and BullMQ type them. */
export interface QueueConnectionOptions {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  connectTimeout: number;
  maxRetriesPerRequest: null;
  retryStrategy(times: number): number | null;
}

/**
 * ioredis options for BullMQ's connections to `target`. `onGiveUp` is called (with the attempts made) when
 * a lost connection stops trying; the connection then ends and its pending commands fail.
 */
export function redisOptions(target: QueueTarget, reconnectSeconds: number, onGiveUp: (attempts: number) => void): QueueConnectionOptions {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Commands wait while a connection comes back; the window below bounds how long.
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => {
      const delay = reconnectDelay(times, reconnectSeconds * 1000);
      if (delay === null) onGiveUp(times - 1);
      return delay;
    },
  };
}

/**
 * Connects once to `target`, authenticates, selects its database and checks the server's version, then
 * runs `then` on the connection, if given. Throws {@link QueueUnavailableError} with the reason when any of
 * that fails. Returns what `then` returned.
 */
export async function probeRedis<T = void>(target: QueueTarget, then?: (client: Redis) => Promise<T>, timeoutMs = CONNECT_TIMEOUT_MS): Promise<T> {
  const { Redis } = await import('ioredis');
  const client = new Redis({
    ...redisOptions(target, 0, () => {}),
    db: 0, // selected below, where a missing database is an error rather than a warning
    lazyConnect: true,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  const errors: Error[] = [];
  client.on('error', (err: Error) => errors.push(err));
  try {
    await client.connect();
    await client.select(target.db);
    const info = await client.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? '0';
    if (Number(version.split('.')[0]) < MIN_REDIS_MAJOR) {
      throw new QueueUnavailableError(`Redis at ${target.display} is version ${version}; BullMQ needs ${MIN_REDIS_MAJOR}.0 or later`);
    }
    return (await then?.(client)) as T;
  } catch (err) {
    if (err instanceof QueueUnavailableError) throw err;
    throw new QueueUnavailableError(scrub(`cannot use Redis at ${target.display}: ${explain(errors[errors.length - 1] ?? (err as Error), target)}`, target));
  } finally {
    client.disconnect();
  }
}

/** Why a connection failed, in words, from ioredis's and Node's errors. */
export function explain(err: Error, target: QueueTarget): string {
  const code = (err as { code?: string }).code;
  const message = String(err?.message ?? err);
  if (code === 'ECONNREFUSED') return 'connection refused (is redis-server running and listening on that host and port?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `unknown host ${target.host}`;
  if (code === 'ETIMEDOUT') return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s${target.tls ? ' (is it a TLS port? rediss:// needs one, redis:// a plain one)' : ''}`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `the server closed the connection${target.tls ? ' (is it a TLS port?)' : ' (does it expect TLS? use rediss://)'}`;
  if (/^WRONGPASS/.test(message)) return 'it refused the user name or password (WRONGPASS)';
  if (/^NOAUTH/.test(message)) return 'it requires a password: give it in the URL (redis://:PASSWORD@HOST:PORT) or in XRSIM_QUEUE_PASSWORD';
  if (/DB index is out of range/.test(message)) return `it has no database ${target.db}`;
  if (/certificate|SSL|TLS|self.signed|CERT_/i.test(message) || (code !== undefined && /^ERR_TLS|CERT|SSL/.test(code))) {
    return `the TLS handshake failed (${message}); a private CA is trusted with NODE_EXTRA_CA_CERTS=ca.pem`;
  }
  return message;
}

/** The text with the target's password (and its URL-encoded form) replaced by `***`. */
export function scrub(text: string, target: QueueTarget): string {
  let out = text;
  for (const secret of [target.password, target.password && encodeURIComponent(target.password)]) {
    if (secret && secret.length > 0) out = out.split(secret).join('***');
  }
  return out;
}
