/**
 * The timeline: play, pause, step, speed, a slider over every tick, and a strip marking events and each
 * milestone's evidence ticks (green passed, red failed). Clicking the strip seeks there.
 */
import type { Milestone } from '../../validate/types.js';
import type { EventMarker } from '../api-types.js';
import { clock, el, svg } from './dom.js';

/** What the timeline asks of the replay. */
export interface TimelineHandlers {
  seek(tick: number): void;
  play(): void;
  pause(): void;
  step(delta: number): void;
  speed(factor: number): void;
}

/** Strip width in SVG units (the strip stretches to the page's width). */
const STRIP = 1000;
export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4, 8];

export class TimelineUi {
  private readonly slider: HTMLInputElement;
  private readonly playButton: HTMLButtonElement;
  private readonly clockText: HTMLSpanElement;
  private readonly strip: SVGElement;
  private readonly cursor: SVGElement;
  private readonly marks: SVGElement;

  constructor(
    container: HTMLElement,
    private readonly frames: number,
    private readonly dt: number,
    handlers: TimelineHandlers,
  ) {
    const button = (label: string, title: string, action: () => void) => {
      const b = el('button', { type: 'button', title }, label);
      b.addEventListener('click', action);
      return b;
    };
    this.playButton = button('▶', 'play / pause (space)', () => (this.playButton.dataset.playing === '1' ? handlers.pause() : handlers.play()));
    this.playButton.id = 'play';
    const speed = el('select', { id: 'speed', title: 'playback speed' }, ...SPEEDS.map((s) => el('option', s === 1 ? { value: String(s), selected: '' } : { value: String(s) }, `${s}×`)));
    speed.addEventListener('change', () => handlers.speed(Number(speed.value)));
    this.slider = el('input', { type: 'range', id: 'tick-slider', min: '0', max: String(frames - 1), step: '1', value: '0', 'aria-label': 'tick' });
    this.slider.addEventListener('input', () => handlers.seek(Number(this.slider.value)));
    this.clockText = el('span', { class: 'clock' });
    const controls = el(
      'div',
      { id: 'controls' },
      button('|◀', 'first frame', () => handlers.seek(0)),
      button('◀', 'step back one tick (←)', () => handlers.step(-1)),
      this.playButton,
      button('▶|', 'step forward one tick (→)', () => handlers.step(1)),
      speed,
      this.slider,
      this.clockText,
    );
    this.marks = svg('g');
    this.cursor = svg('line', { class: 'cursor', x1: 0, x2: 0, y1: 0, y2: 26 });
    this.strip = svg('svg', { id: 'markers', viewBox: `0 0 ${STRIP} 26`, preserveAspectRatio: 'none' }, svg('rect', { x: 0, y: 0, width: STRIP, height: 26, fill: '#f5f7f9' }), this.marks, this.cursor);
    this.strip.addEventListener('click', (event) => {
      const box = this.strip.getBoundingClientRect();
      handlers.seek(Math.round(((event as MouseEvent).clientX - box.left) / box.width * (frames - 1)));
    });
    container.append(controls, this.strip);
    document.addEventListener('keydown', (event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
      if (event.key === ' ') (this.playButton.dataset.playing === '1' ? handlers.pause : handlers.play)();
      else if (event.key === 'ArrowLeft') handlers.step(-1);
      else if (event.key === 'ArrowRight') handlers.step(1);
      else return;
      event.preventDefault();
    });
    this.setTick(0);
  }

  private x(tick: number): number {
    return this.frames > 1 ? (tick / (this.frames - 1)) * STRIP : 0;
  }

  setTick(tick: number): void {
    this.slider.value = String(tick);
    this.clockText.textContent = `tick ${tick} · ${clock(tick * this.dt)} / ${clock((this.frames - 1) * this.dt)}`;
    this.cursor.setAttribute('x1', String(this.x(tick)));
    this.cursor.setAttribute('x2', String(this.x(tick)));
  }

  setPlaying(playing: boolean): void {
    this.playButton.dataset.playing = playing ? '1' : '0';
    this.playButton.textContent = playing ? '⏸' : '▶';
  }

  /** Marks events (top half) and milestone evidence (bottom half). */
  setMarkers(events: readonly EventMarker[], milestones: readonly Milestone[]): void {
    this.marks.replaceChildren();
    for (const e of events) {
      const x = this.x(e.tick);
      const cls = e.name === 'app-error' || e.name === 'actor-failure' ? 'error' : 'event';
      this.marks.append(svg('line', { class: `${cls} event-marker`, x1: x, x2: x, y1: 1, y2: 12 }, svg('title', {}, `tick ${e.tick}: ${e.text}`)));
    }
    for (const m of milestones) {
      for (const tick of m.ticks) {
        const x = this.x(tick);
        this.marks.append(
          svg('path', { class: `evidence-${m.passed ? 'passed' : 'failed'} evidence-marker`, d: `M${x - 4},25 L${x},15 L${x + 4},25 Z` }, svg('title', {}, `tick ${tick}: evidence for ${m.id} (${m.passed ? 'passed' : 'failed'})`)),
        );
      }
    }
  }
}
