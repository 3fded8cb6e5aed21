/**
 * Running a sweep: a lazy source of session specs (the matrix, less what the folder already holds) → a
 * bounded number in flight on an executor (the local worker pool, any {@link SessionExecutor}, or a queue of
 * machines: `src/queue/`) → a sink (`results.jsonl`, running summaries, progress). Memory stays flat
 * whatever the number of sessions.
 */
import { join, sep } from 'node:path';
import { XrsimInputError } from '../errors.js';
import { checkTimeLimit, createSessionPool, resolveWorkerCount, type SessionExecutor, type SessionPool } from '../session/pool.js';
import { runBoundedBatches } from './bounded.js';
import { SweepFolder } from './folder.js';
import { planMatrix, type SweepEntry, type SweepOptions } from './matrix.js';
import { prepareOutDir } from './out-dir.js';
import { runKeepingStreams, type KeepStreams } from './record-kept.js';
import type { SweepResultLine } from './results.js';
import { SweepTally, type SweepSummary } from './summary.js';
import type { QueueSweepOptions } from '../queue/coordinator.js';
import type { EntryRunner } from './entry-runner.js';
import { checkScoringCommands, withScoringCommands } from './scoring-commands.js';
import { checkSweepVideos, withVideo, type KeepVideos } from './videos.js';
import { closeSharedChromium } from '../browser/chromium.js';

/** Options of {@link runSweep}. */
export interface RunSweepOptions extends SweepOptions {
  /** Output folder for `sweep.json`, `results.jsonl` and `streams/`. */
  out: string;
  /** Worker processes of the sweep's own pool. Default: one per core (capped at 4 per core). */
  workers?: number;
  /** Wall-clock limit per session, seconds (default 300): a session past it is `errored` (timeout). */
  timeLimitSeconds?: number;
  /** Each worker's JavaScript heap limit, MB, of the sweep's own pool (as a pool's `workerHeapMb`). */
  workerHeapMb?: number;
  /**
   * What runs the sessions. Default: a new pool of `workers` processes, closed when the sweep ends. Pass a
   * pool from {@link createSessionPool} to keep it warm across sweeps (you close it), or another executor
   * (a distributed queue); `workers` is then ignored.
   */
  executor?: SessionExecutor;
  /**
   * Which sessions' frame streams to keep in `out/streams/<key>.xrs`: `failed` (default: failed and
   * errored), `all` or `none`. With `failed`, sessions run unrecorded and only those that fail are run
   * again with recording (their hash checked against the first run), so passing sessions cost nothing.
   */
  keepStreams?: KeepStreams;
  /**
   * Which sessions get a video of their kept stream, next to it (`streams/<key>.webm`, from the head,
   * 320x240 at 15 fps, ffmpeg): `none` (default), `failed` (failed and errored) or `all` (which keeps
   * every stream unless `keepStreams` says otherwise). Local sweeps only.
   */
  videos?: KeepVideos;
  /**
   * The judge command for `visual` milestones (overrides the tasks' own). Images go next to the streams,
   * in `streams/<key>.visual/`, and verdicts into each result's milestones. Local sweeps only.
   */
  judge?: string;
  /**
   * A design judge command: it watches each app session's video and rates design heuristics no formula can
   * see; its ratings join the result's `design`. The video and request go to `streams/<key>.design/`.
   * Local sweeps only.
   */
  designJudge?: string;
  /**
   * Who answers actor scripts' `a.agent` steps (overrides the tasks' `agent`): `reference`, `replay:STREAM` or
   * a command line. A command's requests and views go to `streams/<key>.agent/`. Local sweeps only.
   */
  agent?: string;
  /**
   * Sessions in flight per unit of the executor's concurrency and per job it holds at a time (default 2:
   * as many again wait in the pool's queue as its workers hold).
   */
  inFlightPerWorker?: number;
  /**
   * Run the sessions on `xrsim worker` processes through a BullMQ queue on Redis (docs/DISTRIBUTED.md)
   * instead of a local pool. The workers keep streams (their `--keep-streams`), so `keepStreams` and
   * `executor` cannot be given with it; `workers` is ignored. An unreachable Redis throws
   * `QueueUnavailableError` before anything is written.
   */
  queue?: QueueSweepOptions;
  /** Called after each session with counts so far. */
  onProgress?(progress: SweepProgress): void;
}

/** Counts so far. */
export interface SweepProgress {
  done: number;
  total: number;
  failed: number;
  errored: number;
  /** Sessions already in the folder from an earlier, interrupted run. */
  resumed: number;
  last: SweepResultLine;
}

export type { SweepSummary, TaskSummary, MilestoneSummary } from './summary.js';
export type { EntryRunner } from './entry-runner.js';

/**
 * Runs every session of the matrix not already in `out`, yielding results as they finish (in completion
 * order), and returns the summary over the whole matrix. Bad input (options, an unwritable or busy folder,
 * a damaged results file) throws {@link XrsimInputError} before any session runs.
 */
