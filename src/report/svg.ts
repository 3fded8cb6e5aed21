/**
 * Small inline SVG charts for the HTML report: a histogram with a threshold line, and a line chart over
 * time with a threshold and marked ticks. Plain markup, no script, so the report opens anywhere offline.
 */

const W = 360;
const H = 150;
const PAD = { left: 44, right: 10, top: 10, bottom: 26 };

const num = (v: number) => (Math.abs(v) >= 100 || v === 0 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2));

/** Scales data to the plot area; `lo..hi` widened to include `extra` values and never empty. */
function scale(lo: number, hi: number, extra: readonly number[], out0: number, out1: number) {
  let a = lo;
  let b = hi;
  for (const v of extra) {
    if (v < a) a = v;
    if (v > b) b = v;
  }
  if (!(b > a)) [a, b] = [Number.isFinite(a) ? a - 1 : -1, Number.isFinite(b) ? b + 1 : 1];
  const margin = (b - a) * 0.05;
  a -= margin;
  b += margin;
  return { at: (v: number) => out0 + ((v - a) / (b - a)) * (out1 - out0), lo: a, hi: b };
}

/** Smallest and largest of a column of `rows` (a loop: spreading 100,000+ values into Math.min overflows the stack). */
function extent(rows: readonly (readonly number[])[], column: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const row of rows) {
    const v = row[column];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return rows.length ? [lo, hi] : [0, 1];
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function axes(x: { lo: number; hi: number }, y: { lo: number; hi: number }, xLabel: string): string {
  const x0 = PAD.left, x1 = W - PAD.right, y0 = H - PAD.bottom, y1 = PAD.top;
  return [
    `<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y0}" class="axis"/>`,
    `<line x1="${x0}" y1="${y0}" x2="${x0}" y2="${y1}" class="axis"/>`,
    `<text x="${x0}" y="${H - 8}" class="tick">${num(x.lo)}</text>`,
    `<text x="${x1}" y="${H - 8}" class="tick" text-anchor="end">${num(x.hi)}</text>`,
    `<text x="${(x0 + x1) / 2}" y="${H - 8}" class="tick" text-anchor="middle">${xLabel}</text>`,
    `<text x="${x0 - 4}" y="${y0}" class="tick" text-anchor="end">${num(y.lo)}</text>`,
    `<text x="${x0 - 4}" y="${y1 + 8}" class="tick" text-anchor="end">${num(y.hi)}</text>`,
  ].join('');
}

/** A histogram already binned over `lo..hi` (equal bins), with the threshold drawn. */
export function histogramSvg(histogram: { lo: number; hi: number; counts: readonly number[] }, threshold: number, title: string): string {
  const { lo, hi, counts } = histogram;
  const bins = counts.length;
  const x0 = PAD.left;
  const x1 = W - PAD.right;
  const xAt = (v: number) => x0 + ((v - lo) / (hi - lo)) * (x1 - x0);
  let top = 1;
  for (const c of counts) if (c > top) top = c;
  const y = scale(0, top, [], H - PAD.bottom, PAD.top);
  const width = (x1 - x0) / bins;
  const bars = counts.map((c, i) => `<rect x="${x0 + i * width + 1}" y="${y.at(c)}" width="${width - 2}" height="${H - PAD.bottom - y.at(c)}" class="bar"><title>${c}</title></rect>`).join('');
  const t = xAt(threshold);
  const name = escapeText(title);
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${name}"><title>${name}</title>${axes({ lo, hi }, { lo: 0, hi: top }, 'metric')}${bars}<line x1="${t}" y1="${PAD.top}" x2="${t}" y2="${H - PAD.bottom}" class="threshold"/></svg>`;
}

/**
 * A line chart of [time, value] points with a threshold line and vertical marks at `marks` (seconds). Any
 * number of points: the caller thins long series (`traces.ts` keeps each bucket's minimum and maximum).
 */
export function lineSvg(points: readonly (readonly [number, number])[], threshold: number | null, marks: readonly number[], title: string): string {
  const [t0, t1] = extent(points, 0);
  const [v0, v1] = extent(points, 1);
  const x = scale(t0, t1, marks, PAD.left, W - PAD.right);
  const y = scale(v0, v1, threshold === null ? [] : [threshold], H - PAD.bottom, PAD.top);
  const path = points.map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${x.at(t).toFixed(1)},${y.at(v).toFixed(1)}`).join('');
  const line = threshold === null ? '' : `<line x1="${PAD.left}" y1="${y.at(threshold)}" x2="${W - PAD.right}" y2="${y.at(threshold)}" class="threshold"/>`;
  const ticks = marks.map((m) => `<line x1="${x.at(m)}" y1="${PAD.top}" x2="${x.at(m)}" y2="${H - PAD.bottom}" class="mark"><title>evidence at ${num(m)} s</title></line>`).join('');
  const name = escapeText(title);
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${name}"><title>${name}</title>${axes(x, y, 'seconds')}${line}${ticks}<path d="${path}" class="series"/></svg>`;
}
