/**
 * The HTML report of a sweep: one self-contained file (inline CSS and SVG, no script, nothing fetched)
 * that aggregates instead of listing every session, so a sweep of a million sessions gives a page a
 * browser opens at once: the task × scene × hand pass matrix, each milestone's pass rate and metric
 * histogram against its threshold, errors by kind, the slowest sessions, the first and the worst failures
 * in full (with their decisive quantities over time, when their streams were kept), and the flaky table.
 */
import { startsWith, type OutputKind } from '../output-file.js';
import type { SessionResult } from '../session/result.js';
import { isAppName } from '../task/types.js';
import { aggregateResults, type ResultSource, type SweepAggregate } from './aggregate.js';
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
  /** The results (a list, or a source read in streaming passes; see `aggregate.ts`). */
  results: readonly SessionResult[] | ResultSource;
  /** Traces of failed sessions shown in full, by {@link traceKey}. */
  traces?: Map<string, ValidatorTrace[]>;
  flaky?: FlakyRow[];
  /** Candidates ranked with confidence (`xrsim rank`): a section of its own (report/rank-section.ts). */
  ranking?: Ranking;
}

/** How traces are looked up for a session. */
export const traceKey = (r: SessionResult) => `${r.task}\u0000${r.app ?? ''}\u0000${r.scene}\u0000${r.seed}\u0000${r.hand}`;

