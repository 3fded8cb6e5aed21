/**
 * `xrsim run`: one session, optionally recorded.
 */
import { ExitCode, XrsimInputError } from '../../errors.js';
import { DEFAULT_TIME_LIMIT, runSessionIsolated } from '../../session/isolated.js';
import { erroredResult, type SessionResult } from '../../session/result.js';
import type { SessionSpec } from '../../session/spec.js';
import { parseChoiceArg, parseNumberArg, parseSeedArg, printJson, type Command } from '../command.js';
import { formatDesign, formatMilestones, oneLine } from '../format.js';

/** `xrsim run --task ...`. */
export const runCommand: Command = {
  name: 'run',
  summary: 'run one session of a task and score its milestones',
  help: `xrsim run --task ID|PATH [--app NAME|PATH|DIR|URL] [--scene ID|PATH] [--seed N] [--hand right|left] [--out FILE.xrs] [--json]

  --task ID|PATH        a task from the suite (see \`xrsim list tasks\`) or a task .json file
  --app NAME|PATH|DIR|URL
                        the app under test: one of the task's apps, in process or in Chromium
                        (default reference; see \`xrsim list tasks\`), a path to an app module (.mjs),
                        or your own WebXR page: a directory with index.html, an .html file, or a
                        page you serve on loopback (http://127.0.0.1:PORT/...)
  --start SELECTOR      a browser app: the CSS selector of the element the simulated user clicks to
                        enter XR (default: a page that does not start XR at load is entered by the
                        element a person would press, e.g. three.js's VRButton; docs/BROWSER.md)
  --scene ID|PATH       a scene from the library (see \`xrsim list scenes\`) or a scene .json file
                        (default: the task's own scene)
  --seed N              the session seed, a non-negative integer (default 1)
  --hand right|left     the dominant hand (default right)
  --out FILE.xrs        record the frame stream to FILE.xrs (replacing an existing stream or an empty
                        file; any other file is refused)
  --force               replace the file at --out whatever it is
  --encoding MODE       lossless (default) or quantised (0.1 mm, about 3x smaller)
  --hand-model ID|PATH  small, medium (default) or large, or a hand-model .json file
  --perturb             perturbation mode: seeded tremor, joint jitter and tracking noise
  --depth PRESET        run the depth camera (160x120, 30 Hz) with noise ideal, headset or phone-tof,
                        and record its frames
  --planes              run plane detection (planes, hit tests and anchors as events)
  --time-limit SECONDS  wall-clock limit (default 300): a session past it (an app stuck in a loop) is
                        errored; the session runs in a worker process, so the limit can stop it
  --worker-heap-mb MB   the session's JavaScript heap limit (default 4096, or XRSIM_WORKER_HEAP_MB): an
                        app that allocates past it is errored (out of memory)
  --substeps N          physics steps per tick (default: the task's, else 1)
  --duration SECONDS    simulated time (default: the task's)
  --judge CMD           the judge command for the task's visual milestones (overrides the task's
                        "judge"): it gets the rendered views and the criterion and prints
                        { passed, confidence, reason } (docs/TASKS.md, "Visual judges")
  --judge-images DIR    where the rendered views go (default: next to --out, FILE.visual/, else
                        xrsim-out/visual/TASK-seedN-HAND)
  --design-judge CMD    a command that watches the session's video and rates the app on design
                        heuristics no formula can see; its ratings join the design score (docs/TASKS.md,
                        "Design score"). The video and its request go next to --out, FILE.design/, else
                        xrsim-out/design/TASK-seedN-HAND (needs ffmpeg)
  --agent AGENT         who answers the actor's a.agent steps (overrides the task's "agent"): reference
                        (xrsim's reference agent), replay:STREAM (the decisions recorded in a stream)
                        or a command line that reads a request and prints one action (docs/TASKS.md,
                        "Agent actors"); its requests and views go next to --out, FILE.agent/, else
                        xrsim-out/agent/SESSION/
  --json                print one JSON object { task, scene, seed, hand, ticks, status, score, hash,
                        milestones, stream, appErrors, firstAppError, design } as the last line, with
                        actorFailures and firstActorFailure when a step of the actor script failed

Exit codes: 0 all milestones passed, 1 some failed (or the run crashed, a visual milestone could not
be judged, or an agent step had no agent or a malformed answer), 2 bad input.`,
  options: {
    task: { type: 'string' },
    scene: { type: 'string' },
    seed: { type: 'string' },
    hand: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    encoding: { type: 'string' },
    substeps: { type: 'string' },
    duration: { type: 'string' },
    'hand-model': { type: 'string' },
    perturb: { type: 'boolean' },
    depth: { type: 'string' },
    app: { type: 'string' },
    start: { type: 'string' },
    'time-limit': { type: 'string' },
    'worker-heap-mb': { type: 'string' },
    planes: { type: 'boolean' },
    judge: { type: 'string' },
    'judge-images': { type: 'string' },
    'design-judge': { type: 'string' },
    agent: { type: 'string' },
  },
  async run({ values, json }) {
    const v = values as Record<string, string | undefined>;
    let result: SessionResult;
    // Filled as arguments parse; an errored result reports only what parsed (NaN prints as null).
    const spec: SessionSpec = { task: v.task ?? '', scene: v.scene, seed: NaN };
    try {
      if (!v.task) throw new XrsimInputError('missing --task', { expected: 'a task id (see `xrsim list tasks`) or a task .json path' });
      spec.seed = parseSeedArg(v.seed, 1);
      spec.dominantHand = parseChoiceArg('hand', v.hand, ['right', 'left'] as const, 'right');
      spec.substeps = parseNumberArg('substeps', v.substeps, true);
      spec.duration = parseNumberArg('duration', v.duration, false);
      if (v['hand-model'] !== undefined) spec.handModel = v['hand-model'];
      if (v.app !== undefined) spec.app = v.app;
      if (v.start !== undefined) spec.start = v.start;
      if (values.perturb === true) spec.user = { perturbation: true };
      if (v.depth !== undefined || values.planes === true) {
        spec.sensing = {
          ...(v.depth !== undefined ? { depth: { noise: parseChoiceArg('depth', v.depth, ['ideal', 'headset', 'phone-tof'] as const, 'ideal') } } : {}),
          ...(values.planes === true ? { planes: true } : {}),
        };
      }
      if (v.out) spec.record = { path: v.out, encoding: parseChoiceArg('encoding', v.encoding, ['lossless', 'quantised'] as const, 'lossless'), ...(values.force === true ? { replace: true } : {}) };
      if (v.judge !== undefined || v['judge-images'] !== undefined || v.out) {
        const imagesDir = v['judge-images'] ?? (v.out ? `${v.out.replace(/\.xrs$/, '')}.visual` : undefined);
        spec.judge = { ...(v.judge !== undefined ? { command: v.judge } : {}), ...(imagesDir ? { imagesDir } : {}) };
      }
      if (v['design-judge'] !== undefined) spec.designJudge = { command: v['design-judge'], ...(v.out ? { dir: `${v.out.replace(/\.xrs$/, '')}.design` } : {}) };
      if (v.agent !== undefined) spec.agent = v.agent;
      if (v.out) spec.agentDir = `${v.out.replace(/\.xrs$/, '')}.agent`;
      const timeLimitSeconds = parseNumberArg('time-limit', v['time-limit'], false) ?? DEFAULT_TIME_LIMIT;
      result = await runSessionIsolated(spec, { timeLimitSeconds, workerHeapMb: parseNumberArg('worker-heap-mb', v['worker-heap-mb'], true) });
    } catch (err) {
      result = erroredResult(spec, err);
    }
    if (json) printJson(result);
    else printHuman(result);
    if (result.status === 'errored') {
      if (!json) process.stderr.write(`xrsim run: ${result.error?.message}\n`);
      return result.error?.kind === 'bad-input' ? ExitCode.badInput : ExitCode.failed;
    }
    return result.status === 'passed' ? ExitCode.ok : ExitCode.failed;
  },
};

