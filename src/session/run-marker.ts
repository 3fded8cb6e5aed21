/**
 * The running-job marker: how a pool knows which session a worker was running when it hung or died, while
 * the worker answers short sessions in batches (one reply for many). Before each job the worker writes the
 * job's id and its start time (wall-clock milliseconds, harness time) into 16 bytes of a small file that
 * the pool opened and handed it as an extra file descriptor; the pool reads them only when a deadline
 * passes or the worker is gone. A write per job costs one `pwrite`, far less than a message.
 *
 * The file is removed from its folder as soon as it is open (Linux keeps it while a descriptor is open), so
 * nothing is left behind, even by a killed pool.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The worker's argument naming the descriptor it writes its marker to. */
export const RUN_MARKER_ARG = '--run-marker-fd=';
const BYTES = 16;

/** What a marker says: the id of the job the worker started last, and when (0 and NaN before any). */
export interface RunMark {
  id: number;
  startedAt: number;
}

let created = 0;

/** The pool's end of one worker's marker. */
export class RunMarker {
  private readonly buffer = new Float64Array(2);
  private closed = false;
  private constructor(readonly fd: number) {}

  /** A fresh marker file, or null when none can be made (the worker then answers every job at once). */
  static create(): RunMarker | null {
    const path = join(tmpdir(), `xrsim-run-marker-${process.pid}-${++created}-${randomBytes(6).toString('hex')}`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch {
      return null;
    }
    try {
      unlinkSync(path);
    } catch {
      closeSync(fd);
      return null;
    }
    writeSync(fd, new Float64Array([0, NaN]), 0, BYTES, 0);
    return new RunMarker(fd);
  }

  /** The job the worker started last. */
  read(): RunMark {
    if (this.closed) return { id: 0, startedAt: NaN };
    const bytes = new Uint8Array(this.buffer.buffer);
    bytes.fill(0);
    try {
      readSync(this.fd, bytes, 0, BYTES, 0);
    } catch {
      return { id: 0, startedAt: NaN };
    }
    return { id: this.buffer[0], startedAt: this.buffer[1] };
  }

  /** Closes the pool's descriptor, once: closing a number twice could close a file opened since under it. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/**
 * The worker's end: a function that marks a job as started, or null when the pool passed no marker. Uses
 * functions captured now: a session may replace `fs` methods or `Date.now`.
 */
export function runMarkerWriter(argv: readonly string[]): ((id: number) => void) | null {
  const arg = argv.find((a) => a.startsWith(RUN_MARKER_ARG));
  if (!arg) return null;
  const fd = Number(arg.slice(RUN_MARKER_ARG.length));
  const write = writeSync;
  const wallClock = Date.now;
  const mark = new Float64Array(2);
  const bytes = new Uint8Array(mark.buffer);
  return (id) => {
    mark[0] = id;
    mark[1] = wallClock();
    write(fd, bytes, 0, BYTES, 0);
  };
}
