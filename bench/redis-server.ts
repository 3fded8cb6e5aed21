/**
 * A throwaway redis-server (Debian's package) for the queue benchmark and tests: 127.0.0.1, a free port
 * (or the one asked for), a temporary folder of its own, no persistence.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running redis-server. */
export interface LocalRedis {
  port: number;
  /** `redis://127.0.0.1:PORT` (`rediss://` with TLS), without credentials. */
  url: string;
  dir: string;
  /** Runs a command with redis-cli (authenticated as the server was started) and returns its output. */
  cli(...args: string[]): string;
  /** The fields of INFO `section`. */
  info(section?: string): Record<string, string>;
  /** Kills it at once (SIGKILL) and waits for it to exit. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalRedisOptions {
  /** `requirepass`: the default user's password. */
  password?: string;
  /** An ACL user, with every right unless `rules` says which (ACL rules such as `~bull:*`, `+@all`). */
  user?: { name: string; password: string; rules?: string[] };
  /** Turn the default user off (`user default off`), so only `user` can connect. */
  defaultUserOff?: boolean;
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

/** Starts a redis-server and waits until it accepts connections. */
export async function startLocalRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-redis-'));
  const port = options.port ?? (await freePort());
  const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no'];
  if (options.tls) {
    args.push('--port', '0', '--tls-port', String(port), '--tls-cert-file', options.tls.cert, '--tls-key-file', options.tls.key, '--tls-ca-cert-file', options.tls.ca, '--tls-auth-clients', 'no');
  } else {
    args.push('--port', String(port));
  }
  if (options.password) args.push('--requirepass', options.password);
  if (options.user) args.push('--user', options.user.name, 'on', `>${options.user.password}`, ...(options.user.rules ?? ['~*', '&*', '+@all']));
  if (options.defaultUserOff) args.push('--user', 'default', 'off');
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const spawnFailed = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const auth = options.defaultUserOff && options.user
    ? ['--user', options.user.name, '--pass', options.user.password, '--no-auth-warning']
    : options.password ? ['-a', options.password, '--no-auth-warning'] : [];
  const tlsArgs = options.tls ? ['--tls', '--cacert', options.tls.ca] : [];
  const cli = (...command: string[]) => spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...tlsArgs, ...auth, ...command], { encoding: 'utf8' }).stdout.trim();
  for (let i = 0; !/Ready to accept connections/.test(output); i++) {
    const failed = await Promise.race([spawnFailed, new Promise<null>((r) => setTimeout(() => r(null), 25))]);
    if (failed) throw new Error(`cannot start redis-server (${failed.message}): install Debian's redis-server (npm run test:all does)`);
    if (child.exitCode !== null || i > 400) throw new Error(`redis-server did not start on port ${port}: ${output}`);
  }
  const info = (section = 'all') => {
    const fields: Record<string, string> = {};
    for (const line of cli('info', section).split('\n')) {
      const m = /^(\w+):(.*)$/.exec(line.trim());
      if (m) fields[m[1]] = m[2];
    }
    return fields;
  };
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return { port, url: `${options.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`, dir, cli, info, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