const formatMetric = (m: number | null) => (m === null ? 'never' : String(Number(m.toPrecision(4))));
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(part === whole || part === 0 ? 0 : 1)}%`);

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
  const source: ResultSource = typeof input.results === 'function' ? input.results : () => input.results as readonly SessionResult[];
  return htmlFromAggregate(input.title, aggregateResults(source), input.traces ?? new Map(), input.flaky, input.ranking);
}

/** How xrsim begins an HTML report: the generator tells a report it may replace from a page of the user's. */
const HTML_PREFIX = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="generator" content="xrsim">';

/** An HTML report, as an output that may replace an existing file (src/output-file.ts). */
export const HTML_OUTPUT: OutputKind = startsWith('an HTML report written by xrsim', HTML_PREFIX);

/** The report from already aggregated results. */
export function htmlFromAggregate(title: string, agg: SweepAggregate, traces: Map<string, ValidatorTrace[]>, flaky?: FlakyRow[], ranking?: Ranking): string {
  // A ranking report (`xrsim rank --html`) may carry no sessions of its own: then it is the ranking alone.
  const sweep = agg.sessions > 0 || !ranking;
  const parts = [
    `${HTML_PREFIX}<title>${escape(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escape(title)}</h1>`,
    sweep ? `<p>${agg.sessions} sessions: <strong>${agg.passed} passed</strong>, ${agg.failed} failed, ${agg.errored} errored${agg.seconds > 0 ? `; ${agg.seconds.toFixed(1)} s of session time` : ''}.</p>` : '',
    ranking ? rankingSection(ranking) : '',
    sweep ? candidates(agg) : '',
    sweep ? matrix(agg) : '',
    flaky ? flakyTable(flaky) : '',
    sweep ? milestoneTable(agg) : '',
    sweep ? agg.design.html(escape) : '',
    sweep ? histograms(agg) : '',
    sweep ? errors(agg) : '',
    sweep ? failures('First failed and errored sessions', agg.firstFailures, agg.failed + agg.errored, traces) : '',
    sweep && worstNotListed(agg).length ? failures('Lowest-scoring failed sessions', worstNotListed(agg), agg.failed, traces) : '',
    sweep ? videoSection(agg) : '',
    sweep ? slowest(agg) : '',
    '</body></html>',
  ];
  return parts.join('\n');
}

/**
 * With candidate apps given by path (as JUnit groups them), each app's sessions and Pass@1: the tasks of
 * which every session passed. A sweep of a task's own apps has its matrix rows for that.
 */
function candidates(agg: SweepAggregate): string {
  if (![...agg.apps.keys()].some((app) => app !== '' && !isAppName(app))) return '';
  const rows = [...agg.apps]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([app, c]) => {
      const passedTasks = [...c.tasks.values()].filter(Boolean).length;
      return `<tr><td class="name">${escape(app || '(no app)')}</td><td>${c.passed}/${c.sessions}</td><td>${passedTasks}/${c.tasks.size}</td></tr>`;
    });
  return `<h2>Candidates</h2><table><tr><th>app</th><th>sessions passed</th><th>Pass@1 (tasks with every session passed)</th></tr>\n${rows.join('\n')}</table>`;
}

/** Rows: task and app; columns: scene × hand; cells: sessions passed over seeds. */
function matrix(agg: SweepAggregate): string {
  const cell = (row: string, column: string) => {
    const c = agg.cells.get(row)?.get(column);
    if (!c) return '<td></td>';
    const n = c.passed + c.failed + c.errored;
    const cls = c.errored === n ? 'err' : c.passed === n ? 'pass' : c.passed === 0 ? 'fail' : 'part';
    return `<td class="${cls}" title="${c.passed} passed, ${c.failed} failed, ${c.errored} errored">${c.passed}/${n}${c.errored ? ` (${c.errored} err)` : ''}</td>`;
  };
  const head = agg.columns.map((c) => `<th>${escape(c)}</th>`).join('');
  const body = agg.rows.map((row) => `<tr><td class="name">${escape(row)}</td>${agg.columns.map((c) => cell(row, c)).join('')}</tr>`).join('\n');
  return `<h2>Pass matrix (sessions passed over seeds)</h2><table><tr><th>task · app</th>${head}</tr>\n${body}</table>`;
}

function milestoneTable(agg: SweepAggregate): string {
  if (agg.milestones.length === 0) return '';
  const rows = agg.milestones.map((m) => `<tr><td class="name">${escape(m.task)}</td><td class="name">${escape(m.milestone)}</td><td>${m.passed}/${m.sessions}</td><td>${percent(m.passed, m.sessions)}</td><td>${m.never}</td></tr>`);
  return `<h2>Milestones</h2><table><tr><th>task</th><th>milestone</th><th>passed</th><th>pass rate</th><th>never measured</th></tr>\n${rows.join('\n')}</table>`;
}

/** One histogram per task and milestone, over the sessions that measured it. */
function histograms(agg: SweepAggregate): string {
  const figures = agg.milestones.map((m) => {
    const key = `${m.task} › ${m.milestone}`;
    const measured = m.sessions - m.never;
    const note = `${measured} sessions${m.never ? `, ${m.never} never measured` : ''}; passes when ${m.comparison} ${m.threshold} (dashed line)`;
    return `<figure>${histogramSvg(m.histogram, m.threshold, key)}<figcaption><strong>${escape(key)}</strong><br>${escape(note)}</figcaption></figure>`;
  });
  return `<h2>Milestone metrics against their thresholds</h2><div class="charts">${figures.join('\n')}</div>`;
}

function errors(agg: SweepAggregate): string {
  if (agg.errored === 0) return '';
  const rows = [...agg.erroredByKind].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, n]) => `<tr><td class="name">${escape(kind)}</td><td>${n}</td></tr>`);
  return `<h2>Errored sessions by kind</h2><table><tr><th>kind</th><th>sessions</th></tr>\n${rows.join('\n')}</table>`;
}

/** Failed sessions in full, each with its failed milestones' quantities over time (when a stream was kept). */
function failures(heading: string, shown: readonly SessionResult[], total: number, traces: Map<string, ValidatorTrace[]>): string {
  if (total === 0) return `<h2>${escape(heading)}</h2><p>None.</p>`;
  const sections = shown.map((r) => {
    const head = `<h3>${escape(r.task)} — ${escape(sessionLabel(r))}: ${r.status}</h3>${r.video ? videoTag(r.video) : ''}`;
    if (r.status === 'errored') return `${head}<p>${escape(r.error?.kind ?? '')}: ${escape(r.error?.message ?? '')}</p>`;
    const failedMilestones = r.milestones.filter((m) => !m.passed);
    const list = `<p>score ${r.score.toFixed(2)}; ${failedMilestones.map((m) => `<strong>${escape(m.id)}</strong> metric ${formatMetric(m.metric)} (needed ${m.comparison} ${m.threshold})`).join('; ')}</p>`;
    const charts = (traces.get(traceKey(r)) ?? [])
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
  const more = total > shown.length ? `<p>${shown.length} of ${total} shown.</p>` : '';
  return `<h2>${escape(heading)}</h2>${more}${sections.join('\n')}`;
}

/** The worst failures that the first-failures section does not already show. */
function worstNotListed(agg: SweepAggregate): SessionResult[] {
  const listed = new Set(agg.firstFailures.map(traceKey));
  return agg.worstFailures.filter((r) => !listed.has(traceKey(r)));
}

/**
 * A session's video, by a path relative to the report (`writeReports` makes it so), so the report and the
 * sweep folder move together.
 */
function videoTag(path: string): string {
  const href = path.split(/[\\/]/).map(encodeURIComponent).join('/');
  return `<video src="${escape(href)}" controls muted preload="metadata" width="320" height="240"></video>`;
}

/** The sessions' videos (`sweep --videos`), first by identity. */
function videoSection(agg: SweepAggregate): string {
  if (agg.videoCount === 0) return '';
  const figures = agg.videos.map((r) => `<figure>${videoTag(r.video!)}<figcaption><strong>${escape(r.task)}</strong> — ${escape(sessionLabel(r))}: ${r.status}</figcaption></figure>`);
  const more = agg.videoCount > agg.videos.length ? `<p>${agg.videos.length} of ${agg.videoCount} shown; every video sits beside its stream in streams/.</p>` : '';
  return `<h2>Session videos</h2>${more}<div class="charts">${figures.join('\n')}</div>`;
}

function slowest(agg: SweepAggregate): string {
  if (agg.slowest.length === 0) return '';
  const rows = agg.slowest.map((r) => `<tr><td class="name">${escape(r.task)} — ${escape(sessionLabel(r))}</td><td>${(r.seconds ?? 0).toFixed(2)} s</td><td>${r.status}</td></tr>`);
  return `<h2>Slowest sessions</h2><table><tr><th>session</th><th>wall time</th><th>status</th></tr>\n${rows.join('\n')}</table>`;
}

/** The flaky table. */
function flakyTable(rows: FlakyRow[]): string {
  if (rows.length === 0) return '<h2>Flakiness</h2><p>No milestone flipped across runs.</p>';
  const body = rows
    .map((r) => `<tr><td class="name">${escape(r.task)}</td><td class="name">${escape(r.milestone)}</td><td>${r.flipped}/${r.candidates}</td><td class="name">${r.example.map((e) => `run ${e.run}: ${e.passed ? 'pass' : 'fail'} (${formatMetric(e.metric)}; ticks ${e.ticks.join(', ') || '–'})`).join('<br>')}</td></tr>`)
    .join('\n');
  return `<h2>Flaky milestones</h2><table><tr><th>task</th><th>milestone</th><th>flipped</th><th>one flipping session, run by run</th></tr>\n${body}</table>`;
}
