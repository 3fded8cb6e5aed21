/**
 * Plots of each validator's watched quantity over the session, with its milestones' thresholds and
 * evidence ticks, and a cursor that follows the replay. Clicking a plot seeks to that moment.
 */
import type { Milestone } from '../../validate/types.js';
import type { TraceSeries } from '../api-types.js';
import { el, svg } from './dom.js';

const W = 340;
const H = 110;
const PAD = { left: 34, right: 6, top: 8, bottom: 14 };

export class Plots {
  private readonly cursors: SVGElement[] = [];

  constructor(
    container: HTMLElement,
    traces: readonly TraceSeries[],
    milestones: readonly Milestone[],
    private readonly duration: number,
    private readonly dt: number,
    seek: (seconds: number) => void,
  ) {
    for (const trace of traces) {
      const values = trace.points.map((p) => p[1]);
      const thresholds = trace.milestones.map((m) => m.threshold).filter(Number.isFinite);
      let lo = Math.min(...values, ...thresholds);
      let hi = Math.max(...values, ...thresholds);
      if (hi - lo < 1e-9) [lo, hi] = [lo - 1, hi + 1];
      const span = hi - lo;
      [lo, hi] = [lo - span * 0.05, hi + span * 0.05];
      const x = (t: number) => PAD.left + (t / Math.max(duration, 1e-9)) * (W - PAD.left - PAD.right);
      const y = (v: number) => H - PAD.bottom - ((v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
      const path = trace.points.map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      const parts: SVGElement[] = [
        svg('line', { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom, stroke: '#999' }),
        svg('text', { x: 2, y: PAD.top + 6 }, format(hi)),
        svg('text', { x: 2, y: H - PAD.bottom }, format(lo)),
        svg('path', { class: 'series', d: path }),
      ];
      for (const m of trace.milestones) {
        if (!Number.isFinite(m.threshold) || m.threshold < lo || m.threshold > hi) continue;
        parts.push(svg('line', { class: 'threshold', x1: PAD.left, x2: W - PAD.right, y1: y(m.threshold), y2: y(m.threshold) }, svg('title', {}, `${m.id}: ${m.comparison} ${m.threshold}`)));
      }
      const own = new Set(trace.milestones.map((m) => m.id));
      for (const m of milestones.filter((m) => own.has(m.id) && m.validator === trace.formula)) {
        for (const tick of m.ticks) parts.push(svg('line', { class: 'evidence', x1: x(tick * dt), x2: x(tick * dt), y1: PAD.top, y2: H - PAD.bottom }, svg('title', {}, `evidence for ${m.id} at tick ${tick}`)));
      }
      const cursor = svg('line', { class: 'cursor', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom });
      this.cursors.push(cursor);
      parts.push(cursor, svg('text', { x: PAD.left + 2, y: H - 2 }, '0 s'), svg('text', { x: W - 40, y: H - 2 }, `${duration.toFixed(1)} s`));
      const plot = svg('svg', { class: 'plot', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', 'data-formula': trace.formula }, ...parts);
      plot.addEventListener('click', (event) => {
        const box = plot.getBoundingClientRect();
        const px = (((event as MouseEvent).clientX - box.left) / box.width) * W;
        seek(Math.max(0, ((px - PAD.left) / (W - PAD.left - PAD.right)) * duration));
      });
      const caption = el('div', {}, el('strong', {}, trace.formula), trace.description ? ` — ${trace.description}` : '', ` (${trace.milestones.map((m) => `${m.id} ${m.comparison} ${m.threshold}`).join(', ')})`);
      container.append(el('figure', { style: 'margin: 6px 0' }, plot, caption));
    }
    if (traces.length === 0) container.append(el('p', {}, 'No validator of this task watches a quantity over time.'));
  }

  /** Moves every cursor to `seconds`. */
  setTime(seconds: number): void {
    const px = PAD.left + (seconds / Math.max(this.duration, 1e-9)) * (W - PAD.left - PAD.right);
    for (const c of this.cursors) {
      c.setAttribute('x1', String(px));
      c.setAttribute('x2', String(px));
    }
  }
}

const format = (v: number) => String(Number(v.toPrecision(3)));
