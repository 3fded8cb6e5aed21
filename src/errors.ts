/**
 * Error types shared by the library and the CLI.
 *
 * The rule: bad input gets a clear error that names the file and the JSON path and says what was expected.
 * The CLI maps {@link XrsimInputError} and {@link StreamDamageError} to exit code 2: a damaged stream is bad
 * input, as a foreign or truncated one is.
 */

/** Exit codes used by every `xrsim` command. */
export const ExitCode = {
  /** Success: milestones passed, streams identical, checks clean. */
  ok: 0,
  /** A check failed: milestones failed, streams diverged. */
  failed: 1,
  /**
   * Bad input: malformed files, unknown ids, bad arguments, foreign, truncated or damaged streams; also a sweep queue
   * whose Redis cannot be reached or refuses the credentials ({@link QueueUnavailableError}).
   */
  badInput: 2,
} as const;

/** Where in which file a problem was found. All fields are optional; the more the better. */
export interface InputLocation {
  /** Path of the offending file, as the user gave it, or a description such as `<inline task>`. */
  file?: string;
  /** JSON path into that file, in `$.a.b[2]` form. */
  jsonPath?: string;
  /** What was expected there, in words. */
  expected?: string;
}

/**
 * Bad input: a malformed or schema-violating scene, task or stream, an unknown id, a bad argument.
 * A session that hits one is `errored`, never `failed`.
 */
export class XrsimInputError extends Error {
  readonly file?: string;
  readonly jsonPath?: string;
  readonly expected?: string;
  /** Stable machine-readable kind, for `--json` output. */
  readonly kind = 'bad-input' as const;

  constructor(message: string, location: InputLocation = {}) {
    super(formatLocated(message, location));
    this.name = 'XrsimInputError';
    this.file = location.file;
    this.jsonPath = location.jsonPath;
    this.expected = location.expected;
  }
}

/** A stream whose chunk, header or footer fails its checksum. Earlier chunks remain readable. */
export class StreamDamageError extends Error {
  readonly kind = 'stream-damage' as const;
  /** Index of the damaged chunk, or -1 when the header or footer is damaged. */
  readonly chunk: number;
  readonly file: string;

  constructor(message: string, file: string, chunk: number) {
    super(`${file}: ${message}`);
    this.name = 'StreamDamageError';
    this.file = file;
    this.chunk = chunk;
  }
}

/**
 * The Redis behind a sweep queue cannot be used: unreachable, refusing the credentials, or lost during a run
 * after its reconnection attempts ran out. The CLI maps it to exit code 2. Its message shows the queue URL
 * only with the password hidden. Results already written are kept.
 */
export class QueueUnavailableError extends Error {
  readonly kind = 'queue-unavailable' as const;

  constructor(message: string) {
    super(message);
    this.name = 'QueueUnavailableError';
  }
}

function formatLocated(message: string, { file, jsonPath, expected }: InputLocation): string {
  let text = '';
  if (file) text += `${file}: `;
  if (jsonPath) text += `at ${jsonPath}: `;
  text += message;
  if (expected) text += ` (expected ${expected})`;
  return text;
}

/** Converts a JSON Pointer such as `/props/2/mass` (ajv's `instancePath`) to `$.props[2].mass`. */
export function pointerToJsonPath(pointer: string): string {
  if (pointer === '' || pointer === '/') return '$';
  let path = '$';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  }
  return path;
}

/** Appends a key or an index to a JSON path built by {@link pointerToJsonPath}. */
export function childPath(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : `${parent}.${key}`;
}

/** The most characters of a thrown value's message (and of its stack) kept in a recorded event. */
export const THROWN_TEXT_LIMIT = 2000;

/**
 * The message and stack of anything code can throw: an Error, a string, a Symbol, `Object.create(null)`,
 * an object whose `toString` or `message` getter throws, a revoked Proxy. Never throws itself. Each text
 * is cut to {@link THROWN_TEXT_LIMIT} characters with a note of how many were dropped.
 */
export function describeThrown(value: unknown): { message: string; stack: string } {
  let message: string | undefined;
  let stack = '';
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    const read = (key: 'message' | 'stack') => {
      try {
        const field = (value as Record<string, unknown>)[key];
        return typeof field === 'string' ? field : undefined;
      } catch {
        return undefined;
      }
    };
    message = read('message');
    stack = read('stack') ?? '';
  }
  message ??= printable(value);
  return { message: capText(message), stack: capText(stack) };
}

/** `String(value)`, or a description when even that throws (a null-prototype object, a throwing toString). */
function printable(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return `${Object.prototype.toString.call(value)} (not convertible to a string)`;
    } catch {
      return `a thrown ${typeof value} that cannot be printed`;
    }
  }
}

function capText(text: string): string {
  return text.length <= THROWN_TEXT_LIMIT ? text : `${text.slice(0, THROWN_TEXT_LIMIT)}… (${text.length - THROWN_TEXT_LIMIT} more characters)`;
}
