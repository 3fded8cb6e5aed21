/**
 * A session worker's stderr, passed on line by line to the pool's own stderr (an app's `console.error`,
 * a warning), except V8's fatal-error report. When a worker runs out of heap, V8 prints its last garbage
 * collections, a JavaScript stack and a native one (forty lines of addresses) and aborts the process: that
 * is the harness's business, not the user's terminal's. The pool reads {@link outOfMemory} when the worker
 * exits and reports the session `errored` (kind `out-of-memory`) instead.
 */
import type { Readable } from 'node:stream';

/** The line V8's report of a fatal error starts with (after a blank line). */
const V8_REPORT_START = /^<--- Last few GCs --->|^FATAL ERROR:|^# Fatal (error|javascript OOM)/;
/** What V8 says when the heap limit was reached. */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Fatal JavaScript out of memory|Reached heap limit/;
/** Bytes of a line without a newline held at most: a longer one is passed on as it is. */
const MAX_PENDING = 64 * 1024;

/** Filters one worker's stderr into `out`. */
export class WorkerStderr {
  /** True once V8 said the heap ran out. */
  outOfMemory = false;
  /** Settles when the worker's stderr has ended (every byte it wrote has been read). */
  readonly ended: Promise<void>;
  private pending = '';
  private blankLines = 0;
  private inReport = false;

  constructor(
    stream: Readable,
    private readonly out: NodeJS.WritableStream = process.stderr,
  ) {
    stream.setEncoding('utf8');
    stream.on('data', (text: string) => this.take(text));
    this.ended = new Promise((resolve) => {
      stream.once('end', () => {
        if (this.pending !== '') this.line(this.pending, false);
        this.pending = '';
        resolve();
      });
      stream.once('error', () => resolve());
    });
  }

  private take(text: string): void {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.line(this.pending + text.slice(start, newline), true);
      this.pending = '';
      start = newline + 1;
    }
    this.pending += text.slice(start);
    if (this.pending.length > MAX_PENDING) {
      this.line(this.pending, false);
      this.pending = '';
    }
  }

  private line(line: string, newline: boolean): void {
    if (!this.inReport && V8_REPORT_START.test(line)) this.inReport = true;
    if (this.inReport) {
      if (OUT_OF_MEMORY.test(line)) this.outOfMemory = true;
      return;
    }
    // Blank lines wait for the next line: V8's report starts with one, which is not the user's either.
    if (line === '' && newline) {
      this.blankLines++;
      return;
    }
    this.out.write(`${'\n'.repeat(this.blankLines)}${line}${newline ? '\n' : ''}`);
    this.blankLines = 0;
  }
}
