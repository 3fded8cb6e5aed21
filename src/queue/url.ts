/**
 * Queue URLs: `redis://[USER[:PASSWORD]@]HOST[:PORT][/DB]` and `rediss://…` (TLS). The parsed target keeps
 * the credentials apart from everything that is ever printed: {@link QueueTarget.display} is the URL with
 * the password replaced by `***`, and it is the only form of the URL any message, log line or result holds.
 */
import { XrsimInputError } from '../errors.js';

/** Where the queue's Redis is, parsed from a URL. */
export interface QueueTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** `rediss://`: TLS, with the server's certificate checked against Node's trusted CAs (NODE_EXTRA_CA_CERTS adds one). */
  tls: boolean;
  /** The URL as it may be shown: the password, if any, is `***`. */
  display: string;
}

/** What `--queue` expects, for error messages. */
const EXPECTED = 'redis://[USER:PASSWORD@]HOST[:PORT][/DB] or rediss://… for TLS';

/**
 * Parses a queue URL. Bad input (another scheme, a port or database that is not a number, a path, query or
 * fragment) throws {@link XrsimInputError}; the message shows the URL only with its password hidden.
 */
export function parseQueueUrl(text: string): QueueTarget {
  const shown = hidePassword(text);
  const fail = (why: string): never => {
    throw new XrsimInputError(`--queue ${shown}: ${why}`, { expected: EXPECTED });
  };
  if (typeof text !== 'string' || text.trim() === '') fail('no URL given');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') fail(`the scheme must be redis:// or rediss://, not ${url.protocol}//`);
  if (url.hostname === '') fail('no host');
  if (url.search !== '' || url.hash !== '') fail('query strings and fragments are not supported');
  const port = url.port === '' ? 6379 : Number(url.port);
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) fail('the port must be a number from 1 to 65535');
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,5}$/.test(path)) fail('the path must be a database number such as /0');
  let username = '';
  let password = '';
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    fail('the user name or password has a malformed %-escape');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port,
    db: path === '' ? 0 : Number(path),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    tls: url.protocol === 'rediss:',
    display: `${url.protocol}//${username ? `${encodeURIComponent(username)}${password ? ':***' : ''}@` : password ? ':***@' : ''}${url.host}${path ? `/${path}` : ''}`,
  };
}

/**
 * The text with the password of anything shaped like `scheme://user:password@` hidden, for messages about
 * a URL that could not be parsed (and so has no {@link QueueTarget.display}). Everything up to the last `@`
 * is hidden, so a password holding an unescaped `@` or `/` does not leak either.
 */
export function hidePassword(text: string): string {
  return String(text).replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):.*@/i, '$1:***@');
}
