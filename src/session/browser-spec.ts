/**
 * Whether a session spec runs a browser app, decided before the session starts (a session worker warms
 * its Chromium between sessions, `workers/session-worker.ts`). Bad input is left to the session to report.
 */
import { browserTarget } from '../task/browser-programs.js';
import { ownEntry } from '../json/names.js';
import { loadTask } from '../task/load.js';
import { DEFAULT_APP } from '../task/programs.js';
import { isBrowserAppEntry } from '../task/types.js';
import type { SessionSpec } from './spec.js';

export function usesBrowser(spec: SessionSpec): boolean {
  try {
    const { spec: task } = loadTask(spec.task);
    const name = spec.app ?? DEFAULT_APP;
    const entry = ownEntry(task.apps, name);
    if (entry) return isBrowserAppEntry(entry);
    return spec.app !== undefined && browserTarget(spec.app) !== null;
  } catch {
    return false;
  }
}