export async function* runSweep(options: RunSweepOptions): AsyncGenerator<SweepResultLine, SweepSummary> {
  const { queue } = options;
  if (queue && (options.executor || options.keepStreams !== undefined)) {
    throw new XrsimInputError('a queue sweep runs on xrsim worker processes: their --keep-streams and --workers decide streams and pool size', { expected: 'queue without executor or keepStreams' });
  }
  const videos = options.videos ?? 'none';
  if (queue && (videos !== 'none' || options.judge !== undefined || options.designJudge !== undefined || options.agent !== undefined)) {
    throw new XrsimInputError('videos, judges and agents run where the streams are, and a queue job never names a command: give a queue sweep\'s judges and agents to its workers (xrsim worker --judge, --design-judge, --agent)', { expected: 'a local sweep for --videos; the workers\' own --judge, --design-judge and --agent' });
  }
  const keep = options.keepStreams ?? (queue ? 'none' : videos === 'all' ? 'all' : 'failed');
  if (!['failed', 'all', 'none'].includes(keep)) throw new XrsimInputError(`keepStreams must be failed, all or none, got ${JSON.stringify(keep)}`, { expected: 'failed, all or none' });
  checkSweepVideos(videos, keep);
  checkScoringCommands(options);
  const workers = options.executor || queue ? undefined : resolveWorkerCount(options.workers).workers;
  const timeLimitSeconds = checkTimeLimit(options.timeLimitSeconds);
  const perWorker = options.inFlightPerWorker ?? 2;
  if (!(Number.isInteger(perWorker) && perWorker >= 1)) throw new XrsimInputError(`inFlightPerWorker must be a positive integer, got ${perWorker}`);
  const plan = planMatrix(options);
  const tally = new SweepTally(plan.taskIds, (result) => plan.expectedFailures(result));
  // A queue connects (or fails, with nothing written) before the folder is touched.
  const queued = queue ? await (await import('../queue/coordinator.js')).openQueueRunner(queue, { timeLimitSeconds }) : null;
  let folder: SweepFolder;
  try {
    folder = SweepFolder.open(
      options.out,
      {
        format: 'xrsim-sweep',
        version: 1,
        matrixHash: plan.hash(),
        sessions: plan.size,
        options: { tasks: options.tasks ?? null, apps: options.apps ?? null, seeds: options.seeds ?? null, hands: options.hands ?? null, scenes: options.scenes ?? null, shard: options.shard ?? null },
      },
      (line) => tally.add(line),
    );
  } catch (err) {
    await queued?.close();
    throw err;
  }
  const resumed = folder.done.size;
  let runner: EntryRunner | null = queued;
  try {
    runner ??= localRunner(options, { keep, videos, workers, timeLimitSeconds, perWorker });
    // Finished sessions come a batch per wake-up: the generator's promises are paid per batch, not per session.
    for await (const batch of runBoundedBatches(pendingEntries(plan.entries(), folder), () => runner!.capacity, (entry) => runner!.run(entry))) {
      for (const { line, text } of batch) {
        if (folder.done.has(line.key)) continue; // results are idempotent by key
        folder.append(line, text);
        if (runner.written) {
          folder.flush(); // a queue forgets the job once its line is on disk
          runner.written(line);
        }
        tally.add(line);
        options.onProgress?.({ done: folder.done.size, total: plan.size, failed: tally.failed, errored: tally.errored, resumed, last: line });
        yield line;
      }
    }
  } finally {
    folder.close();
    await runner?.close();
  }
  return tally.summary(options.out);
}

/** The local runner: the caller's executor or a pool of the sweep's own (closed with the runner), recording what is kept. */
function localRunner(options: RunSweepOptions, settings: { keep: KeepStreams; videos: KeepVideos; workers: number | undefined; timeLimitSeconds: number; perWorker: number }): EntryRunner {
  const { keep, videos, workers, timeLimitSeconds, perWorker } = settings;
  const streams = join(options.out, 'streams');
  if (keep !== 'none') prepareOutDir(streams);
  // A pool of its own unless the caller brings an executor (then the caller closes it).
  const ownPool: SessionPool | null = options.executor ? null : createSessionPool({ workers, timeLimitSeconds, workerHeapMb: options.workerHeapMb });
  const executor = options.executor ?? ownPool!;
  return {
    // The pool holds several short sessions per worker at a time: keep that many more in flight.
    get capacity() {
      return executor.concurrency * perWorker * (executor.jobsPerWorker ?? 1);
    },
    run: (entry) => {
      const kept = runKeepingStreams(executor, entry, withScoringCommands(entry.spec, entry.key, streams, options), { keep, streamPath: () => `${streams}${sep}${entry.key}.xrs`, timeLimitSeconds });
      // A video changes the line after it was made: its text is written from the changed line.
      return videos === 'none' ? kept : kept.then(async ({ line }) => ({ line: await withVideo(line, videos), text: null }));
    },
    close: async () => {
      await ownPool?.close();
      // Videos of browser apps re-run their sessions here, in this process's warm Chromium: let it go, so a
      // program that ran a sweep can end (it is launched again if the program runs a browser app itself).
      if (videos !== 'none') await closeSharedChromium();
    },
  };
}

/** The matrix's sessions whose results are not in the folder yet, pulled one at a time. */
function* pendingEntries(entries: Iterator<SweepEntry>, folder: SweepFolder): Generator<SweepEntry> {
  for (let next = entries.next(); !next.done; next = entries.next()) {
    if (!folder.done.has(next.value.key)) yield next.value;
  }
}
