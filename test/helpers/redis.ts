/**
 * Real Redis servers for the queue tests (Debian's redis-server, installed by scripts/test-all.sh): each on
 * 127.0.0.1 at a free port, in a temporary folder of its own, without persistence. Plus the `xrsim worker`
 * and `xrsim sweep` processes the tests run against them, and waiting helpers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from './cli.js';

export const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';

/** A running redis-server. */
export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:PORT` (or `rediss://` with TLS), without credentials. */
  url: string;
  dir: string;
  /** Runs a command with redis-cli (authenticated as the server was started) and returns its output. */
  cli(...args: string[]): string;
  /** INFO fields as numbers/strings. */
  info(section?: string): Record<string, string>;
  /** Kills it at once (SIGKILL) and waits for it to exit. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisOptions {
  /** `requirepass`: the default user's password. */
  password?: string;
  /** An ACL user with every right. */
  user?: { name: string; password: string };
  /** Serve TLS only, with these PEM files. */
  tls?: { cert: string; key: string; ca: string };
  /** Listen on this port (to restart a server where another was). */
  port?: number;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a redis-server and waits until it answers. */
export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const dir = tempDir('xrsim-redis-');
  const port = options.port ?? (await freePort());
  const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no'];
  if (options.tls) {
    args.push('--port', '0', '--tls-port', String(port), '--tls-cert-file', options.tls.cert, '--tls-key-file', options.tls.key, '--tls-ca-cert-file', options.tls.ca, '--tls-auth-clients', 'no');
  } else {
    args.push('--port', String(port));
  }
  if (options.password) args.push('--requirepass', options.password);
  if (options.user) args.push('--user', options.user.name, 'on', `>${options.user.password}`, '~*', '&*', '+@all');
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const auth = options.password ? ['-a', options.password, '--no-auth-warning'] : [];
  const tlsArgs = options.tls ? ['--tls', '--cacert', options.tls.ca] : [];
  const cli = (...command: string[]) => {
    const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...tlsArgs, ...auth, ...command], { encoding: 'utf8' });
    return r.stdout.trim();
  };
  for (let i = 0; ; i++) {
    if (/Ready to accept connections/.test(output)) break;
    if (child.exitCode !== null || i > 200) throw new Error(`redis-server did not start on port ${port}: ${output}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const info = (section = 'all') => {
    const fields: Record<string, string> = {};
    for (const line of cli('info', section).split('\n')) {
      const m = /^([\w]+):(.*)$/.exec(line.trim());
      if (m) fields[m[1]] = m[2];
    }
    return fields;
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { port, url: `${options.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`, dir, cli, info, kill, stop };
}

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
