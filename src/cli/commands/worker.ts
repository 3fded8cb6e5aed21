/**
 * `xrsim worker`: runs a queue sweep's sessions on this machine until stopped (docs/DISTRIBUTED.md).
 */
import { ExitCode } from '../../errors.js';
import { startQueueWorker } from '../../queue/worker.js';
import { parseChoiceArg, parseNumberArg, parseWorkersArg, printJson, type Command } from '../command.js';
import { QUEUE_HELP, QUEUE_OPTIONS, queueUrlArg, reconnectArg } from '../queue-args.js';

/** Seconds between progress lines while jobs come in. */
const PROGRESS_EVERY_S = 60;

/** `xrsim worker --queue URL`. */
export const workerCommand: Command = {
  name: 'worker',
  summary: "run a queue sweep's sessions on this machine (xrsim sweep --queue)",
  help: `xrsim worker --queue URL [--queue-name NAME] [--workers N] [--task-root DIR]...
             [--keep-streams failed|all|none --streams-dir DIR] [--lock-seconds S]
             [--judge CMD] [--design-judge CMD] [--agent AGENT]
             [--idle-exit S] [--queue-reconnect S] [--json]

Takes session jobs from the queue and runs them on a warm pool of session worker processes, as many
at once as the pool has workers (it holds one job more, ready to start). Start any number, on any
machines that reach the Redis server.
${QUEUE_HELP}
  --workers N         session worker processes, and so sessions at once (default: one per core)
  --task-root DIR     a folder whose task files, apps, actor scripts, scenes and hand models jobs may
                      name (repeatable). The package's own tasks/, scenes/ and hand-models/ are always
                      roots; nothing else is, not even the working directory. A job naming a file
                      outside them is errored (bad input) without the file being read
  --worker-heap-mb MB each session worker's JavaScript heap limit (default 4096, or
                      XRSIM_WORKER_HEAP_MB): a session past it is errored (out of memory), not retried
  --keep-streams K    which sessions' frame streams to keep: none (default), failed or all
  --streams-dir DIR   where kept streams go, as KEY.xrs (a folder shared with the coordinator lets
                      its --html report plot them)
  --judge CMD         the judge command of visual milestones, for every job (overrides the tasks' own)
  --design-judge CMD  a design judge command over each app session's video, for every job
  --agent AGENT       who answers a.agent steps in every job: reference, replay:STREAM or a command
                      (overrides the tasks' agent). A job never names a command or an output folder:
                      these come only from the worker's options (docs/FLEET.md). Their files go to
                      --streams-dir (KEY.visual/, KEY.agent/, KEY.design/), else xrsim-out/worker/
  --lock-seconds S    how long a job stays claimed by a worker that stopped answering before another
                      worker takes it (default 30; BullMQ's lock and stalled-job check interval)
  --idle-exit S       stop once the queue has had nothing to do for S seconds (for batch jobs such as
                      a Kubernetes Job; default: run until stopped)
  --json              print what the worker did as one JSON object on the last line

SIGTERM or Ctrl-C: take no new jobs, finish the ones it holds, exit 0. A second signal stops at once
(the jobs it holds go back to the queue when their lock runs out).
Exit codes: 0 stopped, 2 bad input or the queue's Redis cannot be used (unreachable at start,
refused credentials, or lost for longer than --queue-reconnect).`,
  options: {
    ...QUEUE_OPTIONS,
    workers: { type: 'string' },
    'worker-heap-mb': { type: 'string' },
    'task-root': { type: 'string', multiple: true },
    'keep-streams': { type: 'string' },
    'streams-dir': { type: 'string' },
    'lock-seconds': { type: 'string' },
    judge: { type: 'string' },
    'design-judge': { type: 'string' },
    agent: { type: 'string' },
    'idle-exit': { type: 'string' },
  },
  async run({ values, json }) {
    const v = values as Record<string, string | undefined>;
    const taskRoots = (values['task-root'] as unknown as string[] | undefined) ?? [];
    const worker = await startQueueWorker({
      url: queueUrlArg(v.queue),
      name: v['queue-name'],
      workers: parseWorkersArg('worker', v.workers),
      workerHeapMb: parseNumberArg('worker-heap-mb', v['worker-heap-mb'], true),
      taskRoots,
      keepStreams: v['keep-streams'] === undefined ? undefined : parseChoiceArg('keep-streams', v['keep-streams'], ['failed', 'all', 'none'] as const, 'none'),
      streamsDir: v['streams-dir'],
      scoring: { judge: v.judge, designJudge: v['design-judge'], agent: v.agent },
      lockSeconds: parseNumberArg('lock-seconds', v['lock-seconds'], false),
      idleExitSeconds: parseNumberArg('idle-exit', v['idle-exit'], false),
      reconnectSeconds: reconnectArg(v['queue-reconnect']),
      log: (line) => process.stderr.write(`xrsim worker: ${line}\n`),
    });
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals++;
      if (signals === 1) void worker.close();
      else {
        process.stderr.write(`xrsim worker: ${signal} again: stopping at once\n`);
        void worker.close(true);
      }
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    let reported = 0;
    const progress = setInterval(() => {
      if (worker.stats.jobs === reported) return;
      reported = worker.stats.jobs;
      const { jobs, completed, crashed, refused } = worker.stats;
      process.stderr.write(`xrsim worker: ${jobs} jobs taken, ${completed} completed, ${crashed} crashed attempts, ${refused} refused\n`);
    }, PROGRESS_EVERY_S * 1000);
    progress.unref();
    const exit = await worker.finished;
    clearInterval(progress);
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    if (json) printJson({ worker: worker.name, reason: exit.reason, ...worker.stats });
    if (exit.error) throw exit.error;
    return ExitCode.ok;
  },
};
