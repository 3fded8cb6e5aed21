/**
 * The HTML report of a sweep: one self-contained file (inline CSS and SVG, no script, nothing fetched)
 * with the task × hand × scene pass matrix, each milestone's metric histogram against its threshold, the
 * decisive quantities of failed sessions over time, and the flaky table when there is one.
 */
import type { SessionResult } from '../session/result.js';
import { sessionLabel } from './junit.js';
import { rankingSection, type Ranking } from './rank-section.js';
import { histogramSvg, lineSvg } from './svg.js';
import type { ValidatorTrace } from './traces.js';

/** A flaky milestone, as `xrsim flaky` reports it. */
export interface FlakyRow {
  task: string;
  milestone: string;
  /** Sessions (candidates) whose verdict on it differed across runs, and how many were run. */
  flipped: number;
  candidates: number;
  /** Per run of one flipping session: passed, metric and evidence ticks. */
  example: { run: number; passed: boolean; metric: number | null; ticks: number[] }[];
}

/** What the report shows. */
export interface ReportInput {
  title: string;
  results: readonly SessionResult[];
  /** Traces of failed sessions, by the result's position in `results`. */
  traces?: Map<number, ValidatorTrace[]>;
  flaky?: FlakyRow[];
  /** Candidates ranked with confidence (`xrsim rank`): a section of its own (report/rank-section.ts). */
  ranking?: Ranking;
}

