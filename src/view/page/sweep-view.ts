/**
 * A sweep folder's page: the pass matrix (task · app by scene · hand, sessions passed over seeds), where a
 * cell that did not fully pass links to its first failing session's replay, and the list of every failed
 * or errored session, each one click from its replay.
 */
import type { SessionSummary, SessionsResponse } from '../api-types.js';
import { el } from './dom.js';

const replayLink = (s: SessionSummary, text: string) => (s.hasStream ? el('a', { href: `?session=${encodeURIComponent(s.id)}`, class: 'replay' }, text) : text);

export function showSweep(container: HTMLElement, response: SessionsResponse): void {
  const sessions = response.sessions;
  const rowKey = (s: SessionSummary) => `${s.task}${s.app ? ` · ${s.app}` : ''}`;
  const colKey = (s: SessionSummary) => `${s.scene} · ${s.hand}`;
  const rows = [...new Set(sessions.map(rowKey))].sort();
  const cols = [...new Set(sessions.map(colKey))].sort();
  const table = el('table', { id: 'matrix' }, el('tr', {}, el('th', {}, 'task · app'), ...cols.map((c) => el('th', {}, c))));
  for (const row of rows) {
    const tr = el('tr', {}, el('td', { class: 'name' }, row));
    for (const col of cols) {
      const here = sessions.filter((s) => rowKey(s) === row && colKey(s) === col);
      if (here.length === 0) {
        tr.append(el('td'));
        continue;
      }
      const ok = here.filter((s) => s.status === 'passed').length;
      const err = here.filter((s) => s.status === 'errored').length;
      const cls = err === here.length ? 'err' : ok === here.length ? 'pass' : ok === 0 ? 'fail' : 'part';
      const text = `${ok}/${here.length}${err ? ` (${err} err)` : ''}`;
      const firstBad = here.find((s) => s.status !== 'passed' && s.hasStream);
      tr.append(el('td', { class: cls, title: `${ok} passed, ${here.length - ok - err} failed, ${err} errored` }, firstBad ? replayLink(firstBad, text) : text));
    }
    table.append(tr);
  }
  const bad = sessions.filter((s) => s.status !== 'passed');
  const list = el('table', { id: 'failures' }, el('tr', {}, ...['session', 'status', 'score', 'failed milestones or error', 'replay'].map((h) => el('th', {}, h))));
  for (const s of bad) {
    const failed = s.error ? `${s.error.kind}: ${s.error.message}` : (s.milestones ?? []).filter((m) => !m.passed).map((m) => m.id).join(', ');
    list.append(
      el(
        'tr',
        {},
        el('td', { class: 'name' }, `${rowKey(s)} · ${s.scene} · seed ${s.seed} · ${s.hand}`),
        el('td', { class: s.status === 'errored' ? 'err' : 'fail' }, s.status ?? ''),
        el('td', {}, s.score === null ? '' : s.score.toFixed(2)),
        el('td', { class: 'name' }, failed),
        el('td', {}, s.hasStream ? replayLink(s, 'replay') : 'no stream kept'),
      ),
    );
  }
  const passed = sessions.filter((s) => s.status === 'passed').length;
  container.append(
    el('p', {}, `${sessions.length} sessions: ${passed} passed, ${sessions.filter((s) => s.status === 'failed').length} failed, ${sessions.filter((s) => s.status === 'errored').length} errored.`),
    el('h2', {}, 'Pass matrix (sessions passed over seeds)'),
    table,
    el('h2', {}, 'Failed and errored sessions'),
    bad.length ? list : el('p', {}, 'None: every session passed.'),
  );
}
