/**
 * `xrsim view`: the 3D replay viewer for a stream or a sweep folder, in the user's browser or headless.
 */
import { checkOutputFile } from '../../output-file.js';
import { PNG_OUTPUT } from '../../render/png.js';
import { spawn } from 'node:child_process';
import { ExitCode, XrsimInputError } from '../../errors.js';
import { StreamReader } from '../../stream/reader.js';
import { SINGLE_STREAM_ID } from '../../view/catalog.js';
import { startViewer } from '../../view/server.js';
import { printJson, type Command } from '../command.js';
import { requireOnePath } from './paths.js';

/** `xrsim view FILE.xrs | SWEEP_DIR`. */
export const viewCommand: Command = {
  name: 'view',
  summary: 'replay a stream (or browse a sweep folder) in 3D in the browser, or save a screenshot',
  help: `xrsim view FILE.xrs | SWEEP_DIR [options]

Serves a viewer on 127.0.0.1 (a random port, nothing from the internet) and opens it in your browser:
a three.js replay of the room, bodies, head and view frustum, hands, contact probes, controllers,
detected planes, depth points and the app's tagged objects, with a timeline (play, pause, step, speed),
events and milestone evidence marked on it, and each validator's watched quantity plotted against its
thresholds. A sweep folder opens on its pass matrix; every failed or errored session is one click away.
The server runs until you stop it (Ctrl-C).

  --no-open             print the address instead of opening a browser
  --screenshot FILE.png open the viewer in headless Chromium, save a screenshot and exit
  --tick N              the tick to show (default 0)
  --session ID          in a sweep folder, the session (its result key) to show; without it the
                        screenshot shows the pass matrix
  --force               replace the file at --screenshot whatever it is (else only a PNG xrsim wrote)
  --width W, --height H screenshot size (default 1280 x 800)
  --chromium PATH       the Chromium for --screenshot (default: XRSIM_CHROMIUM or /usr/bin/chromium)
  --json                print { url } (or { screenshot, tick, consoleErrors, timeline }) as the last line

Exit codes: 0 served or saved, 1 the page reported errors, 2 bad input.`,
  options: {
    'no-open': { type: 'boolean' },
    screenshot: { type: 'string' },
    tick: { type: 'string' },
    session: { type: 'string' },
    width: { type: 'string' },
    height: { type: 'string' },
    chromium: { type: 'string' },
    force: { type: 'boolean' },
  },
  positionals: true,
  async run({ values, positionals, json }) {
    const v = values as Record<string, string | undefined>;
    const target = requireOnePath(positionals, 'FILE.xrs or SWEEP_DIR');
    const tick = v.tick === undefined ? undefined : wholeNumber('tick', v.tick);
    if (v.screenshot !== undefined) checkOutputFile(v.screenshot, PNG_OUTPUT, { option: '--screenshot', force: values.force === true });
    const viewer = await startViewer(target);
    if (v.session !== undefined && viewer.catalog.streamPath(v.session) === null) {
      await viewer.close();
      throw new XrsimInputError(`no session "${v.session}" with a stream here`, { file: target, expected: 'a result key of a session whose stream was kept' });
    }
    const stream = viewer.catalog.streamPath(v.session ?? SINGLE_STREAM_ID);
    if (tick !== undefined && stream !== null) {
      const reader = StreamReader.open(stream, { allowTruncated: true });
      const frames = reader.frames;
      reader.close();
      if (tick >= frames) {
        await viewer.close();
        throw new XrsimInputError(`--tick ${tick} is outside the stream (0–${frames - 1})`, { file: stream, expected: `a tick from 0 to ${frames - 1}` });
      }
    }
    if (v.screenshot !== undefined) {
      try {
        // Loaded only for screenshots: playwright-core takes 0.3–1.5 s to import, and every xrsim command
        // (this module is imported by the CLI's command table) would pay it before doing anything.
        const { screenshotViewer } = await import('../../view/screenshot.js');
        const report = await screenshotViewer(viewer.url, {
          path: v.screenshot,
          session: v.session,
          tick,
          width: v.width === undefined ? undefined : wholeNumber('width', v.width),
          height: v.height === undefined ? undefined : wholeNumber('height', v.height),
          chromium: v.chromium,
        });
        for (const error of report.consoleErrors) process.stderr.write(`xrsim view: the page reported: ${error}\n`);
        if (json) printJson({ screenshot: report.path, tick: report.tick, consoleErrors: report.consoleErrors, timeline: report.timeline });
        else process.stdout.write(`wrote ${report.path}${report.tick === null ? '' : ` (tick ${report.tick})`}\n`);
        return report.consoleErrors.length === 0 ? ExitCode.ok : ExitCode.failed;
      } finally {
        await viewer.close();
      }
    }
    const query = new URLSearchParams();
    if (v.session) query.set('session', v.session);
    if (tick !== undefined) query.set('tick', String(tick));
    const url = `${viewer.url}${query.size ? `?${query}` : ''}`;
    if (json) printJson({ url });
    else process.stdout.write(`xrsim viewer: ${url}  (Ctrl-C to stop)\n`);
    if (values['no-open'] !== true) openInBrowser(url);
    await new Promise<void>((done) => {
      const stop = () => done();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await viewer.close();
    return ExitCode.ok;
  },
};

/** Opens `url` with the desktop's opener; if there is none, the printed address is enough. */
function openInBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`xrsim view: could not start ${opener}; open ${url} in your browser\n`));
  child.unref();
}

function wholeNumber(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new XrsimInputError(`--${name} must be a non-negative integer, got ${JSON.stringify(text)}`, { expected: 'an integer such as 0 or 90' });
  return Number(text);
}
