/**
 * The user's point of view for an agent command's requests (`a.agent`): the session's frames are watched as
 * they are committed (an `onFrame` observer, as `capture.ts` does for judges: it never writes a frame, so no
 * hash changes), and at a decision the last committed frame is rendered with the CPU renderer: the head
 * camera, then the overview camera for a second view. The images are PNGs in the agent's folder.
 */
import { join, resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { AgentRequest } from '../actors/agent-protocol.js';
import type { FrameView } from '../frame/frame.js';
import type { SimModel } from '../model/types.js';
import { encodePng } from '../render/png.js';
import { CpuViewRenderer, RecordedScene, viewCamera } from '../render/view.js';
import { VISUAL_DEFAULT_SIZE } from '../validate/visual.js';

/** The size of an agent's views: the visual judges' default. */
const SIZE = VISUAL_DEFAULT_SIZE;
const CAMERAS = ['head', 'overview'] as const;

export class AgentViewRenderer {
  private readonly scene: RecordedScene;
  private readonly renderer = new CpuViewRenderer(SIZE.width, SIZE.height);
  private last: FrameView | null = null;

  constructor(private readonly model: SimModel) {
    this.scene = new RecordedScene(model);
  }

  /** Observes a committed frame (every frame, in order, frame 0 included). */
  observe(frame: FrameView): void {
    this.scene.advance(frame);
    this.last = frame;
  }

  /** The views a request asks for, of the last committed frame, written into `dir`. */
  render(request: AgentRequest, dir: string): AgentRequest['images'] {
    const frame = this.last;
    if (!frame) return [];
    return CAMERAS.slice(0, Math.min(request.views, CAMERAS.length)).map((camera) => {
      const view = this.renderer.render(this.scene, viewCamera(camera, frame, this.model, { ...SIZE, fovDeg: 90 }));
      const path = resolve(join(dir, `decision${request.decision}-${camera}.png`));
      writeFileSync(path, encodePng({ kind: 'rgb', ...SIZE, pixels: view.rgb }));
      return { path, ...SIZE, camera };
    });
  }
}
