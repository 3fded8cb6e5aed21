/**
 * JUnit XML for CI systems: one test suite per task (per task and candidate, for candidate apps given by
 * path: `task · /path/to/candidate/`), one test case per session and milestone. A failed
 * milestone is a <failure> (with its metric, threshold and evidence ticks); an errored session is one
 * <error> test case, since it has no verdict. Written in one streaming pass in bounded memory: each task's
 * test cases are spooled to a temporary file, then the suites are joined under their counts.
 *
 * `time` is in seconds: a session's wall time is shared equally among its test cases, so a suite's time is
 * the sum of its sessions'. Text is escaped for XML 1.0, including the control characters it cannot carry
 * at all (an app's error message may hold `\x1b`), which are written as visible `\x1b` escapes.
 */
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startsWith, type OutputKind } from '../output-file.js';
import type { SessionResult } from '../session/result.js';
import { isAppName } from '../task/types.js';
import type { ResultSource } from './aggregate.js';


/** How xrsim begins a JUnit report: the comment tells a report it may replace from a file of the user's. */
const JUNIT_PREFIX = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- JUnit report written by xrsim -->\n';

/** A JUnit report, as an output that may replace an existing file (src/output-file.ts). */
export const JUNIT_OUTPUT: OutputKind = startsWith('a JUnit report written by xrsim', JUNIT_PREFIX);

/** A session's name in reports: `app · scene · seed N · hand`. */
export function sessionLabel(r: SessionResult): string {
  return `${r.app ? `${r.app} · ` : ''}${r.scene} · seed ${r.seed} · ${r.hand} hand`;
}

/** Text safe in XML 1.0 content and attributes: markup escaped, forbidden characters as `\xHH` / `\uHHHH`. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => {
      const code = c.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    })
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

const seconds = (s: number) => s.toFixed(3);

/** A session's test cases, with their counts. */
function sessionCases(r: SessionResult & { seconds?: number }): { xml: string; tests: number; failures: number; errors: number } {
  const label = xmlEscape(sessionLabel(r));
  const task = xmlEscape(suiteName(r));
  if (r.status === 'errored') {
    const error = `<error type="${xmlEscape(r.error?.kind ?? 'errored')}" message="${xmlEscape(r.error?.message ?? '')}"/>`;
    return { xml: `    <testcase classname="${task}" name="${label}" time="${seconds(r.seconds ?? 0)}">${error}</testcase>\n`, tests: 1, failures: 0, errors: 1 };
  }
  const time = seconds((r.seconds ?? 0) / Math.max(1, r.milestones.length));
  let xml = '';
  let failures = 0;
  for (const m of r.milestones) {
    const body = m.passed
      ? ''
      : `<failure type="milestone" message="${xmlEscape(`${m.id}: metric ${m.metric ?? 'never'}, needed ${m.comparison} ${m.threshold}`)}">${xmlEscape(`evidence ticks: ${m.ticks.join(', ') || 'none'}; score ${m.score}`)}</failure>`;
    if (!m.passed) failures++;
    xml += `    <testcase classname="${task}" name="${label} › ${xmlEscape(m.id)}" time="${time}">${body}</testcase>\n`;
  }
  return { xml, tests: r.milestones.length, failures, errors: 0 };
}

/** A result's test suite: its task, and its candidate when the app was given by path (each candidate a suite). */
function suiteName(r: SessionResult): string {
  return r.app !== null && !isAppName(r.app) ? `${r.task} · ${r.app}` : r.task;
}

interface SuiteSpool {
  /** The suite's name: its task, or `task · candidate`. */
  name: string;
  file: string;
  buffered: string;
  tests: number;
  failures: number;
  errors: number;
  seconds: number;
}

/** Spooled text per suite is written out past this many characters. */
const SPOOL_FLUSH = 1 << 18;

/** Writes the JUnit XML of `source`'s results to `path` in bounded memory. Suites are in name order (task, then candidate). */
export function writeJunit(path: string, source: ResultSource, name = 'xrsim sweep'): void {
  const spoolDir = mkdtempSync(join(tmpdir(), 'xrsim-junit-'));
  try {
    const suites = new Map<string, SuiteSpool>();
    for (const r of source()) {
      const name = suiteName(r);
      let suite = suites.get(name);
      if (!suite) suites.set(name, (suite = { name, file: join(spoolDir, `${suites.size}.xml`), buffered: '', tests: 0, failures: 0, errors: 0, seconds: 0 }));
      const cases = sessionCases(r);
      suite.buffered += cases.xml;
      suite.tests += cases.tests;
      suite.failures += cases.failures;
      suite.errors += cases.errors;
      suite.seconds += r.seconds ?? 0;
      if (suite.buffered.length > SPOOL_FLUSH) flush(suite);
    }
    const ordered = [...suites.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const total = ordered.reduce((t, s) => ({ tests: t.tests + s.tests, failures: t.failures + s.failures, errors: t.errors + s.errors, seconds: t.seconds + s.seconds }), { tests: 0, failures: 0, errors: 0, seconds: 0 });
    const out = openSync(path, 'w');
    try {
      writeSync(out, `${JUNIT_PREFIX}<testsuites name="${xmlEscape(name)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" time="${seconds(total.seconds)}">\n`);
      for (const suite of ordered) {
        flush(suite);
        writeSync(out, `  <testsuite name="${xmlEscape(suite.name)}" tests="${suite.tests}" failures="${suite.failures}" errors="${suite.errors}" time="${seconds(suite.seconds)}">\n`);
        copyInto(out, suite.file);
        writeSync(out, '  </testsuite>\n');
      }
      writeSync(out, '</testsuites>\n');
    } finally {
      closeSync(out);
    }
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
}

/** The JUnit XML document of a list of results, as a string. */
export function junitXml(results: readonly (SessionResult & { seconds?: number })[], name = 'xrsim sweep'): string {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-junit-doc-'));
  try {
    const path = join(dir, 'junit.xml');
    writeJunit(path, () => results, name);
    return readFileSync(path, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function flush(suite: SuiteSpool): void {
  appendFileSync(suite.file, suite.buffered);
  suite.buffered = '';
}

function copyInto(out: number, file: string): void {
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) writeSync(out, chunk, 0, n);
  } finally {
    closeSync(fd);
  }
}
