/**
 * Which app `xrsim replay --app NAME|DIR|PATH` means: a task's in-process app or browser app (its `apps`
 * entries with `host: "browser"`, docs/BROWSER.md), a directory, a page or a module.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { XrsimInputError } from '../errors.js';
import { TASKS_DIR } from '../paths.js';
import { browserTarget } from '../task/browser-programs.js';
import { listTaskIds, loadTask } from '../task/load.js';
import { isBrowserAppEntry } from '../task/types.js';

/** Where an app runs: in this process (an app module) or in Chromium (a page). */
export type AppHostKind = 'in-process' | 'browser';

/** The app a stream is replayed into. */
export type ReplayTarget =
  | { host: 'in-process'; name: string; module: string }
  | {
      host: 'browser';
      name: string;
      dir: string;
      page: string;
      /** A page the user serves on loopback, instead of `dir`. */
      url?: string;
      /** The element the simulated user clicks to enter XR (a task entry's `start`), when it names one. */
      start?: string;
    };

/** What the name is resolved against: the stream's task, and the host that recorded it (it wins a tie). */
export interface ReplayTargetContext {
  taskId: string;
  recordedHost: AppHostKind;
}

/**
 * Resolves `app`: an `.html` file, a directory (its `index.html`) or a loopback URL is a browser app; a `.mjs`/`.js` file an
 * in-process app module; anything else a name from the stream's task's `apps`, in process or browser.
 * (A name both hosts hold would mean the recording host's; the suite names its browser apps `web-*`.)
 */
export function resolveReplayApp(app: string, context: ReplayTargetContext): ReplayTarget {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(app)) {
    // A page the user serves on this machine's loopback, as `xrsim run --app URL` takes (anything else is refused).
    const page = /^https?:/i.test(app) ? browserTarget(app, { option: '--app' }) : null;
    if (!page?.url) throw new XrsimInputError(`--app ${app}: a page at a URL must be served on this machine's loopback`, { expected: 'http://127.0.0.1:PORT/... or http://localhost:PORT/...' });
    return { host: 'browser', name: app, dir: process.cwd(), page: page.page, url: page.url };
  }
  const path = resolve(app);
  if (existsSync(path) && statSync(path).isDirectory()) {
    if (!existsSync(join(path, 'index.html'))) throw new XrsimInputError(`--app ${app}: the directory has no index.html`, { file: path, expected: 'a directory with an index.html page' });
    return { host: 'browser', name: app, dir: path, page: 'index.html' };
  }
  if (/\.html?$/i.test(app)) {
    if (!existsSync(path)) throw new XrsimInputError(`--app ${app}: page not found`, { file: path, expected: 'an existing .html page' });
    return { host: 'browser', name: app, dir: dirname(path), page: basename(path) };
  }
  if (/\.(mjs|js)$/.test(app)) {
    if (!existsSync(path)) throw new XrsimInputError(`--app ${app}: module not found`, { file: path, expected: 'an existing app module (.mjs)' });
    return { host: 'in-process', name: app, module: path };
  }
  const inProcess = inProcessApps(context.taskId);
  const browser = browserApps(context.taskId);
  const fromInProcess = () => ({ host: 'in-process' as const, name: app, module: inProcess.get(app)! });
  const fromBrowser = () => ({ host: 'browser' as const, name: app, ...browser.apps.get(app)! });
  if (inProcess.has(app) && browser.apps.has(app)) return context.recordedHost === 'browser' ? fromBrowser() : fromInProcess();
  if (inProcess.has(app)) return fromInProcess();
  if (browser.apps.has(app)) return fromBrowser();
  const names = [...[...inProcess.keys()].map((n) => `${n} (in-process)`), ...[...browser.apps.keys()].map((n) => `${n} (browser)`)];
  throw new XrsimInputError(`task "${context.taskId}" has no app "${app}"`, {
    file: '--app',
    expected: names.length > 0 ? `one of: ${names.join(', ')}; or a directory, an .html page or an app module (.mjs)` : 'a directory, an .html page or an app module (.mjs): the task is not in the suite or lists no apps',
  });
}

/** The in-process apps of a suite task, by name: their module paths. */
function inProcessApps(taskId: string): Map<string, string> {
  if (!listTaskIds().includes(taskId)) return new Map();
  const task = loadTask(taskId);
  return new Map(Object.entries(task.spec.apps ?? {}).flatMap(([name, entry]) => (isBrowserAppEntry(entry) ? [] : [[name, resolve(dirname(task.file), entry.module)] as [string, string]])));
}

/** The browser apps of a suite task (its `apps` entries with `host: "browser"`), by name: their pages. */
function browserApps(taskId: string): { dir: string; apps: Map<string, { page: string; dir: string; start?: string }> } {
  const dir = join(TASKS_DIR, ...taskId.split('/'), 'web');
  if (!listTaskIds().includes(taskId)) return { dir, apps: new Map() };
  const task = loadTask(taskId);
  const apps = new Map<string, { page: string; dir: string; start?: string }>();
  for (const [name, entry] of Object.entries(task.spec.apps ?? {})) {
    if (isBrowserAppEntry(entry)) apps.set(name, { page: entry.page ?? 'index.html', dir: resolve(dirname(task.file), entry.dir), ...(entry.start ? { start: entry.start } : {}) });
  }
  return { dir, apps };
}
