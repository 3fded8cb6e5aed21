/**
 * Rendering the user's view at the moments of a task's `visual` validators, while the session runs. It
 * watches the frames the session commits (a `RunHooks.onFrame` observer: it reads frames, never writes
 * them, so no hash changes), keeps the recorded scene up to date and, at each moment, renders the view
 * with the CPU renderer and writes it as a PNG. The moments are found by the same `momentWatcher` the
 * validator uses, so the images show the validator's ticks.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FrameView } from '../frame/frame.js';
import type { Handedness } from '../hand/side.js';
import type { SimModel } from '../model/types.js';
import { encodePng } from '../render/png.js';
import { CpuViewRenderer, RecordedScene, viewCamera } from '../render/view.js';
import { FrameState } from '../validate/frame-state.js';
import { VISUAL_DEFAULT_SIZE, type VisualValidatorSpec } from '../validate/visual.js';
import { momentWatcher, type ValidatorContext } from '../validate/xr-context.js';

/** One image taken for a validator. */
export interface CapturedImage {
  path: string;
  tick: number;
  time: number;
  width: number;
  height: number;
  camera: 'head' | 'overview';
}

/** The images of one `visual` validator (by its index in the task's validators), or why there are none. */
export interface ValidatorCapture {
  spec: VisualValidatorSpec;
  /** One per moment, in the spec's order; a moment that never happened has none. */
  images: (CapturedImage | null)[];
  /** Why rendering failed, if it did. */
  error: string | null;
}

/** Renders the views of the given `visual` validators at their moments. */
export class VisualCapture {
  readonly captures = new Map<number, ValidatorCapture>();
  private readonly ctx: ValidatorContext;
  private readonly scene: RecordedScene;
  private readonly watchers: { index: number; moment: number; fired: (frame: FrameView) => boolean }[] = [];
  private readonly renderers = new Map<string, CpuViewRenderer>();

  /**
   * @param validators indices of the model's `visual` validators to render for
   * @param imagesDir where the PNGs go (created when the first is written)
   * @param ticks instead of watching the moments: the tick to render each `[validator, moment]` at (moments
   *   known only after a first run, `milestone:<id>`); the others are not rendered
   */
  constructor(
    readonly model: SimModel,
    dominantHand: Handedness,
    validators: readonly number[],
    private readonly imagesDir: string,
    ticks?: readonly { index: number; moment: number; tick: number }[],
  ) {
    this.ctx = { model, dominantHand, state: new FrameState() };
    this.scene = new RecordedScene(model);
    for (const index of validators) {
      const spec = model.validators[index] as unknown as VisualValidatorSpec;
      this.captures.set(index, { spec, images: spec.moments.map(() => null), error: null });
      if (!ticks) spec.moments.forEach((at, moment) => this.watchers.push({ index, moment, fired: momentWatcher(this.ctx, at) }));
    }
    for (const { index, moment, tick } of ticks ?? []) this.watchers.push({ index, moment, fired: (frame) => frame.tick === tick });
  }

  /** Observes a committed frame (every frame, in order, frame 0 included). */
  observe(frame: FrameView): void {
    this.ctx.state.observe(frame);
    this.scene.advance(frame);
    for (const w of this.watchers) {
      if (!w.fired(frame)) continue;
      const capture = this.captures.get(w.index)!;
      if (capture.error) continue;
      try {
        capture.images[w.moment] = this.render(frame, capture.spec, `visual${w.index}-moment${w.moment}-t${frame.tick}.png`);
      } catch (err) {
        capture.error = `could not render the view at tick ${frame.tick}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }

  private render(frame: FrameView, spec: VisualValidatorSpec, name: string): CapturedImage {
    const width = spec.width ?? VISUAL_DEFAULT_SIZE.width;
    const height = spec.height ?? VISUAL_DEFAULT_SIZE.height;
    const camera = spec.camera ?? 'head';
    const key = `${width}x${height}`;
    let renderer = this.renderers.get(key);
    if (!renderer) this.renderers.set(key, (renderer = new CpuViewRenderer(width, height)));
    // The same camera as `xrsim render` and videos: 90° horizontal.
    const view = renderer.render(this.scene, viewCamera(camera, frame, this.model, { width, height, fovDeg: 90 }));
    mkdirSync(this.imagesDir, { recursive: true });
    const path = resolve(join(this.imagesDir, name));
    writeFileSync(path, encodePng({ kind: 'rgb', width, height, pixels: view.rgb }));
    return { path, tick: frame.tick, time: frame.time, width, height, camera };
  }
}
