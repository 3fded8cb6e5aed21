/**
 * The viewer page's entry: a sweep folder shows its pass matrix until a session is picked
 * (`?session=ID`), a stream opens its replay at once (`&tick=N` to start elsewhere).
 *
 * `window.xrsimViewer` lets tests and the headless screenshot drive the page: seek, read what is drawn.
 */
import type { SessionsResponse, StreamMeta, ViewerPageHandle } from '../api-types.js';
import { el, getJson } from './dom.js';
import { Replay } from './replay.js';
import { showSweep } from './sweep-view.js';

/** What the page offers to scripts driving it (its replay is the full {@link Replay}). */
export interface ViewerHandle extends ViewerPageHandle {
  replay?: Replay;
}

declare global {
  interface Window {
    xrsimViewer: ViewerHandle;
  }
}

async function boot(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const sessions = await getJson<SessionsResponse>('/api/sessions');
  const id = params.get('session') ?? (sessions.kind === 'stream' ? sessions.sessions[0].id : null);
  document.getElementById('title')!.textContent = sessions.title;
  window.xrsimViewer.kind = id === null ? 'sweep' : 'replay';
  if (id === null) {
    document.getElementById('sweep')!.classList.remove('hidden');
    showSweep(document.getElementById('sweep')!, sessions);
    document.getElementById('status')!.textContent = '';
    return;
  }
  const session = sessions.sessions.find((s) => s.id === id);
  if (!session) throw new Error(`no session ${id} here`);
  const meta = await getJson<StreamMeta>(`/api/session/${encodeURIComponent(id)}/meta`);
  document.getElementById('subtitle')!.replaceChildren(
    meta.title,
    ...(sessions.kind === 'sweep' ? [' · ', el('a', { href: '?', id: 'back' }, 'back to the sweep')] : []),
  );
  document.getElementById('replay')!.classList.remove('hidden');
  document.getElementById('timeline')!.classList.remove('hidden');
  const firstTick = Number(params.get('tick') ?? 0);
  const replay = new Replay(meta, session, firstTick);
  window.xrsimViewer.replay = replay;
  document.getElementById('status')!.textContent = 'reading the whole stream for the timeline…';
  await replay.start(firstTick);
  window.xrsimViewer.firstFrameAt = replay.firstFrameAt;
}

const ready = boot();
window.xrsimViewer = { kind: 'replay', ready };
ready.catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  document.getElementById('status')!.textContent = `error: ${message}`;
  console.error(`xrsim viewer: ${message}`);
});
