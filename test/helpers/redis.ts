/**
 * Real Redis servers for the queue tests (Debian's redis-server, installed by scripts/test-all.sh; started
 * by `bench/redis-server.ts`): each on 127.0.0.1 at a free port, in a temporary folder of its own, without
 * persistence. Plus TLS certificates, the `xrsim worker` and `xrsim sweep` processes the tests run
 * against the servers, and waiting helpers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT } from './cli.js';

export const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';

export { freePort, startLocalRedis as startRedis, type LocalRedis as RedisServer, type LocalRedisOptions as RedisOptions } from '../../bench/redis-server.js';

/** A CA and a server certificate for 127.0.0.1, made with openssl. */
export function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const path = (name: string) => join(dir, name);
  const run = (...args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
  };
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=xrsim test CA', '-keyout', 'ca.key', '-out', 'ca.pem');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr');
  writeFileSync(path('san.ext'), 'subjectAltName = IP:127.0.0.1, DNS:localhost\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'san.ext', '-out', 'server.pem');
  return { ca: path('ca.pem'), cert: path('server.pem'), key: path('server.key') };
}

/** A process of the xrsim CLI running in the background, with its output collected. */
export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Exit code (or 128 + signal number's stand-in -1 when killed by a signal). */
  exited: Promise<number>;
}

/** Starts `xrsim ...args` in the background. */
export function startXrsim(args: string[], env: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts an `xrsim worker` on `url` with one session worker and a short lock (so stalled jobs come back fast). */
export function startWorker(url: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Running {
  return startXrsim(['worker', '--queue', url, '--workers', '1', '--lock-seconds', '2', ...extra], env);
}

/** Waits until `ready()` is true (polling), or throws after `seconds`. */
export async function waitUntil(ready: () => boolean, seconds: number, what: string): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Result lines of a sweep folder (empty when there are none yet). */
export function resultLines(out: string): any[] {
  const path = join(out, 'results.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => JSON.parse(l));
}

/** Lines without what differs between runs (wall seconds), sorted by key, for comparing sweeps. */
export function comparable(lines: any[]): string[] {
  return lines.map(({ seconds: _seconds, ...rest }) => JSON.stringify(rest)).sort();
}
