/**
 * The viewer and video benchmark (issue 15), on what users record (an XR task with its app, hands, depth
 * and planes on):
 * - `viewer_open_s`: from starting `xrsim view STREAM --no-open` to the page's first drawn frame, for a
 *   10-minute stream, in an already running Chromium (as a user's browser is). Median of 3. Target ≤ 2.
 * - `video_encode_x_realtime`: seconds of session encoded per wall second by `xrsim render --video` at
 *   640×480 and 30 fps (CPU renderer, WebM/VP9), on a 60-second stream, command start to exit. Target ≥ 5.
 * Also reported: the same for MP4, session seconds per CPU second (load-independent), the timeline's
 * readiness, and `--screenshot` end to end (cold Chromium). The figures are wall clock on whatever else the
 * machine runs; `load_average_1min` says how busy it was.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from '../src/view/chromium.js';
import type { ViewerPageHandle } from '../src/view/api-types.js';
import { median, round } from './stats.js';

declare const window: { xrsimViewer: ViewerPageHandle };

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const TASK = 'xr/place-on-detected-plane';

/** Records `seconds` of the task with depth and planes on. */
function record(path: string, seconds: number): void {
  const run = spawnSync(process.execPath, [CLI, 'run', '--task', TASK, '--duration', String(seconds), '--depth', 'headset', '--planes', '--time-limit', '3600', '--out', path, '--json'], { encoding: 'utf8' });
  if (!run.stdout.includes(`"stream":"${path}"`)) throw new Error(`recording failed: ${run.stderr}`);
}

/** Epoch ms of the first drawn frame, and when the timeline was in, after starting `xrsim view`. */
async function openOnce(stream: string, browser: import('playwright-core').Browser): Promise<{ open: number; timeline: number }> {
  const start = Date.now();
  const child = spawn(process.execPath, [CLI, 'view', stream, '--no-open', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line).url);
      });
      child.on('exit', (code) => reject(new Error(`xrsim view exited ${code}`)));
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    const firstFrame = await page.evaluate(async () => {
      await window.xrsimViewer.ready;
      return performance.timeOrigin + window.xrsimViewer.firstFrameAt!;
    });
    await page.waitForFunction(() => window.xrsimViewer.replay!.timeline !== null, undefined, { timeout: 600_000 });
    const timeline = Date.now();
    await page.close();
    return { open: (firstFrame - start) / 1000, timeline: (timeline - start) / 1000 };
  } finally {
    child.kill('SIGTERM');
  }
}

/**
 * Wall seconds of `xrsim render --video`, and its CPU seconds (node and ffmpeg, user + system) where
 * `/usr/bin/time` is there to count them: on a loaded machine the CPU figure says what an idle one would do.
 */
function encode(stream: string, out: string): { wall: number; cpu: number | null } {
  const args = [CLI, 'render', stream, '--video', out, '--renderer', 'cpu', '--fps', '30', '--width', '640', '--height', '480'];
  const timed = existsSync('/usr/bin/time');
  const start = performance.now();
  const run = timed ? spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, ...args], { encoding: 'utf8' }) : spawnSync(process.execPath, args, { encoding: 'utf8' });
  const wall = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`render --video failed: ${run.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(run.stderr);
  return { wall, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : null };
}

/** Runs the view suite. */
export async function viewBenchmark(progress: (line: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-bench-view-'));
  try {
    const long = join(dir, 'ten-minutes.xrs');
    const minute = join(dir, 'one-minute.xrs');
    progress('recording a 10-minute session (depth and planes on) …');
    record(long, 600);
    record(minute, 60);
    progress(`${(statSync(long).size / 1e6).toFixed(0)} MB; opening it in the viewer 3 times …`);
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
    const opens: { open: number; timeline: number }[] = [];
    try {
      await openOnce(minute, browser); // warm the browser's cache of three.js, as a user's is
      for (let i = 0; i < 3; i++) opens.push(await openOnce(long, browser));
    } finally {
      await browser.close();
    }
    progress('screenshot end to end (cold Chromium) …');
    const shotStart = performance.now();
    const shot = spawnSync(process.execPath, [CLI, 'view', long, '--screenshot', join(dir, 'shot.png'), '--tick', '27000'], { encoding: 'utf8' });
    if (shot.status !== 0) throw new Error(`view --screenshot failed: ${shot.stderr}`);
    const screenshotSeconds = (performance.now() - shotStart) / 1000;
    progress('encoding 60 s of session at 640x480, 30 fps …');
    const webm = encode(minute, join(dir, 'video.webm'));
    const mp4 = encode(minute, join(dir, 'video.mp4'));
    const details = {
      stream_mb_10min: round(statSync(long).size / 1e6),
      viewer_open_s: opens.map((o) => round(o.open)),
      viewer_timeline_ready_s: opens.map((o) => round(o.timeline)),
      screenshot_command_s: round(screenshotSeconds),
      video_webm_wall_s_for_60s: round(webm.wall),
      video_webm_cpu_s_for_60s: webm.cpu === null ? null : round(webm.cpu),
      video_mp4_wall_s_for_60s: round(mp4.wall),
      video_mp4_cpu_s_for_60s: mp4.cpu === null ? null : round(mp4.cpu),
      load_average_1min: round(loadavg()[0]),
    };
    return {
      details,
      summary: {
        viewer_open_s: round(median(opens.map((o) => o.open))),
        viewer_timeline_ready_s: round(median(opens.map((o) => o.timeline))),
        video_encode_x_realtime: round(60 / webm.wall),
        video_encode_mp4_x_realtime: round(60 / mp4.wall),
        video_encode_x_realtime_per_cpu_second: webm.cpu === null ? null : round(60 / webm.cpu),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
