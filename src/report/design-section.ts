/**
 * The HTML report's design section: per task and app, the mean rating of each design heuristic over the
 * sessions that rated it, and the mean design score (docs/TASKS.md, "Design score"). Memory depends on the
 * numbers of rows and heuristics, never on the number of sessions.
 */
import { DESIGN_HEURISTIC_IDS } from '../design/types.js';
import type { SessionResult } from '../session/result.js';

/** Sums of ratings, per row (`task · app`) and heuristic id. */
export class DesignAggregate {
  private readonly rows = new Map<string, Map<string, { sum: number; n: number }>>();
  /** Heuristic ids beyond the formula's ten (a design judge's), in the order first seen. */
  private readonly extra: string[] = [];

  add(row: string, result: SessionResult): void {
    const design = result.design;
    if (!design) return;
    let cells = this.rows.get(row);
    if (!cells) this.rows.set(row, (cells = new Map()));
    const count = (id: string, value: number) => {
      const cell = cells!.get(id) ?? { sum: 0, n: 0 };
      cell.sum += value;
      cell.n++;
      cells!.set(id, cell);
    };
    for (const rating of design.ratings) {
      if (rating.rating === null) continue;
      if (!(DESIGN_HEURISTIC_IDS as readonly string[]).includes(rating.id) && !this.extra.includes(rating.id)) this.extra.push(rating.id);
      count(rating.id, rating.rating);
    }
    if (design.score !== null) count('score', design.score);
  }

  /** The section, or '' when no session had a design report. */
  html(escape: (text: string) => string): string {
    if (this.rows.size === 0) return '';
    const ids = [...DESIGN_HEURISTIC_IDS, ...this.extra];
    const cell = (c: { sum: number; n: number } | undefined) => {
      if (!c) return '<td title="not rated">–</td>';
      const mean = c.sum / c.n;
      const cls = mean >= 4.5 ? 'pass' : mean >= 3 ? 'part' : 'fail';
      return `<td class="${cls}" title="mean of ${c.n} sessions">${mean.toFixed(1)}</td>`;
    };
    const body = [...this.rows.keys()]
      .sort()
      .map((row) => {
        const cells = this.rows.get(row)!;
        return `<tr><td class="name">${escape(row)}</td>${cell(cells.get('score'))}${ids.map((id) => cell(cells.get(id))).join('')}</tr>`;
      })
      .join('\n');
    const head = ids.map((id) => `<th>${escape(id)}</th>`).join('');
    return `<h2>Design score (1–5; mean over the sessions that rated each heuristic)</h2><table><tr><th>task · app</th><th>score</th>${head}</tr>\n${body}</table>`;
  }
}
