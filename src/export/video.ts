/**
 * Encoding a video with Debian's `ffmpeg`: raw frames (RGB, or YUV 4:2:0 from the CPU renderer) from a {@link VideoFrameSource} are piped to it
 * at a fixed rate, as WebM (VP9 with real-time settings: libvpx's VP8 measured several times slower) or
 * MP4 (H.264, ultrafast). ffmpeg encodes in its own process while the next frames render here.
 * Frame k shows simulated time k / fps, so a session of D seconds gives floor(D · fps) + 1 frames and a
 * video of that many frames / fps seconds.
 */
import { checkOutputFile, type OutputKind } from '../output-file.js';
import { spawn, spawnSync } from 'node:child_process';
import { extname } from 'node:path';
import { XrsimInputError } from '../errors.js';
import type { VideoFrameSource } from './video-source.js';

/** How to install ffmpeg, for error messages. */
export const FFMPEG_INSTALL_HELP = 'xrsim encodes videos with ffmpeg. To install it on Debian or Ubuntu: sudo apt-get install -y ffmpeg';

/** Video containers by extension, with the encoder settings used for each. */
const CODECS: Record<string, string[]> = {
  '.webm': ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1', '-b:v', '1M', '-pix_fmt', 'yuv420p'],
  '.mp4': ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'],
};

/** Binaries found to run, by name: probing costs a process start (0.1–0.4 s), once per process is enough. */
const runnable = new Set<string>();

/** Whether ffmpeg can be run (`XRSIM_FFMPEG` names another binary). */
export function ffmpegPath(): string | null {
  const path = process.env.XRSIM_FFMPEG || 'ffmpeg';
  if (runnable.has(path)) return path;
  const probe = spawnSync(path, ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) return null;
  runnable.add(path);
  return path;
}

/** Options of {@link encodeVideo}. */
export interface VideoOptions {
  /** `.webm` or `.mp4`. */
  out: string;
  /** Frames per second of the video (and of simulated time sampled). */
  fps: number;
  /** Called after each frame with the frame index and the count. */
  progress?: (frame: number, frames: number) => void;
}

/** What was encoded. */
export interface VideoReport {
  out: string;
  frames: number;
  fps: number;
  /** Seconds of video: frames / fps. */
  duration: number;
  width: number;
  height: number;
}

/** The comment every video xrsim encodes carries, so that a later run may replace it. */
const VIDEO_COMMENT = 'written by xrsim';

/**
 * A video xrsim encoded, as an output that may replace an existing file (src/output-file.ts): WebM keeps
 * its tags near the start and our MP4s are `faststart`, their metadata ahead of the frames.
 */
export const VIDEO_OUTPUT: OutputKind = { what: 'a video written by xrsim', headBytes: 4 * 1024 * 1024, isOwn: (head) => head.includes(VIDEO_COMMENT) };

/** Checks the output name and finds ffmpeg; throws {@link XrsimInputError} explaining what is missing. */
export function checkVideoOutput(out: string, size: { width: number; height: number }, replace?: { force?: boolean }): string {
  const extension = extname(out).toLowerCase();
  if (!Object.hasOwn(CODECS, extension)) throw new XrsimInputError(`--video must end in .webm or .mp4, got ${JSON.stringify(out)}`, { expected: 'OUT.webm or OUT.mp4' });
  if (replace) checkOutputFile(out, VIDEO_OUTPUT, { option: '--video', force: replace.force });
  if (size.width % 2 || size.height % 2) throw new XrsimInputError(`video width and height must be even (yuv420p), got ${size.width} x ${size.height}`, { expected: 'even --width and --height' });
  const ffmpeg = ffmpegPath();
  if (!ffmpeg) throw new XrsimInputError(`ffmpeg is not installed or does not run.\n${FFMPEG_INSTALL_HELP}`, { expected: 'ffmpeg on PATH (or XRSIM_FFMPEG)' });
  return ffmpeg;
}

/** Encodes `source` into `options.out`. */
export async function encodeVideo(source: VideoFrameSource, options: VideoOptions): Promise<VideoReport> {
  const ffmpeg = checkVideoOutput(options.out, source);
  const { fps } = options;
  const frames = Math.floor(source.duration * fps + 1e-9) + 1;
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', source.pixelFormat ?? 'rgb24', '-s', `${source.width}x${source.height}`, '-r', String(fps), '-i', 'pipe:0', ...CODECS[extname(options.out).toLowerCase()], '-r', String(fps), '-metadata', `comment=${VIDEO_COMMENT}`, options.out];
  const child = spawn(ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  let pipeError: Error | null = null;
  child.stdin.on('error', (err) => (pipeError = err));
  // The source may reuse its buffer before ffmpeg has read a frame, so each is copied, into a ring of
  // buffers reused once written (not a fresh buffer a frame: at 640x480 that kept the collector busy).
  const ring = new FrameRing();
  // Waits for ffmpeg to take more, or to be gone (then the loop stops and its exit status says why).
  const writeFrame = async (pixels: Uint8Array) => {
    const buffer = await ring.take(pixels.length, exited);
    buffer.set(pixels);
    const flowing = child.stdin.write(buffer, () => ring.give(buffer));
    if (!flowing) await Promise.race([new Promise((resolve) => child.stdin.once('drain', resolve)), exited]);
  };
  try {
    for (let k = 0; k < frames && pipeError === null && child.exitCode === null; k++) {
      await writeFrame(await source.frameAt(k / fps));
      options.progress?.(k, frames);
    }
  } finally {
    child.stdin.end();
  }
  const code = await exited;
  if (code !== 0) throw new Error(`ffmpeg failed (exit ${code}): ${stderr.trim()}`);
  return { out: options.out, frames, fps, duration: frames / fps, width: source.width, height: source.height };
}

/** Frame buffers handed to the pipe and taken back once written (a few: the pipe's buffer holds several frames). */
class FrameRing {
  private readonly free: Buffer[] = [];
  private created = 0;
  private waiting: (() => void) | null = null;

  constructor(private readonly size = 6) {}

  /** A buffer of `bytes`, waiting for one to come back when all are in the pipe (or until `gone` settles). */
  async take(bytes: number, gone: Promise<unknown>): Promise<Buffer> {
    for (;;) {
      const buffer = this.free.pop();
      if (buffer?.length === bytes) return buffer;
      if (buffer) this.created--; // another size: let it go
      if (this.created < this.size) {
        this.created++;
        return Buffer.allocUnsafe(bytes);
      }
      await Promise.race([new Promise<void>((resolve) => (this.waiting = resolve)), gone]);
      // ffmpeg is gone: a fresh buffer lets the loop reach its exit check.
      if (this.free.length === 0) return Buffer.allocUnsafe(bytes);
    }
  }

  give(buffer: Buffer): void {
    this.free.push(buffer);
    const wake = this.waiting;
    this.waiting = null;
    wake?.();
  }
}
