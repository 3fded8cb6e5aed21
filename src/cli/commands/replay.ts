/**
 * `xrsim replay`: play a recorded stream into an app and compare the app's state with the recording.
 */
import { ExitCode, XrsimInputError } from '../../errors.js';
import { replayStream, type ReplayDifference, type ReplayMode } from '../../replay/replay.js';
import { printJson, type Command } from '../command.js';
import { requireOnePath } from './paths.js';

/** `xrsim replay FILE.xrs --app NAME|DIR|PATH`. */
export const replayCommand: Command = {
  name: 'replay',
  summary: 'play a recorded stream into an app (in process or a browser page) and compare its tags and events',
  help: `xrsim replay FILE.xrs --app NAME|DIR|PAGE.html|URL|MODULE.mjs [--batch N] [--json]

Plays the recorded session's head, hands, controllers, planes and depth into an app, at full speed, and
compares what the app publishes (tags, app events, app errors) with the recording, frame by frame. Prints
"identical", or the first tick where the app behaves differently, with the tag or event and both values.
Two modes, named in the output:
  resimulated   the stream's task is present: the session is rebuilt from the stream's header with the
                recorded seed and hand and re-run (the recorded actor script must be unchanged)
  open-loop     the task is absent (the actor script is not where it was recorded: a stream from another
                machine, a moved task): the recorded inputs are played from the frames themselves; app
                bodies, anchors and depth hit tests cannot be answered there and show as app errors
Browser pages run in Debian's Chromium: re-simulated on the session's closed loop (as recorded), open
loop in batches.

  --app NAME            an app of the stream's task (task.json "apps"): in process, or a browser page
                        (host "browser"); a name both have means the recorded app's host
  --app DIR|PAGE.html   a browser app: a directory with index.html, or one page
  --app URL             a page you serve on loopback (http://127.0.0.1:PORT/...)
  --app MODULE.mjs      an in-process app module
  --start SELECTOR      a page: the CSS selector of the element the simulated user clicks to enter XR
                        (default: the task app's "start", else the element a person would press)
  --agent AGENT         who answers the actor's a.agent steps: replay (default: the answers recorded
                        in the stream, without asking again), reference, or a command line
  --batch N             the most ticks per round trip to a page (speed only; default 32 re-simulated,
                        45 open loop)
  --json                print one JSON object { file, app, recordedHost, mode, identical, frames, compared,
                        firstDivergence: { tick, kind, name, recorded, replayed } | null }

Exit codes: 0 identical, 1 divergent, 2 bad input (not a stream, unknown app, changed actor script).`,
  options: { app: { type: 'string' }, batch: { type: 'string' }, start: { type: 'string' }, agent: { type: 'string' } },
  positionals: true,
  async run({ values, positionals, json }) {
    const path = requireOnePath(positionals, 'FILE.xrs');
    const v = values as Record<string, string | undefined>;
    if (!v.app) throw new XrsimInputError('missing --app', { expected: 'an app name from the stream\'s task, a directory or .html page, or an app module (.mjs)' });
    const batch = v.batch === undefined ? undefined : Number(v.batch);
    if (batch !== undefined && !(Number.isInteger(batch) && batch >= 1)) throw new XrsimInputError(`--batch must be a positive integer, got ${JSON.stringify(v.batch)}`, { expected: 'an integer of at least 1' });
    const report = await replayStream(path, { app: v.app, batch, start: v.start, ...(v.agent !== undefined ? { agent: v.agent } : {}) });
    if (json) printJson(report);
    else if (report.identical) process.stdout.write(`identical: ${report.compared} frames, app ${report.app.name} (${report.app.host}), ${describeMode(report.mode)}\n`);
    else process.stdout.write(`divergent: ${describeDifference(report.firstDivergence!)} (${describeMode(report.mode)})\n`);
    return report.identical ? ExitCode.ok : ExitCode.failed;
  },
};

function describeMode(mode: ReplayMode): string {
  return mode === 'open-loop' ? "open loop: the stream's task is absent, its recorded inputs were played from the frames" : 'resimulated from the stream\'s task';
}

/** One line: where and what. */
export function describeDifference(d: ReplayDifference): string {
  const what = d.kind === 'input' ? `the app's input ${d.name} (the world reacted to the app)` : d.kind === 'tag' ? `tag "${d.name}"` : `event ${d.name}`;
  return `first at tick ${d.tick}, ${what}: recorded ${JSON.stringify(d.recorded)}, replayed ${JSON.stringify(d.replayed)}`;
}
