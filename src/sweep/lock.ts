/**
 * One sweep per output folder at a time. A second sweep started on the same `--out` while the first runs
 * would run every remaining session twice; it is refused instead. The lock is a file holding the owner's
 * host and pid. A lock left by a sweep that was killed (its process is gone) is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { XrsimInputError } from '../errors.js';

/** The lock file's name in a sweep folder. */
export const LOCK_FILE = '.xrsim-sweep.lock';

interface LockOwner {
  host: string;
  pid: number;
  started: string;
}

/** Takes the folder's lock, or throws bad input naming the sweep that holds it. Returns the release function. */
export function lockSweepFolder(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  const me: LockOwner = { host: hostname(), pid: process.pid, started: new Date().toISOString() }; // xrsim-allow-clock: shown to users only
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${JSON.stringify(me)}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new XrsimInputError(`cannot write to --out ${dir}: ${(err as Error).message}`, { expected: 'a writable folder' });
    }
    const owner = readOwner(path);
    if (owner ? isAlive(owner) : justCreated(path)) {
      const who = owner ? `pid ${owner.pid} on ${owner.host}, started ${owner.started}` : 'starting now';
      throw new XrsimInputError(`--out ${dir} is in use by another sweep (${who}); nothing was run`, {
        file: path,
        expected: `wait for that sweep to finish, or use another --out folder (if no sweep is running there, delete ${path})`,
      });
    }
    // Left by a sweep that no longer runs: take it over.
    rmSync(path, { force: true });
  }
  throw new XrsimInputError(`--out ${dir}: another sweep took the folder's lock at the same moment; nothing was run`, { file: path, expected: 'one sweep per --out folder' });
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null; // half written by an owner that was killed at that moment, or gone already
  }
}

/** A lock file without an owner yet is one another sweep is writing right now. */
function justCreated(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < 10_000; // xrsim-allow-clock: age of a lock file, harness only
  } catch {
    return false;
  }
}

/** A lock from another host cannot be checked: it counts as held. */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
