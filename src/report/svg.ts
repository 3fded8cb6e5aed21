/**
 * Small inline SVG charts for the HTML report: a histogram with a threshold line, and a line chart over
 * time with a threshold and marked ticks. Plain markup, no script, so the report opens anywhere offline.
 */

const W = 360;
const H = 150;
const PAD = { left: 44, right: 10, top: 10, bottom: 26 };

const num = (v: number) => (Math.abs(v) >= 100 || v === 0 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2));

/** Scales data to the plot area; `lo..hi` widened to include `extra` values and never empty. */
function scale(lo: number, hi: number, extra: number[], out0: number, out1: number) {
  let a = Math.min(lo, ...extra);
  let b = Math.max(hi, ...extra);
  if (!(b > a)) [a, b] = [a - 1, b + 1];
  const margin = (b - a) * 0.05;
  a -= margin;
  b += margin;
  return { at: (v: number) => out0 + ((v - a) / (b - a)) * (out1 - out0), lo: a, hi: b };
}

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

/** A histogram of `values` with the threshold drawn. */
export function histogramSvg(values: number[], threshold: number, title: string): string {
  const bins = 12;
  const finite = values.filter(Number.isFinite);
  const x = scale(finite.length ? Math.min(...finite) : 0, finite.length ? Math.max(...finite) : 1, [threshold], PAD.left, W - PAD.right);
  const counts = new Array<number>(bins).fill(0);
  for (const v of finite) counts[Math.min(bins - 1, Math.floor(((v - x.lo) / (x.hi - x.lo)) * bins))]++;
  const top = Math.max(1, ...counts);
  const y = scale(0, top, [], H - PAD.bottom, PAD.top);
  const width = (W - PAD.left - PAD.right) / bins;
  const bars = counts.map((c, i) => `<rect x="${PAD.left + i * width + 1}" y="${y.at(c)}" width="${width - 2}" height="${H - PAD.bottom - y.at(c)}" class="bar"><title>${c}</title></rect>`).join('');
  const t = x.at(threshold);
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${title}"><title>${title}</title>${axes(x, { lo: 0, hi: top }, 'metric')}${bars}<line x1="${t}" y1="${PAD.top}" x2="${t}" y2="${H - PAD.bottom}" class="threshold"/></svg>`;
}

/** A line chart of [time, value] points with a threshold line and vertical marks at `marks` (seconds). */
export function lineSvg(points: [number, number][], threshold: number | null, marks: number[], title: string): string {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = scale(Math.min(...xs), Math.max(...xs), marks, PAD.left, W - PAD.right);
  const y = scale(Math.min(...ys), Math.max(...ys), threshold === null ? [] : [threshold], H - PAD.bottom, PAD.top);
  const path = points.map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${x.at(t).toFixed(1)},${y.at(v).toFixed(1)}`).join('');
  const line = threshold === null ? '' : `<line x1="${PAD.left}" y1="${y.at(threshold)}" x2="${W - PAD.right}" y2="${y.at(threshold)}" class="threshold"/>`;
  const ticks = marks.map((m) => `<line x1="${x.at(m)}" y1="${PAD.top}" x2="${x.at(m)}" y2="${H - PAD.bottom}" class="mark"><title>evidence at ${num(m)} s</title></line>`).join('');
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${title}"><title>${title}</title>${axes(x, y, 'seconds')}${line}${ticks}<path d="${path}" class="series"/></svg>`;
}
