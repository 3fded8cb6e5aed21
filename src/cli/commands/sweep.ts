/**
 * `xrsim sweep`: the main job, a regression sweep of the task suite over seeds, hands and scenes.
 */
import { ExitCode } from '../../errors.js';
import { checkReportOutputs, writeReports } from '../../report/write.js';
import { parseHands, parseScenes, parseSeeds, parseShard } from '../../sweep/matrix.js';
import { resultLines } from '../../sweep/results.js';
import { runSweep, type SweepSummary } from '../../sweep/run.js';
import { checkWritableFile } from '../../sweep/out-dir.js';
import { XrsimInputError } from '../../errors.js';
import { parseChoiceArg, parseNumberArg, parseWorkersArg, printJson, type Command } from '../command.js';
import { table } from '../format.js';
import { progressPrinter } from '../progress.js';
import { QUEUE_HELP, QUEUE_OPTIONS, queueUrlArg, reconnectArg } from '../queue-args.js';
import type { QueueSweepOptions } from '../../queue/coordinator.js';

/** `xrsim sweep [TASK-GLOB...]`. */
export const sweepCommand: Command = {
  name: 'sweep',
  summary: 'run the task suite over seeds, hands and scenes on a worker pool',
  help: `xrsim sweep [TASK-GLOB...] [--apps reference|all|NAME[,NAME...]] [--seeds 1..N|LIST] [--hands both|right|left]
             [--scenes default|all|LIST] [--workers N] [--time-limit SECONDS] [--shard K/N]
             [--keep-streams failed|all|none] [--videos failed|all|none] [--judge CMD] [--design-judge CMD] [--agent AGENT]
             [--junit FILE] [--html FILE] [--force] [--out DIR] [--json]
             [--queue URL [--queue-name NAME] [--queue-window N] [--queue-attempts N]]

  TASK-GLOB           task ids or globs ('physics/*', 'xr/{palm-menu,poke-button}', 'xr/poke-?utton',
                      'xr/[a-m]*'; a leading ! leaves tasks out: '!xr/late*'), or task files
                      (default: the whole suite)
  --apps A            reference (default), all (every app of each task, browser apps included),
                      process (every in-process app), browser (every browser app), an app's name, or
                      a comma list: 'reference,web-reference' runs the reference apps in process and
                      in Chromium (browser apps run on the same workers, one warm Chromium each).
                      Candidate apps by path, run under every task: page directories, .html pages,
                      modules, loopback URLs and globs of them ('candidates/*/', 'gen/{a,b}.mjs');
                      a task with "apps": {} is meant for them and needs no reference app
  --seeds 1..N|LIST   seeds as a range (never listed in memory: 1..1000000 is fine) or a comma list
                      (default 1..3)
  --hands H           both (default), right or left
  --scenes S          default (each task's scene list), all (every library scene) or a comma list
  --workers N         worker processes (default: one per core; at most 4 per core)
  --time-limit S      wall-clock limit per session (default 300 s); a session past it is errored and its
                      worker replaced
  --worker-heap-mb MB each session worker's JavaScript heap limit (default 4096, or XRSIM_WORKER_HEAP_MB):
                      a session past it is errored (out of memory) and its worker replaced
  --shard K/N         run only the K-th of N deterministic slices of the matrix (for CI matrices)
  --keep-streams K    keep frame streams in DIR/streams: failed (default: failed and crashed sessions
                      are run again with recording, so passing ones cost nothing), all, none
  --videos V          a video of each kept stream, next to it (DIR/streams/KEY.webm, from the head,
                      320x240 at 15 fps, ffmpeg), embedded in the HTML report: none (default),
                      failed (failed and errored sessions), all (keeps every stream)
  --judge CMD         the judge command for visual milestones (overrides the tasks' own); the views
                      it judged go to DIR/streams/KEY.visual/ (docs/TASKS.md, "Visual judges")
  --design-judge CMD  a command that watches each app session's video and rates design heuristics no
                      formula can see; its ratings join the design score (DIR/streams/KEY.design/;
                      docs/TASKS.md, "Design score"; needs ffmpeg)
  --agent AGENT       who answers actor scripts' a.agent steps (overrides the tasks' "agent"): reference,
                      replay:STREAM or a command line; its requests and views go to DIR/streams/KEY.agent/
                      (docs/TASKS.md, "Agent actors")
  --junit FILE        write JUnit XML: one test case per session and milestone
  --html FILE         write a self-contained HTML report (pass matrix, milestone pass rates and
                      histograms, the first and worst failures with plots, the slowest sessions)
  --force             replace the files at --junit and --html whatever they are (without it, only
                      reports xrsim wrote, or empty files, are replaced)
  --out DIR           output folder for sweep.json and results.jsonl (default xrsim-out/sweep).
                      Run the same sweep again with the same --out to finish an interrupted one;
                      one sweep at a time per folder.
  --json              print the summary as one JSON object on the last line

On many machines (docs/DISTRIBUTED.md): with --queue the sessions run on \`xrsim worker\` processes
through a BullMQ queue on Redis; results, resume, progress and reports are as above. The workers'
own --workers and --keep-streams apply, so those two are refused here.
${QUEUE_HELP}
  --queue-window N    this sweep's jobs in Redis at once (default 1000; keep it above the fleet's
                      total session workers)
  --queue-attempts N  tries of a session whose session worker crashes, then errored with every
                      attempt's reason (default 3)

Progress goes to stderr: a live bar on a terminal, else a line every 10 s or 5 % (whichever is rarer).
Exit codes: 0 every session as expected (passed; an adversarial app of --apps all failed exactly its
expectFail milestones), 1 some session not as expected (failed otherwise, or errored), 2 bad input, or the queue's Redis
cannot be reached, refuses the credentials, or is lost for longer than --queue-reconnect (every
result already written is kept: run the same command again to resume).`,
  options: {
    seeds: { type: 'string' },
    hands: { type: 'string' },
    scenes: { type: 'string' },
    workers: { type: 'string' },
    'time-limit': { type: 'string' },
    'worker-heap-mb': { type: 'string' },
    apps: { type: 'string' },
    shard: { type: 'string' },
    'keep-streams': { type: 'string' },
    videos: { type: 'string' },
    judge: { type: 'string' },
    'design-judge': { type: 'string' },
    agent: { type: 'string' },
    junit: { type: 'string' },
    html: { type: 'string' },
    force: { type: 'boolean' },
    out: { type: 'string' },
    ...QUEUE_OPTIONS,
    'queue-window': { type: 'string' },
    'queue-attempts': { type: 'string' },
  },
  positionals: true,
  async run({ values, positionals, json }) {
    const v = values as Record<string, string | undefined>;
    const hands = parseHands(v.hands);
    const scenes = parseScenes(v.scenes);
    const queue = queueOptions(v);
    const videos = parseChoiceArg('videos', v.videos, ['failed', 'all', 'none'] as const, 'none');
    const keepStreams = queue ? undefined : parseChoiceArg('keep-streams', v['keep-streams'], ['failed', 'all', 'none'] as const, videos === 'all' ? 'all' : 'failed');
    const shard = v.shard === undefined ? undefined : parseShard(v.shard);
    const workers = queue ? undefined : parseWorkersArg('sweep', v.workers);
    // Reports come at the end of what may be hours: check their paths can be written before starting.
    for (const option of ['junit', 'html'] as const) if (v[option]) checkWritableFile(v[option]!, `--${option}`);
    const force = values.force === true;
    checkReportOutputs({ junit: v.junit, html: v.html, force });
    const progress = progressPrinter();
    const out = v.out ?? 'xrsim-out/sweep';
    const sweep = runSweep({
      tasks: positionals,
      apps: v.apps,
      shard,
      keepStreams,
      videos,
      judge: v.judge,
      designJudge: v['design-judge'],
      agent: v.agent,
      seeds: v.seeds === undefined ? undefined : parseSeeds(v.seeds),
      hands,
      scenes,
      workers,
      timeLimitSeconds: parseNumberArg('time-limit', v['time-limit'], false),
      workerHeapMb: parseNumberArg('worker-heap-mb', v['worker-heap-mb'], true),
      out,
      onProgress: progress,
      queue,
    });
    let next = await sweep.next();
    while (!next.done) next = await sweep.next();
    const summary = next.value;
    progress.finish();
    if (v.junit || v.html) writeReports(() => resultLines(summary.out), { junit: v.junit, html: v.html, title: `xrsim sweep ${summary.out}`, force });
    if (json) printJson(summary);
    else printSummary(summary);
    return summary.unexpected === 0 ? ExitCode.ok : ExitCode.failed;
  },
};

