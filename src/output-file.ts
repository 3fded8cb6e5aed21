/**
 * Outputs are never clobbered: a file a command is told to write may replace a file only when that file
 * is empty or is the same kind of output that xrsim writes (a stream over a stream, a report over a
 * report), recognised by how xrsim begins it. Anything else of the user's is refused as bad input, unless
 * they say `--force`. Checked before any work starts, so a refusal costs nothing.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { XrsimInputError } from './errors.js';

/** Bytes of an existing file read to recognise it (most xrsim outputs say what they are in fewer). */
const HEAD_BYTES = 64 * 1024;

/** One kind of output: what to call it, and how to recognise a file xrsim wrote as it. */
export interface OutputKind {
  /** What the output is, for messages: `an xrsim stream`, `a JUnit report written by xrsim`. */
  what: string;
  /** True when `head`, the file's first bytes (up to `headBytes`), begins an output of this kind. */
  isOwn(head: Buffer): boolean;
  /** Bytes to read (default 64 KiB): an MP4's metadata follows its sample tables, which grow with its length. */
  headBytes?: number;
}

/** How a path reached the command, for messages, and whether the user asked to replace anything. */
export interface OutputTarget {
  /** The option that named the path (`--out`, `--html`), or the file it derives from. */
  option: string;
  /** `--force`: replace whatever is there (never a folder). */
  force?: boolean;
}

/**
 * Throws {@link XrsimInputError} unless `path` may be written as `kind`: it does not exist, is empty, is
 * not a regular file (a device or a pipe), is already such an output, or `force` is set. A folder is never
 * replaced.
 */
export function checkOutputFile(path: string, kind: OutputKind, target: OutputTarget): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  const refuse = (why: string, expected: string): never => {
    throw new XrsimInputError(`${target.option} ${path}: ${why}`, { file: path, expected });
  };
  if (stat.isDirectory()) refuse('it is a folder', 'a file path');
  // Writing to a device or a pipe (`/dev/null`) destroys nothing stored.
  if (target.force || !stat.isFile() || stat.size === 0) return;
  if (!kind.isOwn(readHead(path, kind.headBytes ?? HEAD_BYTES, target.option))) {
    refuse(`refusing to overwrite an existing file that is not ${kind.what} (use --force to replace it)`, `a new path, an existing file that is ${kind.what}, or --force`);
  }
}

/** The first `bytes` of a file (fewer when it is shorter). */
function readHead(path: string, bytes: number, option: string): Buffer {
  const head = Buffer.alloc(bytes);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return head.subarray(0, readSync(fd, head, 0, bytes, 0));
  } catch (err) {
    throw new XrsimInputError(`${option} ${path}: cannot check what the existing file is before replacing it (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, {
      file: path,
      expected: 'a new path, or a readable file xrsim wrote',
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A kind recognised by the bytes a file starts with. */
export function startsWith(what: string, prefix: string | Buffer): OutputKind {
  const bytes = typeof prefix === 'string' ? Buffer.from(prefix, 'utf8') : prefix;
  return { what, isOwn: (head) => head.length >= bytes.length && head.subarray(0, bytes.length).equals(bytes) };
}
