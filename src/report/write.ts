/**
 * Writing a sweep's reports: JUnit XML and the HTML report (which replays the kept streams of failed
 * sessions to plot their decisive quantities).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { XrsimInputError } from '../errors.js';
import type { SessionResult } from '../session/result.js';
import { htmlReport, type FlakyRow } from './html.js';
import type { Ranking } from './rank-section.js';
import { junitXml } from './junit.js';
import { traceStream, type ValidatorTrace } from './traces.js';

/** Which reports to write, and where. */
export interface ReportOptions {
  junit?: string;
  html?: string;
  title?: string;
  flaky?: FlakyRow[];
  /** A ranking of candidates to report (`xrsim rank`). */
  ranking?: Ranking;
}

/** Writes the requested reports of `results`. */
export function writeReports(results: readonly SessionResult[], options: ReportOptions): void {
  const write = (path: string, text: string) => {
    try {
      writeFileSync(path, text);
    } catch (err) {
      throw new XrsimInputError(`cannot write the report ${path}: ${(err as Error).message}`, { expected: 'a writable path' });
    }
  };
  if (options.junit) write(options.junit, junitXml(results, options.title));
  if (options.html) {
    const traces = new Map<number, ValidatorTrace[]>();
    results.forEach((r, i) => {
      if (r.status !== 'failed' || !r.stream || !existsSync(r.stream) || traces.size >= 40) return;
      try {
        traces.set(i, traceStream(r.stream));
      } catch {
        // A stream that cannot be replayed (damaged, or its programs changed) is reported without plots.
      }
    });
    write(options.html, htmlReport({ title: options.title ?? 'xrsim sweep', results, traces, flaky: options.flaky, ranking: options.ranking }));
  }
}
