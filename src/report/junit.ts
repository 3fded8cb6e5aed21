/**
 * JUnit XML for CI systems: one test suite per task, one test case per session and milestone. A failed
 * milestone is a <failure> (with its metric, threshold and evidence ticks); an errored session is one
 * <error> test case, since it has no verdict.
 */
import type { SessionResult } from '../session/result.js';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A session's name in reports: `app · scene · seed N · hand`. */
export function sessionLabel(r: SessionResult): string {
  return `${r.app ? `${r.app} · ` : ''}${r.scene} · seed ${r.seed} · ${r.hand} hand`;
}

/** The JUnit XML document of a sweep's results. */
export function junitXml(results: readonly SessionResult[], name = 'xrsim sweep'): string {
  const byTask = new Map<string, SessionResult[]>();
  for (const r of results) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  const cases = (r: SessionResult): { xml: string; failures: number; errors: number; tests: number } => {
    const label = escape(sessionLabel(r));
    if (r.status === 'errored') {
      return { xml: `    <testcase classname="${escape(r.task)}" name="${label}"><error type="${escape(r.error?.kind ?? 'errored')}" message="${escape(r.error?.message ?? '')}"/></testcase>`, failures: 0, errors: 1, tests: 1 };
    }
    const lines = r.milestones.map((m) => {
      const body = m.passed
        ? ''
        : `<failure type="milestone" message="${escape(`${m.id}: metric ${m.metric ?? 'never'}, needed ${m.comparison} ${m.threshold}`)}">${escape(`evidence ticks: ${m.ticks.join(', ') || 'none'}; score ${m.score}`)}</failure>`;
      return `    <testcase classname="${escape(r.task)}" name="${label} › ${escape(m.id)}">${body}</testcase>`;
    });
    return { xml: lines.join('\n'), failures: r.milestones.filter((m) => !m.passed).length, errors: 0, tests: r.milestones.length };
  };
  let total = { tests: 0, failures: 0, errors: 0 };
  const suites = [...byTask].map(([task, rs]) => {
    const parts = rs.map(cases);
    const counts = parts.reduce((a, p) => ({ tests: a.tests + p.tests, failures: a.failures + p.failures, errors: a.errors + p.errors }), { tests: 0, failures: 0, errors: 0 });
    total = { tests: total.tests + counts.tests, failures: total.failures + counts.failures, errors: total.errors + counts.errors };
    return `  <testsuite name="${escape(task)}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}">\n${parts.map((p) => p.xml).join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${escape(name)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}">\n${suites.join('\n')}\n</testsuites>\n`;
}
