/**
 * The simulation's view of a stream rendered on several threads: frame k goes to thread k mod N, each of
 * which replays the stream on its own (reading and replaying cost a tenth of rendering) and renders its
 * frames in order. The CPU renderer is what limits a video, so N threads make it up to N times faster,
 * and ffmpeg encodes meanwhile in its own process. Frames are asked for a few ahead, in order.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../paths.js';
import { StreamReader } from '../stream/reader.js';
import { SimulationViewSource, type SimulationViewOptions, type VideoFrameSource, type VideoPixelFormat } from './video-source.js';
import type { VideoWorkerMessage } from './video-worker.js';

/** The compiled thread entry (also when this module runs from `src/` in tests). */
const VIDEO_WORKER = join(PACKAGE_ROOT, 'dist', 'src', 'export', 'video-worker.js');

/** Render threads by default: one per core, at most 4 (more wait on ffmpeg). */
export function defaultRenderThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** Frames of a stream's view rendered by `threads` worker threads, for `encodeVideo` at `fps`. */
export class ParallelViewSource implements VideoFrameSource {
  readonly width: number;
  readonly height: number;
  readonly duration: number;
  readonly pixelFormat: VideoPixelFormat;
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (pixels: Uint8Array) => void; reject: (err: Error) => void }>();
  private readonly frames = new Map<number, Promise<Uint8Array>>();
  private requested = 0;
  /** The frame the caller holds until its next call. */
  private handedOut: { k: number; pixels: Uint8Array } | null = null;
  private readonly lastFrame: number;

  constructor(
    private readonly path: string,
    options: Omit<SimulationViewOptions, 'gl'>,
    private readonly fps: number,
    threads = defaultRenderThreads(),
  ) {
    // The header alone says the size and duration (and checks the stream opens before threads start).
    const reader = StreamReader.open(path);
    try {
      const probe = new SimulationViewSource(reader, options);
      this.duration = probe.duration;
      this.pixelFormat = probe.pixelFormat;
    } finally {
      reader.close();
    }
    this.width = options.width;
    this.height = options.height;
    this.lastFrame = Math.floor(this.duration * fps + 1e-9);
    for (let t = 0; t < threads; t++) {
      const worker = new Worker(VIDEO_WORKER);
      worker.on('message', ({ k, pixels, error }: { k: number; pixels?: Uint8Array; error?: string }) => {
        const wait = this.waiting.get(k);
        this.waiting.delete(k);
        if (error !== undefined) wait?.reject(new Error(error));
        else wait?.resolve(pixels!);
      });
      worker.on('error', (err) => this.failAll(err));
      worker.postMessage({ kind: 'open', path, options } satisfies VideoWorkerMessage);
      this.workers.push(worker);
    }
  }

  frameAt(seconds: number): Promise<Uint8Array> {
    // The caller is done with the frame it had (the interface lets the next call reuse it): its buffer goes
    // back to the thread that drew it, which fills it again instead of allocating half a megabyte a frame.
    if (this.handedOut) {
      const { k: previous, pixels } = this.handedOut;
      this.handedOut = null;
      this.workers[previous % this.workers.length].postMessage({ kind: 'recycle', pixels } satisfies VideoWorkerMessage, [pixels.buffer as ArrayBuffer]);
    }
    const k = Math.round(seconds * this.fps);
    // Keep every thread a few frames ahead.
    const ahead = Math.min(this.lastFrame, k + this.workers.length * 3);
    while (this.requested <= ahead) this.request(this.requested++);
    const frame = this.frames.get(k) ?? Promise.reject(new Error(`frame ${k} (${seconds} s) was not asked for in order`));
    this.frames.delete(k);
    return frame.then((pixels) => {
      this.handedOut = { k, pixels };
      return pixels;
    });
  }

  /** Stops the threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.failAll(new Error('the video source was closed'));
  }

  private request(k: number): void {
    const frame = new Promise<Uint8Array>((resolve, reject) => this.waiting.set(k, { resolve, reject }));
    frame.catch(() => undefined); // handled by whoever asks for it
    this.frames.set(k, frame);
    this.workers[k % this.workers.length].postMessage({ kind: 'frame', k, seconds: k / this.fps } satisfies VideoWorkerMessage);
  }

  private failAll(err: Error): void {
    for (const wait of this.waiting.values()) wait.reject(err);
    this.waiting.clear();
  }
}
