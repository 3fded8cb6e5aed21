/**
 * Writing a sweep's reports to files: JUnit XML and the HTML report (replaying the kept streams of the
 * failed sessions it shows, to plot their decisive quantities). Both read the results in streaming passes,
 * so a million-session sweep is reported in bounded memory.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { XrsimInputError } from '../errors.js';
import type { SessionResult } from '../session/result.js';
import { aggregateResults, type ResultSource } from './aggregate.js';
import { checkOutputFile } from '../output-file.js';
import { HTML_OUTPUT, htmlFromAggregate, traceKey, type FlakyRow } from './html.js';
import type { Ranking } from './rank-section.js';
import { JUNIT_OUTPUT, writeJunit } from './junit.js';
import { traceStream, type ValidatorTrace } from './traces.js';

/** Which reports to write, and where. */
export interface ReportOptions {
  junit?: string;
  html?: string;
  title?: string;
  flaky?: FlakyRow[];
  /** A ranking of candidates to report (`xrsim rank`). */
  ranking?: Ranking;
  /** Replace whatever files are at `junit` and `html` (`--force`); else only reports xrsim wrote, or empty files. */
  force?: boolean;
}

/**
 * Throws bad input unless every report path may be written (src/output-file.ts): call it before the work
 * whose results the reports show, so that a refusal costs nothing. {@link writeReports} checks again.
 */
export function checkReportOutputs(options: Pick<ReportOptions, 'junit' | 'html' | 'force'>): void {
  if (options.junit) checkOutputFile(options.junit, JUNIT_OUTPUT, { option: '--junit', force: options.force });
  if (options.html) checkOutputFile(options.html, HTML_OUTPUT, { option: '--html', force: options.force });
}

/** Writes the requested reports of `results` (a list, or a source such as `() => resultLines(dir)`). */
export function writeReports(results: readonly SessionResult[] | ResultSource, options: ReportOptions): void {
  const source: ResultSource = typeof results === 'function' ? results : () => results;
  const title = options.title ?? 'xrsim sweep';
  checkReportOutputs(options);
  const guard = (path: string, write: () => void) => {
    try {
      write();
    } catch (err) {
      if (err instanceof XrsimInputError) throw err;
      throw new XrsimInputError(`cannot write the report ${path}: ${(err as Error).message}`, { expected: 'a writable path' });
    }
  };
  if (options.junit) guard(options.junit, () => writeJunit(options.junit!, source, title));
  if (options.html) {
    const html = options.html;
    const aggregate = aggregateResults(source);
    // Videos are linked relative to the report, so that the report and the sweep folder move together.
    const linked = new Set<SessionResult>();
    for (const r of [...aggregate.videos, ...aggregate.firstFailures, ...aggregate.worstFailures]) {
      if (!r.video || linked.has(r)) continue;
      linked.add(r);
      r.video = relative(dirname(resolve(html)), resolve(r.video));
    }
    const traces = new Map<string, ValidatorTrace[]>();
    for (const r of [...aggregate.firstFailures, ...aggregate.worstFailures]) {
      if (r.status !== 'failed' || !r.stream || !existsSync(r.stream) || traces.has(traceKey(r))) continue;
      try {
        traces.set(traceKey(r), traceStream(r.stream));
      } catch {
        // A stream that cannot be replayed (damaged, or its programs changed) is reported without plots.
      }
    }
    guard(html, () => writeFileSync(html, htmlFromAggregate(title, aggregate, traces, options.flaky, options.ranking)));
  }
}
