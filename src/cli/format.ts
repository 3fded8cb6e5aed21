/**
 * Plain-text formatting for terminal output.
 */
import type { Milestone } from '../validate/types.js';
import type { DesignReport } from '../design/types.js';

/** Bytes as `12.3 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** A number with at most `digits` significant digits, trailing zeros dropped. */
export function formatNumber(value: number | null, digits = 4): string {
  if (value === null) return 'never';
  if (value === 0) return '0';
  return String(Number(value.toPrecision(digits)));
}

/** Left-aligned columns. */
export function table(rows: string[][], indent = '  '): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => indent + r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}

/** Text from app code as one printable line: control characters escaped, at most `max` characters. */
export function oneLine(text: string, max = 200): string {
  const escaped = text.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\n' ? ' ⏎ ' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return escaped.length <= max ? escaped : `${escaped.slice(0, max)}…`;
}

/** One line per milestone: verdict, id, metric against threshold, evidence ticks; then any notes, once each. */
/** A design report as text: the score, then each heuristic's rating, metric and what decided it. */
export function formatDesign(design: DesignReport | undefined): string {
  if (!design) return '';
  const rows = table(
    design.ratings.map((r) => [r.rating === null ? '–' : String(r.rating), r.id, r.metric === null ? '' : `${formatNumber(r.metric)} ${r.unit}`, r.note ?? '']),
  );
  return `design ${design.score === null ? 'not rated' : `${design.score.toFixed(2)} of 5`} (docs/TASKS.md, "Design score"):\n${rows}`;
}

export function formatMilestones(milestones: readonly Milestone[]): string {
  if (milestones.length === 0) return '';
  const notes = [...new Set(milestones.flatMap((m) => [...(m.note ? [m.note] : []), ...(m.visual?.verdict ? [`judge on ${m.id}: ${m.visual.verdict.reason}`] : [])]))];
  const rows = table(
    milestones.map((m) => [
      m.passed ? 'pass' : m.errored ? 'ERRORED' : 'FAIL',
      m.id,
      `metric ${formatNumber(m.metric)}`,
      `${m.comparison === 'atLeast' ? '≥' : m.comparison === 'exactly' ? '=' : '≤'} ${formatNumber(m.threshold)}`,
      m.ticks.length > 0 ? `ticks ${m.ticks.slice(0, 6).join(', ')}${m.ticks.length > 6 ? ', …' : ''}` : '',
    ]),
  );
  return rows + notes.map((note) => `  note: ${note}\n`).join('');
}
