/**
 * The ranking section of the HTML report (`xrsim rank --html`), and the shape of a ranking, which
 * `rankSweeps` (sweep/rank.ts) computes: candidates with bootstrap intervals, pairwise win probabilities and
 * rank frequencies, and each task's means.
 */

/**
 * The metric that orders candidates: partial credit (fraction of milestones passed), binary full pass (the
 * share of sessions passed), Pass@1 (the share of tasks of which every session passed), or the design score
 * (1–5, the mean of the design heuristics; over the tasks whose sessions have one).
 */
export type RankMetric = 'partial' | 'full-pass' | 'pass@1' | 'design';

/** A mean with its 95 % bootstrap interval. */
export interface Estimate {
  mean: number;
  ci95: [number, number];
}

/** One candidate's standing. */
export interface CandidateRank {
  name: string;
  /** 1 for the best mean under the ranking metric (equal means share a rank). */
  rank: number;
  /** Sessions scored (those every candidate ran), and how many of them errored (scored 0). */
  sessions: number;
  errored: number;
  partial: Estimate;
  fullPass: Estimate;
  /** The share of tasks of which every session passed, with its interval over resampled tasks. */
  passAt1: Estimate;
  /** How many tasks every session of which passed. */
  tasksPassed: number;
  /** The design score (1–5) over the tasks with apps, or null when no session has one. An errored session scores 1. */
  design: Estimate | null;
  /** Fraction of resamples in which it ranks first (ties share), and in the top three. */
  rankFirst: number;
  topThree: number;
}

/** A task's mean scores, per candidate in the ranking's `candidates` order. */
export interface TaskMeans {
  task: string;
  sessions: number;
  partial: number[];
  fullPass: number[];
  /** Per candidate, whether every session of the task passed (what Pass@1 counts). */
  passed: boolean[];
  /** Per candidate, the task's mean design score, or null for a task without design reports (no apps). */
  design: number[] | null;
}

/** What `rankSweeps` returns. Candidates are listed best first. */
export interface Ranking {
  metric: RankMetric;
  resamples: number;
  seed: number;
  candidates: CandidateRank[];
  /**
   * `wins[i][j]`: the fraction of resamples in which candidate i (in `candidates` order) scores higher than
   * candidate j under the ranking metric, ties counting half. The diagonal is 0.5.
   */
  wins: number[][];
  tasks: TaskMeans[];
  /** Per candidate name, sessions that not every candidate ran (left out of the scores). */
  unmatched: Record<string, number>;
}

/** How each metric is named in sentences. */
export const METRIC_NAMES: Record<RankMetric, string> = { partial: 'partial credit', 'full-pass': 'full pass', 'pass@1': 'Pass@1', design: 'design score' };

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const score = (x: number) => x.toFixed(3);

/** An interval drawn on a 0–1 scale (or `lo`–`hi`), with its mean marked. */
function intervalBar(e: Estimate, lo = 0, hi = 1): string {
  const x = (v: number) => (4 + ((v - lo) / (hi - lo)) * 192).toFixed(1);
  return `<svg width="200" height="14" role="img" aria-label="${score(e.ci95[0])} to ${score(e.ci95[1])}"><line class="axis" x1="4" y1="7" x2="196" y2="7"/><rect class="bar" x="${x(e.ci95[0])}" y="3" width="${Math.max(1, Number(x(e.ci95[1])) - Number(x(e.ci95[0]))).toFixed(1)}" height="8"/><line class="mark" x1="${x(e.mean)}" y1="1" x2="${x(e.mean)}" y2="13"/></svg>`;
}

/** The ranking as an HTML section: candidates, pairwise wins, per-task means. */
export function rankingSection(ranking: Ranking): string {
  const names = ranking.candidates.map((c) => escape(c.name));
  const est = (e: Estimate, lo = 0, hi = 1) => `${score(e.mean)} <small>[${score(e.ci95[0])}, ${score(e.ci95[1])}]</small><br>${intervalBar(e, lo, hi)}`;
  const design = ranking.candidates.some((c) => c.design);
  const candidates = ranking.candidates
    .map((c) => `<tr><td>${c.rank}</td><td class="name">${escape(c.name)}</td><td>${est(c.partial)}</td><td>${est(c.fullPass)}</td><td>${est(c.passAt1)}<br><small>${c.tasksPassed} of ${ranking.tasks.length} tasks</small></td>${design ? `<td>${c.design ? est(c.design, 1, 5) : '–'}</td>` : ''}<td>${pct(c.rankFirst)}</td><td>${pct(c.topThree)}</td><td>${c.sessions}${c.errored ? ` (${c.errored} errored)` : ''}</td></tr>`)
    .join('\n');
  const wins = ranking.wins.map((row, i) => `<tr><td class="name">${names[i]}</td>${row.map((w, j) => `<td>${i === j ? '–' : pct(w)}</td>`).join('')}</tr>`).join('\n');
  const tasks = ranking.tasks.map((t) => `<tr><td class="name">${escape(t.task)}</td><td>${t.sessions}</td>${t.partial.map((p, i) => `<td>${score(p)} / ${score(t.fullPass[i])}${t.passed[i] ? ' ✓' : ''}</td>`).join('')}</tr>`).join('\n');
  const metric = METRIC_NAMES[ranking.metric];
  const unmatched = Object.entries(ranking.unmatched).filter(([, n]) => n > 0);
  return [
    `<h2>Ranking</h2>`,
    `<p>Each candidate's score is the mean over ${ranking.tasks.length} tasks of its mean session score. Intervals are 95 % percentile intervals of ${ranking.resamples} task-stratified bootstrap resamples (seed ${ranking.seed}); candidates are ordered by ${metric}.</p>`,
    `<table><tr><th>rank</th><th>candidate</th><th>partial credit [95% CI]</th><th>full pass [95% CI]</th><th>Pass@1 [95% CI]</th>${design ? '<th>design score, 1–5 [95% CI]</th>' : ''}<th>ranks first</th><th>top three</th><th>sessions</th></tr>\n${candidates}</table>`,
    `<h3>Probability that the row beats the column (${metric})</h3>`,
    `<table><tr><th></th>${names.map((n) => `<th>${n}</th>`).join('')}</tr>\n${wins}</table>`,
    `<h3>Per task: partial credit / full pass (✓: every session passed)</h3>`,
    `<table><tr><th>task</th><th>sessions</th>${names.map((n) => `<th>${n}</th>`).join('')}</tr>\n${tasks}</table>`,
    unmatched.length ? `<p>Left out, not run by every candidate: ${unmatched.map(([n, k]) => `${escape(n)} ${k}`).join(', ')} sessions.</p>` : '',
  ].join('\n');
}
