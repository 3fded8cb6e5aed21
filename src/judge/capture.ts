/**
 * Rendering the user's view at the moments of a task's `visual` validators, while the session runs. It
 * watches the frames the session commits (a `RunHooks.onFrame` observer: it reads frames, never writes
 * them, so no hash changes), keeps the recorded scene up to date and, at each moment, renders the view
 * with the CPU renderer and writes it as a PNG. The moments are found by the same `momentWatcher` the
 * validator uses, so the images show the validator's ticks.
 *
 * A validator whose view is `layer` (a browser app's: what the page drew into its XR layer) is not
 * rendered here: the page's layer is read back only at ticks asked for before the page draws them, so its
 * images are taken in a second run at the moments' known ticks ({@link VisualCapture.layerCapture}).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LayerCapture } from '../browser/host-app.js';
import { DEFAULT_LAYER_SIZE, type LayerImage } from '../browser/protocol.js';
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
  /** What it shows: a browser app's XR layer (both eyes side by side) or the simulation's own view. */
  view: JudgedView;
}

/** What a `visual` validator's images show. */
export type JudgedView = 'layer' | 'simulation';

/**
 * The view a `visual` validator judges: its `view`, else the XR layer for a browser app seen through the
 * user's eyes, else the simulation's view. The loader refuses `layer` where it cannot be shown.
 */
export function judgedView(spec: VisualValidatorSpec, model: SimModel): JudgedView {
  if (spec.view) return spec.view;
  const app = model.sources.programs?.app as { host?: string } | undefined;
  return app?.host === 'browser' && (spec.camera ?? 'head') === 'head' ? 'layer' : 'simulation';
}

/** The images of one `visual` validator (by its index in the task's validators), or why there are none. */
export interface ValidatorCapture {
  spec: VisualValidatorSpec;
  view: JudgedView;
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
  /** The layer images to take in a run where the moments' ticks are known: `[validator, moment]` by tick. */
  private readonly layerTicks = new Map<number, { index: number; moment: number }[]>();
  private readonly renderers = new Map<string, CpuViewRenderer>();

  /**
   * @param validators indices of the model's `visual` validators to render for
   * @param imagesDir where the PNGs go (created when the first is written)
   * @param ticks instead of watching the moments: the tick to render each `[validator, moment]` at (moments
   *   known only after a first run, `milestone:<id>`); the others are not rendered
   */
  constructor(
    readonly model: SimModel,
    readonly dominantHand: Handedness,
    validators: readonly number[],
    private readonly imagesDir: string,
    ticks?: readonly { index: number; moment: number; tick: number }[],
  ) {
    this.ctx = { model, dominantHand, state: new FrameState() };
    this.scene = new RecordedScene(model);
    for (const index of validators) {
      const spec = model.validators[index] as unknown as VisualValidatorSpec;
      const view = judgedView(spec, model);
      this.captures.set(index, { spec, view, images: spec.moments.map(() => null), error: null });
      if (!ticks && view === 'simulation') spec.moments.forEach((at, moment) => this.watchers.push({ index, moment, fired: momentWatcher(this.ctx, at) }));
    }
    for (const { index, moment, tick } of ticks ?? []) {
      if (this.captures.get(index)!.view === 'simulation') this.watchers.push({ index, moment, fired: (frame) => frame.tick === tick });
      else this.layerTicks.set(tick, [...(this.layerTicks.get(tick) ?? []), { index, moment }]);
    }
  }

  /** Whether some of the moments are of a browser app's XR layer. */
  get wantsLayer(): boolean {
    return this.layerTicks.size > 0;
  }

  /** For the session's `layerCapture` option: reads the page's layer back at the layer moments' ticks. */
  layerCapture(): LayerCapture {
    return { wants: (tick) => this.layerTicks.has(tick), take: (tick, image) => this.takeLayer(tick, image) };
  }

  /**
   * After the run: a layer moment whose image never came had no XR layer to show (the page presented
   * nothing then), so the user saw black, as in videos of browser apps.
   */
  finishLayer(): void {
    const { width, height } = DEFAULT_LAYER_SIZE;
    for (const [tick, moments] of this.layerTicks) {
      if (moments.every(({ index, moment }) => this.captures.get(index)!.images[moment])) continue;
      this.takeLayer(tick, { width, height, rgb: Buffer.alloc(width * height * 3).toString('base64') });
    }
  }

  private takeLayer(tick: number, image: LayerImage): void {
    const rgb = new Uint8Array(Buffer.from(image.rgb, 'base64'));
    for (const { index, moment } of this.layerTicks.get(tick) ?? []) {
      const capture = this.captures.get(index)!;
      if (capture.error || capture.images[moment]) continue;
      try {
        const path = this.write(`visual${index}-moment${moment}-t${tick}-layer.png`, image.width, image.height, rgb);
        capture.images[moment] = { path, tick, time: tick * this.model.timing.dt, width: image.width, height: image.height, camera: 'head', view: 'layer' };
      } catch (err) {
        capture.error = `could not write the XR layer's image at tick ${tick}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
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
    const path = this.write(name, width, height, view.rgb);
    return { path, tick: frame.tick, time: frame.time, width, height, camera, view: 'simulation' };
  }

  private write(name: string, width: number, height: number, rgb: Uint8Array): string {
    mkdirSync(this.imagesDir, { recursive: true });
    const path = resolve(join(this.imagesDir, name));
    writeFileSync(path, encodePng({ kind: 'rgb', width, height, pixels: rgb }));
    return path;
  }
}
