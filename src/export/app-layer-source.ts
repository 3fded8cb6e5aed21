/**
 * Video frames of what a browser app rendered into its XR layer: what the user saw, both eyes side by
 * side. The recorded session is run again (sessions are deterministic) with its page asked to read its
 * layer back after the frames the video shows (`LayerCapture`); the re-run's session hash must equal the
 * stream's, or the video is refused as not of the recorded session ({@link AppLayerSource.finish}).
 *
 * The session runs while the encoder pulls frames: the capture hands each image over and waits while a
 * few are queued, so a slow encoder slows the session rather than filling memory.
 */
import { XrsimInputError } from '../errors.js';
import type { LayerCapture } from '../browser/host-app.js';
import { DEFAULT_LAYER_SIZE, type LayerImage } from '../browser/protocol.js';
import type { SimModel } from '../model/types.js';
import { Session } from '../session/session.js';
import { modelFromHeader } from '../stream/header.js';
import type { StreamReader } from '../stream/reader.js';
import type { VideoFrameSource } from './video-source.js';

/** Images captured but not yet encoded before the session waits (each is a layer's RGB: 96 KiB by default). */
const QUEUED_IMAGES = 8;

/** Whether a stream was recorded from a browser app (its app is a page, not a module). */
export function isBrowserAppStream(reader: StreamReader): boolean {
  const app = reader.header.sources.programs?.app as { host?: string } | undefined;
  return app?.host === 'browser';
}

class CaptureAborted extends Error {
  constructor() {
    super('the video was abandoned');
  }
}

export class AppLayerSource implements VideoFrameSource {
  readonly width = DEFAULT_LAYER_SIZE.width;
  readonly height = DEFAULT_LAYER_SIZE.height;
  readonly pixelFormat = 'rgb24' as const;
  readonly duration: number;
  private readonly dt: number;
  private readonly lastTick: number;
  private readonly wanted = new Set<number>();
  /** Captured images by tick, oldest first. */
  private readonly images = new Map<number, Uint8Array>();
  /** Wakes the encoder (an image arrived, or the run ended) or the session (an image was taken). */
  private wakeEncoder: (() => void) | null = null;
  private wakeSession: (() => void) | null = null;
  private run: Promise<string> | null = null;
  private ended = false;
  private failure: unknown = null;
  private aborted = false;
  private black: Uint8Array | null = null;

  /**
   * @param reader a stream recorded from a browser app ({@link isBrowserAppStream})
   * @param fps the video's rate: the ticks it shows are the only ones read back
   */
  constructor(
    private readonly reader: StreamReader,
    fps: number,
  ) {
    if (!isBrowserAppStream(reader)) throw new XrsimInputError(`${reader.path} was not recorded from a browser app: it has no XR layer to show`, { expected: 'a stream of a browser app (or the simulation view)' });
    this.dt = reader.header.timing.dt;
    this.lastTick = reader.chunks.length ? reader.chunks[0].firstTick + reader.frames - 1 : 0;
    this.duration = this.lastTick * this.dt;
    const frames = Math.floor(this.duration * fps + 1e-9) + 1;
    for (let k = 0; k < frames; k++) this.wanted.add(this.tickAt(k / fps));
  }

  /** The tick shown at `seconds`: the nearest one, never past the last (as the simulation view). */
  tickAt(seconds: number): number {
    return Math.min(this.lastTick, Math.round(seconds / this.dt));
  }

  async frameAt(seconds: number): Promise<Uint8Array> {
    const tick = this.tickAt(seconds);
    this.run ??= this.start();
    for (;;) {
      // Older images are done with (a tick shown twice, at a rate above the tick rate, keeps its own).
      let later = false;
      for (const t of this.images.keys()) {
        if (t < tick) this.images.delete(t);
        else if (t > tick) later = true;
      }
      this.wakeSession?.();
      const image = this.images.get(tick);
      if (image) return image;
      if (this.failure) throw this.failure;
      // No image for this tick while the run is past it: the page had no XR layer then, and the user saw nothing.
      if (later || this.ended) return (this.black ??= new Uint8Array(this.width * this.height * 3));
      await new Promise<void>((resolve) => (this.wakeEncoder = resolve));
    }
  }

  /**
   * Waits for the re-run to end and checks it was the recorded session (its hash is the stream's). Throws
   * when it was not, or when the run failed.
   */
  async finish(): Promise<void> {
    const hash = await (this.run ??= this.start());
    if (this.failure) throw this.failure;
    const recorded = this.reader.sessionHash;
    if (recorded !== null && hash !== recorded) {
      throw new Error(`the re-run of ${this.reader.path} is not the recorded session (hash ${hash}, recorded ${recorded}): the page, its packages or the browser changed since it was recorded`);
    }
  }

  /** Stops the re-run (after a failed encode) and closes its page. */
  async close(): Promise<void> {
    this.aborted = true;
    this.wakeSession?.();
    await this.run?.catch(() => undefined);
  }

  private async start(): Promise<string> {
    const header = this.reader.header;
    let model: SimModel;
    try {
      model = modelFromHeader(header);
    } catch (err) {
      this.failure = err;
      this.ended = true;
      return '';
    }
    if (model.hash !== header.modelHash) {
      this.failure = new Error(`${this.reader.path}: the browser app or the task changed since the stream was recorded (model hash ${model.hash.slice(0, 16)}…, recorded ${header.modelHash.slice(0, 16)}…), so its pages cannot be shown again`);
      this.ended = true;
      this.wakeEncoder?.();
      return '';
    }
    const capture: LayerCapture = { wants: (tick) => this.wanted.has(tick), take: (tick, image) => this.take(tick, image) };
    const perturbationSeed = (header.spec as { perturbationSeed?: number }).perturbationSeed;
    try {
      const session = await Session.create(model, { seed: header.seed, perturbationSeed, dominantHand: header.dominantHand, layerCapture: capture });
      return (await session.run()).hash;
    } catch (err) {
      this.failure = err;
      return '';
    } finally {
      this.ended = true;
      this.wakeEncoder?.();
    }
  }

  private async take(tick: number, image: LayerImage): Promise<void> {
    while (this.images.size >= QUEUED_IMAGES && !this.aborted) await new Promise<void>((resolve) => (this.wakeSession = resolve));
    if (this.aborted) throw new CaptureAborted();
    this.images.set(tick, fitted(image, this.width, this.height));
    this.wakeEncoder?.();
  }
}

/** The image's RGB bytes at `width` × `height` (nearest neighbour, for a page that scaled its framebuffer). */
function fitted(image: LayerImage, width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(Buffer.from(image.rgb, 'base64'));
  if (image.width === width && image.height === height) return rgb;
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.floor((y * image.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor((x * image.width) / width));
      out.set(rgb.subarray((sy * image.width + sx) * 3, (sy * image.width + sx) * 3 + 3), (y * width + x) * 3);
    }
  }
  return out;
}
