/**
 * `xrsim rank DIR...`: rank candidates (one sweep folder each) with bootstrap confidence.
 */
import { resolve, sep } from 'node:path';
import { ExitCode, XrsimInputError } from '../../errors.js';
import { checkReportOutputs, writeReports } from '../../report/write.js';
import { rankSweeps, type Ranking, type RankMetric } from '../../sweep/rank.js';
import { METRIC_NAMES } from '../../report/rank-section.js';
import { readResults } from '../../sweep/results.js';
import type { SessionResult } from '../../session/result.js';
import { parseNumberArg, parseSeedArg, printJson, type Command } from '../command.js';
import { table } from '../format.js';

/** `xrsim rank DIR...`. */
export const rankCommand: Command = {
  name: 'rank',
  summary: 'rank sweep folders (one per candidate) with bootstrap confidence intervals and win probabilities',
  help: `xrsim rank DIR DIR... [--names A,B,...] [--metric partial|full-pass|pass@1|design] [--resamples N]
           [--seed S] [--html FILE] [--force] [--json]
       xrsim rank DIR [...]     (one sweep of several apps: each app is a candidate)

Each folder is one candidate's sweep (an agent's apps, a build); one folder whose sweep ran several apps
(sweep --apps 'candidates/*/') ranks those apps. A candidate's score is the mean over tasks
of its mean session score, under partial credit (fraction of milestones passed) and binary full pass, and
its design score (1–5, the mean of the ten design heuristics) over the tasks with apps. Its Pass@1 is the
share of tasks of which every session passed (every scene, seed and hand), as benchmarks report it, with an
interval from resampling the tasks.
Sessions are matched by task, scene, seed and hand; only those every candidate ran are scored, and an
errored session scores 0 (and a design score of 1). The 95 % intervals, win probabilities and rank frequencies come from a seeded
bootstrap that redraws each task's sessions, the same draws for every candidate.

  --names A,B,...  candidate names, in folder order (default: the folders' names, with parent folders
                   when they alone are alike)
  --metric M       the metric that orders candidates: partial (default), full-pass, pass@1 or design
                   (--by M says the same)
  --resamples N    bootstrap resamples, at least 10000 (default 10000)
  --seed S         resampling seed (default 1)
  --html FILE      an HTML report with the ranking section
  --force          replace the file at --html whatever it is (else only a report xrsim wrote)

Exit codes: 0 ranked, 2 bad input.`,
  options: {
    names: { type: 'string' },
    metric: { type: 'string' },
    by: { type: 'string' },
    resamples: { type: 'string' },
    seed: { type: 'string' },
    html: { type: 'string' },
    force: { type: 'boolean' },
  },
  positionals: true,
  async run({ values, positionals, json }) {
    const v = values as Record<string, string | undefined>;
    if (positionals.length < 1) throw new XrsimInputError('expected sweep folders', { expected: 'xrsim rank DIR DIR..., or one DIR whose sweep ran several apps' });
    const groups = positionals.length === 1 ? byApp(positionals[0]) : positionals.map((dir) => ({ label: dir, results: readResults(dir) }));
    const names = v.names === undefined ? defaultNames(groups.map((g) => g.label)) : v.names.split(',').map((n) => n.trim());
    if (names.length !== groups.length) {
      throw new XrsimInputError(`--names gives ${names.length} names for ${groups.length} ${positionals.length === 1 ? 'apps' : 'folders'}`, { expected: 'one name per candidate, comma-separated' });
    }
    if (v.by !== undefined && v.metric !== undefined && v.by !== v.metric) throw new XrsimInputError(`--metric "${v.metric}" and --by "${v.by}" name two metrics`, { expected: 'one of them' });
    const metric = v.metric ?? v.by;
    const option = v.metric !== undefined ? '--metric' : '--by';
    if (metric !== undefined && !Object.hasOwn(METRIC_NAMES, metric)) throw new XrsimInputError(`${option} must be partial, full-pass, pass@1 or design, got "${metric}"`);
    checkReportOutputs({ html: v.html, force: values.force === true });
    const candidates = groups.map((g, i) => ({ name: names[i], results: g.results }));
    const ranking = rankSweeps(candidates, {
      resamples: parseNumberArg('resamples', v.resamples, true),
      seed: parseSeedArg(v.seed, 1),
      by: metric as RankMetric | undefined,
    });
    if (v.html) writeReports([], { html: v.html, title: `xrsim rank: ${names.join(', ')}`, ranking, force: values.force === true });
    if (json) printJson(ranking);
    else process.stdout.write(formatRanking(ranking));
    return ExitCode.ok;
  },
};

/** One sweep folder's results, one group per app (sorted), its candidates; fewer than two is bad input. */
function byApp(dir: string): { label: string; results: SessionResult[] }[] {
  const apps = new Map<string, SessionResult[]>();
  for (const r of readResults(dir)) {
    const app = r.app ?? '(no app)';
    if (!apps.has(app)) apps.set(app, []);
    apps.get(app)!.push(r);
  }
  if (apps.size < 2) {
    throw new XrsimInputError(`${dir} holds the sweep of ${apps.size === 1 ? 'one app' : 'no app'}: ranking needs two or more candidates`, { expected: 'two or more sweep folders, or one sweep of several apps (--apps)' });
  }
  return [...apps.keys()].sort().map((app) => ({ label: app, results: apps.get(app)! }));
}

/** Folder names, with as many parent folders as it takes to tell them apart (`a/sweep`, `b/sweep`). */
function defaultNames(dirs: string[]): string[] {
  const parts = dirs.map((dir) => resolve(dir).split(sep).filter(Boolean));
  for (let depth = 1; ; depth++) {
    const names = parts.map((p) => p.slice(-depth).join('/'));
    if (new Set(names).size === names.length || parts.every((p) => p.length <= depth)) return names;
  }
}

/** The ranking as text: a table of candidates, then the pairwise win probabilities. */
export function formatRanking(ranking: Ranking): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const est = (e: { mean: number; ci95: [number, number] }) => `${e.mean.toFixed(3)} [${e.ci95[0].toFixed(3)}, ${e.ci95[1].toFixed(3)}]`;
  const design = ranking.candidates.some((c) => c.design);
  const rows = ranking.candidates.map((c) => [String(c.rank), c.name, est(c.partial), est(c.fullPass), `${est(c.passAt1)} ${c.tasksPassed}/${ranking.tasks.length}`, ...(design ? [c.design ? est(c.design) : '–'] : []), pct(c.rankFirst), pct(c.topThree), `${c.sessions}${c.errored ? ` (${c.errored} errored)` : ''}`]);
  const names = ranking.candidates.map((c) => c.name);
  const wins = ranking.wins.map((row, i) => [names[i], ...row.map((w, j) => (i === j ? '–' : pct(w)))]);
  const unmatched = Object.entries(ranking.unmatched).filter(([, n]) => n > 0);
  return [
    table([['rank', 'candidate', 'partial credit [95% CI]', 'full pass [95% CI]', 'Pass@1 [95% CI] tasks', ...(design ? ['design 1–5 [95% CI]'] : []), 'ranks first', 'top three', 'sessions'], ...rows], ''),
    `\nP(row beats column) by ${METRIC_NAMES[ranking.metric]}:\n`,
    table([['', ...names], ...wins], ''),
    unmatched.length ? `\nleft out (not run by every candidate): ${unmatched.map(([n, k]) => `${n} ${k}`).join(', ')}\n` : '',
    `\n${ranking.tasks.length} tasks, ${ranking.resamples} task-stratified bootstrap resamples (seed ${ranking.seed})\n`,
  ].join('');
}
