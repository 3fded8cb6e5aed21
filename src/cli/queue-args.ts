/**
 * The queue options `xrsim sweep --queue` and `xrsim worker` share, and the password that may come from
 * the environment (`XRSIM_QUEUE_PASSWORD`) rather than the command line, where every user of the machine
 * can read it in the process list.
 */
import { XrsimInputError } from '../errors.js';
import { hidePassword } from '../queue/url.js';
import { parseNumberArg, type OptionSpec } from './command.js';

/** The environment variable a queue password may come from. */
export const QUEUE_PASSWORD_ENV = 'XRSIM_QUEUE_PASSWORD';

/** Options both commands take. */
export const QUEUE_OPTIONS: OptionSpec = {
  queue: { type: 'string' },
  'queue-name': { type: 'string' },
  'queue-reconnect': { type: 'string' },
};

/** Help lines for {@link QUEUE_OPTIONS}. */
export const QUEUE_HELP = `  --queue URL         the queue's Redis: redis://[USER[:PASSWORD]@]HOST[:PORT][/DB], or rediss://…
                      for TLS (a private CA is trusted with NODE_EXTRA_CA_CERTS=ca.pem). Give the
                      password in ${QUEUE_PASSWORD_ENV} to keep it out of the process list
  --queue-name NAME   the queue's name (default xrsim); coordinator and workers must agree
  --queue-reconnect S seconds a lost Redis connection keeps trying to come back (default 60)`;

/** The queue URL from `--queue`, with the password from the environment when the URL has none. */
export function queueUrlArg(text: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (text === undefined) throw new XrsimInputError('--queue URL is required', { expected: 'redis://HOST:PORT' });
  const password = env[QUEUE_PASSWORD_ENV];
  if (!password) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text; // parseQueueUrl reports it
  }
  if (url.password) throw new XrsimInputError(`--queue ${hidePassword(text)} has a password and ${QUEUE_PASSWORD_ENV} is set too: give it once`);
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** `--queue-reconnect S`: seconds ≥ 0. */
export function reconnectArg(text: string | undefined): number | undefined {
  if (text === '0') return 0;
  return parseNumberArg('queue-reconnect', text, false);
}