const formatMetric = (m: number | null) => (m === null ? 'never' : String(Number(m.toPrecision(4))));
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 28px; } h3 { font-size: 15px; }
table { border-collapse: collapse; margin: 8px 0; } td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: center; }
th { background: #f3f3f3; } td.name { text-align: left; }
.pass { background: #c8e6c9; } .part { background: #fff3b0; } .fail { background: #ffcdd2; } .err { background: #cfd8dc; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; } figure { margin: 0; } figcaption { font-size: 12px; color: #555; max-width: 360px; }
svg .axis { stroke: #888; } svg .tick { font-size: 10px; fill: #555; } svg .bar { fill: #64b5f6; }
svg .threshold { stroke: #d32f2f; stroke-dasharray: 4 3; } svg .mark { stroke: #ff9800; } svg .series { fill: none; stroke: #1565c0; stroke-width: 1.5; }
`;

/** The report as one HTML document. */
export function htmlReport(input: ReportInput): string {
  const { results } = input;
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  const errored = results.filter((r) => r.status === 'errored').length;
  // A ranking report (`xrsim rank --html`) may carry no sessions of its own: then it is the ranking alone.
  const sweep = results.length > 0 || !input.ranking;
  const parts = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(input.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escape(input.title)}</h1>`,
    sweep ? `<p>${results.length} sessions: <strong>${passed} passed</strong>, ${failed} failed, ${errored} errored.</p>` : '',
    input.ranking ? rankingSection(input.ranking) : '',
    sweep ? matrix(results) : '',
    input.flaky ? flakyTable(input.flaky) : '',
    sweep ? histograms(results) : '',
    sweep ? failures(results, input.traces ?? new Map()) : '',
    '</body></html>',
  ];
  return parts.join('\n');
}

/** Rows: task and app; columns: scene × hand; cells: sessions passed over seeds. */
function matrix(results: readonly SessionResult[]): string {
  const rows = [...new Set(results.map((r) => `${r.task}\u0000${r.app ?? ''}`))].sort();
  const cols = [...new Set(results.map((r) => `${r.scene}\u0000${r.hand}`))].sort();
  const cell = (row: string, col: string) => {
    const [task, app] = row.split('\u0000');
    const [scene, hand] = col.split('\u0000');
    const here = results.filter((r) => r.task === task && (r.app ?? '') === app && r.scene === scene && r.hand === hand);
    if (here.length === 0) return '<td></td>';
    const ok = here.filter((r) => r.status === 'passed').length;
    const err = here.filter((r) => r.status === 'errored').length;
    const cls = err === here.length ? 'err' : ok === here.length ? 'pass' : ok === 0 ? 'fail' : 'part';
    return `<td class="${cls}" title="${ok} passed, ${here.length - ok - err} failed, ${err} errored">${ok}/${here.length}${err ? ` (${err} err)` : ''}</td>`;
  };
  const head = cols.map((c) => `<th>${escape(c.split('\u0000').join(' · '))}</th>`).join('');
  const body = rows.map((row) => `<tr><td class="name">${escape(row.split('\u0000').filter(Boolean).join(' · '))}</td>${cols.map((c) => cell(row, c)).join('')}</tr>`).join('\n');
  return `<h2>Pass matrix (sessions passed over seeds)</h2><table><tr><th>task · app</th>${head}</tr>\n${body}</table>`;
}

/** One histogram per task and milestone, over the sessions that measured it. */
function histograms(results: readonly SessionResult[]): string {
  const byMilestone = new Map<string, { values: number[]; never: number; threshold: number; comparison: string }>();
  for (const r of results) {
    for (const m of r.milestones) {
      const key = `${r.task} › ${m.id}`;
      const entry = byMilestone.get(key) ?? { values: [], never: 0, threshold: m.threshold, comparison: m.comparison };
      if (m.metric === null) entry.never++;
      else entry.values.push(m.metric);
      byMilestone.set(key, entry);
    }
  }
  const figures = [...byMilestone].map(([key, e]) => {
    const note = `${e.values.length} sessions${e.never ? `, ${e.never} never measured` : ''}; passes when ${e.comparison} ${e.threshold} (dashed line)`;
    return `<figure>${histogramSvg(e.values, e.threshold, key)}<figcaption><strong>${escape(key)}</strong><br>${escape(note)}</figcaption></figure>`;
  });
  return `<h2>Milestone metrics against their thresholds</h2><div class="charts">${figures.join('\n')}</div>`;
}

/** Failed sessions, each with its failed milestones' quantities over time (when a stream was kept). */
function failures(results: readonly SessionResult[], traces: Map<number, ValidatorTrace[]>): string {
  const failedIndices = results.map((r, i) => (r.status === 'passed' ? -1 : i)).filter((i) => i >= 0);
  if (failedIndices.length === 0) return '<h2>Failed sessions</h2><p>None.</p>';
  const sections = failedIndices.slice(0, 40).map((i) => {
    const r = results[i];
    const head = `<h3>${escape(r.task)} — ${escape(sessionLabel(r))}: ${r.status}</h3>`;
    if (r.status === 'errored') return `${head}<p>${escape(r.error?.kind ?? '')}: ${escape(r.error?.message ?? '')}</p>`;
    const failedMilestones = r.milestones.filter((m) => !m.passed);
    const list = `<p>${failedMilestones.map((m) => `<strong>${escape(m.id)}</strong> metric ${formatMetric(m.metric)} (needed ${m.comparison} ${m.threshold})`).join('; ')}</p>`;
    const charts = (traces.get(i) ?? [])
      .flatMap((t) =>
        t.milestones
          .filter((tm) => failedMilestones.some((m) => m.id === tm.id))
          .map((tm) => {
            const m = failedMilestones.find((f) => f.id === tm.id)!;
            const marks = m.ticks.map((tick) => tick * t.dt);
            return `<figure>${lineSvg(t.points, tm.threshold, marks, `${tm.id}: ${t.formula}`)}<figcaption><strong>${escape(tm.id)}</strong> (${escape(t.formula)}) ${escape(t.description)}<br>dashed: threshold ${tm.threshold}; orange: evidence ticks</figcaption></figure>`;
          }),
      )
      .join('\n');
    return `${head}${list}${charts ? `<div class="charts">${charts}</div>` : '<p>(No stream was kept for this session: run the sweep with --keep-streams failed to plot it.)</p>'}`;
  });
  const more = failedIndices.length > 40 ? `<p>… and ${failedIndices.length - 40} more.</p>` : '';
  return `<h2>Failed and errored sessions</h2>${sections.join('\n')}${more}`;
}

/** The flaky table. */
function flakyTable(rows: FlakyRow[]): string {
  if (rows.length === 0) return '<h2>Flakiness</h2><p>No milestone flipped across runs.</p>';
  const body = rows
    .map((r) => `<tr><td class="name">${escape(r.task)}</td><td class="name">${escape(r.milestone)}</td><td>${r.flipped}/${r.candidates}</td><td class="name">${r.example.map((e) => `run ${e.run}: ${e.passed ? 'pass' : 'fail'} (${formatMetric(e.metric)}; ticks ${e.ticks.join(', ') || '–'})`).join('<br>')}</td></tr>`)
    .join('\n');
  return `<h2>Flaky milestones</h2><table><tr><th>task</th><th>milestone</th><th>flipped</th><th>one flipping session, run by run</th></tr>\n${body}</table>`;
}
