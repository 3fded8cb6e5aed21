/**
 * `xrsim flaky`: run every session of a matrix several times and report what flips.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode } from '../../errors.js';
import { prepareOutDir } from '../../sweep/out-dir.js';
import { progressPrinter } from '../progress.js';
import { checkReportOutputs, writeReports } from '../../report/write.js';
import { runFlaky } from '../../sweep/flaky.js';
import { parseHands, parseScenes, parseSeeds, parseShard } from '../../sweep/matrix.js';
import { parseNumberArg, parseWorkersArg, printJson, type Command } from '../command.js';
import { table } from '../format.js';

/** `xrsim flaky [TASK-GLOB...]`. */
export const flakyCommand: Command = {
  name: 'flaky',
  summary: 'run every session several times (repeat or perturbation mode) and report milestones that flip',
  help: `xrsim flaky [TASK-GLOB...] [--runs R] [--perturb] [--apps reference|all|NAME] [--seeds 1..N|LIST]
             [--hands both|right|left] [--scenes default|all|LIST] [--shard K/N] [--workers N]
             [--time-limit SECONDS] [--out DIR] [--html FILE] [--force] [--json]

  --runs R      runs per session (default 3)
  --perturb     perturbation mode: each run with another perturbation seed (tremor, joint jitter,
                tracking and sensor noise, actor timing); without it, plain repeats, which must agree
  --out DIR     where flaky.json goes (default xrsim-out/flaky)
  --html FILE   an HTML report with the flaky table and the first run's matrix
  --force       replace the file at --html whatever it is (else only a report xrsim wrote)
Other options as for xrsim sweep.

Exit codes: 0 nothing flipped, 1 some milestone flipped (or, in repeat mode, a hash differed), 2 bad input.`,
  options: {
    runs: { type: 'string' },
    perturb: { type: 'boolean' },
    apps: { type: 'string' },
    seeds: { type: 'string' },
    hands: { type: 'string' },
    scenes: { type: 'string' },
    shard: { type: 'string' },
    workers: { type: 'string' },
    'time-limit': { type: 'string' },
    out: { type: 'string' },
    html: { type: 'string' },
    force: { type: 'boolean' },
  },
  positionals: true,
  async run({ values, positionals, json }) {
    const v = values as Record<string, string | undefined>;
    const hands = parseHands(v.hands);
    const out = v.out ?? 'xrsim-out/flaky';
    prepareOutDir(out);
    const force = values.force === true;
    checkReportOutputs({ html: v.html, force });
    const workers = parseWorkersArg('flaky', v.workers);
    const progress = progressPrinter(process.stderr, undefined, 'runs');
    const report = await runFlaky({
      tasks: positionals,
      apps: v.apps,
      seeds: v.seeds === undefined ? undefined : parseSeeds(v.seeds),
      hands,
      scenes: parseScenes(v.scenes),
      shard: v.shard === undefined ? undefined : parseShard(v.shard),
      runs: parseNumberArg('runs', v.runs, true),
      perturb: values.perturb === true,
      workers,
      timeLimitSeconds: parseNumberArg('time-limit', v['time-limit'], false),
      onProgress: (done, total) => progress({ done, total, resumed: 0 }),
    });
    progress.finish();
    const { results, ...summary } = report;
    writeFileSync(join(out, 'flaky.json'), `${JSON.stringify({ ...summary, results }, null, 1)}\n`);
    if (v.html) writeReports(results.map((runs) => runs[0]), { html: v.html, title: `xrsim flaky (${report.mode}, ${report.runs} runs)`, flaky: report.milestones, force });
    if (json) printJson(summary);
    else {
      process.stdout.write(table([['task', 'candidates', 'flipped', 'flip rate'], ...report.tasks.map((t) => [t.task, String(t.candidates), String(t.flipped), `${(t.flipRate * 100).toFixed(1)}%`])], ''));
      for (const m of report.milestones) {
        process.stdout.write(`flaky: ${m.task} › ${m.milestone}: ${m.flipped}/${m.candidates} candidates; e.g. ${m.example.map((e) => `run ${e.run} ${e.passed ? 'pass' : 'fail'} (metric ${e.metric ?? 'never'}, ticks ${e.ticks.join(', ') || '–'})`).join('; ')}\n`);
      }
      if (report.mode === 'repeat' && report.hashMismatches.length) process.stdout.write(`session hashes differ across runs: ${report.hashMismatches.join('; ')}\n`);
      process.stdout.write(`${report.mode} mode, ${report.runs} runs: ${report.candidates} candidates, flip rate ${(report.flipRate * 100).toFixed(1)}%; ${report.pairs} (task, app) pairs, Pass@1 verdicts flipped ${(report.pairFlipRate * 100).toFixed(1)}% · ${join(out, 'flaky.json')}\n`);
    }
    const hashProblem = report.mode === 'repeat' && report.hashMismatches.length > 0;
    return report.milestones.length > 0 || hashProblem ? ExitCode.failed : ExitCode.ok;
  },
};
