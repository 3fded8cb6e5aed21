/**
 * Videos of a sweep's kept streams (`xrsim sweep --videos failed|all`): each wanted session's stream is
 * rendered from the user's head with the CPU renderer, or, for a browser app, what its page rendered into
 * its XR layer (the session run again in Chromium: `export/app-layer-video.ts`), and encoded by ffmpeg
 * next to it (`streams/<key>.webm`); the result line names it and the HTML report embeds it. A video that cannot be
 * made is noted on its line (`videoError`) and the sweep goes on: the result itself stands.
 */
import { XrsimInputError } from '../errors.js';
import { checkVideoOutput } from '../export/video.js';
import { encodeSessionVideo } from '../export/session-video.js';
import type { SweepResultLine } from './results.js';

/** Which sessions get a video. */
export type KeepVideos = 'failed' | 'all' | 'none';

/** The size and rate of sweep videos: small, so that many failures still encode quickly. */
export const SWEEP_VIDEO = { width: 320, height: 240, fps: 15 } as const;

/**
 * Checks that `videos` is a choice and can be made with the streams `keep` keeps, and that ffmpeg runs
 * (throws {@link XrsimInputError} before any session runs).
 */
export function checkSweepVideos(videos: KeepVideos, keep: 'failed' | 'all' | 'none'): void {
  if (!['failed', 'all', 'none'].includes(videos)) throw new XrsimInputError(`videos must be failed, all or none, got ${JSON.stringify(videos)}`, { expected: 'failed, all or none' });
  if (videos === 'none') return;
  if (keep === 'none' || (videos === 'all' && keep !== 'all')) {
    throw new XrsimInputError(`--videos ${videos} needs the streams of those sessions, but --keep-streams is ${keep}`, { expected: videos === 'all' ? '--keep-streams all' : '--keep-streams failed or all' });
  }
  checkVideoOutput('check.webm', SWEEP_VIDEO);
}

/** The line with a video of its kept stream when `videos` wants one (`video`, or `videoError` on failure). */
export async function withVideo(line: SweepResultLine, videos: KeepVideos): Promise<SweepResultLine> {
  if (videos === 'none' || !line.stream || (videos === 'failed' && line.status === 'passed')) return line;
  const out = line.stream.replace(/\.xrs$/, '') + '.webm';
  try {
    await encodeSessionVideo(line.stream, { out, ...SWEEP_VIDEO });
    return { ...line, video: out };
  } catch (err) {
    return { ...line, videoError: `no video: ${err instanceof Error ? err.message : String(err)}` };
  }
}