function printHuman(r: SessionResult): void {
  // A session errored only by a milestone no judge could score still has the rest of its milestones to show.
  if (r.status === 'errored' && r.error?.kind !== 'judge') return;
  const passed = r.milestones.filter((m) => m.passed).length;
  process.stdout.write(
    `${r.task} in ${r.scene}, seed ${r.seed}, ${r.hand} hand: ${r.status.toUpperCase()} ` +
      `(score ${r.score.toFixed(2)}, ${passed}/${r.milestones.length} milestones)\n`,
  );
  if (r.appErrors > 0 && r.firstAppError) {
    const { tick, phase, message } = r.firstAppError;
    process.stdout.write(`  app errors: ${r.appErrors} (the first at tick ${tick}, in ${phase}: ${oneLine(message)})\n`);
  }
  if (r.actorFailures && r.firstActorFailure) {
    const { tick, step, reason } = r.firstActorFailure;
    process.stdout.write(`  actor failures: ${r.actorFailures} (the first at tick ${tick}, in ${step}: ${oneLine(reason)})\n`);
  }
  process.stdout.write(formatMilestones(r.milestones));
  process.stdout.write(formatDesign(r.design));
  process.stdout.write(`hash ${r.hash} · ${r.ticks} ticks · model ${r.modelHash.slice(0, 12)}${r.stream ? ` · stream ${r.stream}` : ''}\n`);
}
