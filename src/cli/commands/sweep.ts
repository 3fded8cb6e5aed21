/**
 * `xrsim sweep`: the main job, a regression sweep of the task suite over seeds, hands and scenes.
 */
import { ExitCode } from '../../errors.js';

import { parseHands, parseScenes, parseSeeds, parseShard } from '../../sweep/matrix.js';
import { readResults } from '../../sweep/results.js';
import { writeReports } from '../../report/write.js';
import { runSweep, type SweepProgress, type SweepSummary } from '../../sweep/run.js';
import { parseChoiceArg, parseNumberArg, printJson, type Command } from '../command.js';
import { table } from '../format.js';

/** `xrsim sweep [TASK-GLOB...]`. */
export const sweepCommand: Command = {
  name: 'sweep',
  summary: 'run the task suite over seeds, hands and scenes on a worker pool',
  help: `xrsim sweep [TASK-GLOB...] [--apps reference|all|NAME] [--seeds 1..N|LIST] [--hands both|right|left]
             [--scenes default|all|LIST] [--workers N] [--time-limit SECONDS] [--shard K/N]
             [--keep-streams failed|all|none] [--junit FILE] [--html FILE] [--out DIR] [--json]

  TASK-GLOB           task ids or globs such as 'physics/*', or task files (default: the whole suite)
  --apps A            reference (default), all (every app of each task), or one app's name
  --seeds 1..N|LIST   seeds as a range or a comma list (default 1..3)
  --hands H           both (default), right or left
  --scenes S          default (each task's scene list), all (every library scene) or a comma list
  --workers N         worker threads (default: one per core)
  --time-limit S      wall-clock limit per session (default 300 s); a session past it is errored and its
                      worker replaced
  --shard K/N         run only the K-th of N deterministic slices of the matrix (for CI matrices)
  --keep-streams K    keep frame streams in DIR/streams: failed (default; failed and errored), all, none
  --junit FILE        write JUnit XML: one test case per session and milestone
  --html FILE         write a self-contained HTML report (pass matrix, metric histograms, plots of
                      failed sessions)
  --out DIR           output folder for sweep.json and results.jsonl (default xrsim-out/sweep).
                      Run the same sweep again with the same --out to finish an interrupted one.
  --json              print the summary as one JSON object on the last line

Exit codes: 0 every session passed, 1 some failed or errored, 2 bad input.`,
  options: {
    seeds: { type: 'string' },
    hands: { type: 'string' },
    scenes: { type: 'string' },
    workers: { type: 'string' },
    'time-limit': { type: 'string' },
    apps: { type: 'string' },
    shard: { type: 'string' },
    'keep-streams': { type: 'string' },
    junit: { type: 'string' },
    html: { type: 'string' },
    out: { type: 'string' },
  },
  positionals: true,
  async run({ values, positionals, json }) {
    const v = values as Record<string, string | undefined>;
    const hands = parseHands(v.hands);
    const scenes = parseScenes(v.scenes);
    const keepStreams = parseChoiceArg('keep-streams', v['keep-streams'], ['failed', 'all', 'none'] as const, 'failed');
    const shard = v.shard === undefined ? undefined : parseShard(v.shard);
    const progress = progressPrinter();
    const sweep = runSweep({
      tasks: positionals,
      apps: v.apps,
      shard,
      keepStreams,
      seeds: v.seeds === undefined ? undefined : parseSeeds(v.seeds),
      hands,
      scenes,
      workers: parseNumberArg('workers', v.workers, true),
      timeLimitSeconds: parseNumberArg('time-limit', v['time-limit'], false),
      out: v.out ?? 'xrsim-out/sweep',
      onProgress: progress,
    });
    let next = await sweep.next();
    while (!next.done) next = await sweep.next();
    const summary = next.value;
    progress.finish();
    if (v.junit || v.html) writeReports(readResults(summary.out), { junit: v.junit, html: v.html, title: `xrsim sweep ${summary.out}` });
    if (json) printJson(summary);
    else printSummary(summary);
    return summary.passed === summary.sessions ? ExitCode.ok : ExitCode.failed;
  },
};

/** A live bar on a terminal, one plain line per session otherwise. Written to stderr. */
function progressPrinter(): ((p: SweepProgress) => void) & { finish(): void } {
  const tty = process.stderr.isTTY === true;
  const start = process.hrtime.bigint(); // wall clock: progress display only, not simulation
  let lastDrawn = 0;
  const print = (p: SweepProgress) => {
    const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    const fresh = p.done - p.resumed;
    const rate = fresh / Math.max(elapsed, 1e-9);
    const eta = rate > 0 ? (p.total - p.done) / rate : 0;
    const problems = `${p.failed} failed, ${p.errored} errored`;
    if (tty) {
      const width = 24;
      const filled = Math.round((width * p.done) / p.total);
      const now = Date.now(); // xrsim-allow-clock: throttles terminal redraws
      if (p.done < p.total && now - lastDrawn < 100) return;
      lastDrawn = now;
      process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} · ${rate.toFixed(1)}/s · ETA ${eta.toFixed(0)} s · ${problems}  `);
    } else {
      const r = p.last;
      process.stderr.write(`[${p.done}/${p.total}] ${r.task} ${r.scene} seed ${r.seed} ${r.hand}: ${r.status}${r.error ? ` (${r.error.message})` : ''} · ${problems}\n`);
    }
  };
  return Object.assign(print, {
    finish: () => {
      if (tty) process.stderr.write('\n');
    },
  });
}

function printSummary(s: SweepSummary): void {
  const rows = [
    ['task', 'sessions', 'pass rate', 'mean score', 'failed', 'errored'],
    ...s.tasks.map((t) => [t.task, String(t.sessions), `${(t.passRate * 100).toFixed(0)}%`, t.meanScore.toFixed(3), String(t.failed), String(t.errored)]),
  ];
  process.stdout.write(table(rows, ''));
  process.stdout.write(`${s.passed}/${s.sessions} sessions passed, ${s.failed} failed, ${s.errored} errored · results in ${s.out}/results.jsonl\n`);
}
