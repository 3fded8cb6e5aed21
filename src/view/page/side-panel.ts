/**
 * The replay's side panel: what the session is, which layers are drawn, where the camera looks from, the
 * milestones (a click seeks to a milestone's first evidence tick), the plots, and the tags in view.
 */
import type { Milestone } from '../../validate/types.js';
import type { StreamMeta } from '../api-types.js';
import { clock, el } from './dom.js';

/** Layers the user can hide: name → objects' visibility setter. */
export type Layers = Record<string, (visible: boolean) => void>;
export type CameraPreset = 'user' | 'room' | 'head';

export class SidePanel {
  readonly plots: HTMLElement;
  private readonly milestones: HTMLElement;
  private readonly tags: HTMLElement;

  constructor(
    container: HTMLElement,
    meta: StreamMeta,
    layers: Layers,
    camera: (preset: CameraPreset) => void,
    private readonly seek: (tick: number) => void,
  ) {
    const duration = (meta.frames - 1) * meta.dt;
    const info = el(
      'div',
      { id: 'info' },
      `${meta.task}${meta.app ? ` · app ${meta.app}` : ''} · scene ${meta.scene} · seed ${meta.seed} · ${meta.dominantHand} hand`,
      el('br'),
      `${meta.frames} frames at ${Math.round(1 / meta.dt)} Hz (${clock(duration)}) · ${meta.chunks.length} chunks · ${meta.encoding}${meta.indexSource === 'footer' ? '' : ` · ${meta.indexSource}`}`,
    );
    const layerBoxes = Object.entries(layers).map(([name, set]) => {
      const box = el('input', { type: 'checkbox', 'data-layer': name, checked: '' });
      box.addEventListener('change', () => set(box.checked));
      return el('label', {}, box, ` ${name}`);
    });
    const presets = (['user', 'room', 'head'] as const).map((p) => {
      const b = el('button', { type: 'button', 'data-camera': p }, p === 'head' ? "the user's eyes" : p === 'user' ? 'near the user' : 'the room');
      b.addEventListener('click', () => camera(p));
      return b;
    });
    this.milestones = el('div', { id: 'milestones' }, 'scoring the replay…');
    this.plots = el('div', { id: 'plots' }, 'reading the stream…');
    this.tags = el('div', { id: 'tags-in-view' });
    container.append(
      info,
      el('h2', {}, 'Camera'),
      el('div', {}, ...presets),
      el('h2', {}, 'Layers'),
      el('div', { id: 'layers' }, ...layerBoxes),
      el('h2', {}, 'Milestones'),
      this.milestones,
      el('h2', {}, 'Watched quantities'),
      this.plots,
      el('h2', {}, 'Tagged objects in this frame'),
      this.tags,
    );
  }

  setMilestones(milestones: readonly Milestone[], source: string): void {
    this.milestones.replaceChildren(el('div', { class: 'source' }, source));
    for (const m of milestones) {
      const metric = m.metric === null ? 'never' : String(Number(m.metric.toPrecision(4)));
      const row = el(
        'div',
        { class: 'milestone', 'data-milestone': m.id, title: m.description ?? '' },
        el('span', { class: `mark ${m.passed ? 'passed' : 'failed'}` }),
        el('span', {}, `${m.id}: ${metric} (${m.comparison} ${m.threshold}) — ${m.passed ? 'passed' : 'failed'}${m.ticks.length ? `, evidence at tick ${m.ticks.join(', ')}` : ''}`),
      );
      if (m.ticks.length) {
        row.style.cursor = 'pointer';
        row.addEventListener('click', () => this.seek(m.ticks[0]));
      }
      this.milestones.append(row);
    }
    if (milestones.length === 0) this.milestones.append('This task has no milestones.');
  }

  setTags(present: ReadonlyMap<number, number[]>, names: ReadonlyMap<number, string>): void {
    const rows = [...present].map(([index, p]) => el('div', { class: 'tag' }, `${names.get(index) ?? `tag ${index}`} at (${p.map((v) => v.toFixed(3)).join(', ')})`));
    this.tags.replaceChildren(...(rows.length ? rows : ['none']));
  }
}