/** The queue options, when --queue is given; the options a queue sweep leaves to its workers are refused. */
function queueOptions(v: Record<string, string | undefined>): QueueSweepOptions | undefined {
  const queueOnly = ['queue-name', 'queue-window', 'queue-attempts', 'queue-reconnect'].filter((o) => v[o] !== undefined);
  if (v.queue === undefined) {
    if (queueOnly.length > 0) throw new XrsimInputError(`--${queueOnly[0]} needs --queue URL`);
    return undefined;
  }
  for (const option of ['workers', 'keep-streams']) {
    if (v[option] !== undefined) {
      throw new XrsimInputError(`--${option} is the workers' choice in a queue sweep: give it to xrsim worker (xrsim worker --queue URL --${option} ...)`, { expected: 'xrsim sweep --queue URL without --workers or --keep-streams' });
    }
  }
  return {
    url: queueUrlArg(v.queue),
    name: v['queue-name'],
    window: parseNumberArg('queue-window', v['queue-window'], true),
    attempts: parseNumberArg('queue-attempts', v['queue-attempts'], true),
    reconnectSeconds: reconnectArg(v['queue-reconnect']),
    onNotice: (message) => process.stderr.write(`xrsim sweep: ${message}\n`),
  };
}

function printSummary(s: SweepSummary): void {
  const rows = [
    ['task', 'sessions', 'pass rate', 'mean score', 'failed', 'errored'],
    ...s.tasks.map((t) => [t.task, String(t.sessions), `${(t.passRate * 100).toFixed(0)}%`, t.meanScore.toFixed(3), String(t.failed), String(t.errored)]),
  ];
  process.stdout.write(table(rows, ''));
  // Candidates side by side when the sweep ran more than one app.
  if (s.apps.length > 1) {
    const byApp = [['app', 'sessions', 'passed', 'failed', 'errored', 'Pass@1 (tasks)'], ...s.apps.map((a) => [a.app ?? '(no app)', String(a.sessions), String(a.passed), String(a.failed), String(a.errored), `${a.passAt1.passed}/${a.passAt1.of}`])];
    process.stdout.write(`\n${table(byApp, '')}`);
  }
  const asExpected = s.failedAsExpected > 0 ? ` (${s.failedAsExpected} as their app expects)` : '';
  const verdict = s.unexpected === 0 ? 'every session as expected' : `${s.unexpected} not as expected`;
  process.stdout.write(`${s.passed}/${s.sessions} sessions passed, ${s.failed} failed${asExpected}, ${s.errored} errored; ${verdict} · results in ${s.out}/results.jsonl\n`);
  process.stdout.write(`Pass@1: ${s.passAt1.passed}/${s.passAt1.of} (task, app) pairs passed every session\n`);
}
