/**
 * The suite's browser apps: the tasks' `apps` entries with `host: "browser"` (three.js WebXR pages in
 * `tasks/<task>/web/`), and where the verdict matrix runs each of them.
 */
import { dirname, resolve } from 'node:path';
import { listTaskIds, loadTask, type Handedness } from '../../src/index.js';
import { isBrowserAppEntry, type BrowserAppEntrySpec } from '../../src/task/types.js';

export interface TaskWithBrowserApps {
  id: string;
  /** The directory of the reference page (`tasks/<id>/web`). */
  dir: string;
  scenes: string[];
  milestones: string[];
  /** The task's browser apps by name (`web-reference`, ...). */
  apps: Record<string, BrowserAppEntrySpec>;
}

/** The name of a task's browser reference app. */
export const WEB_REFERENCE = 'web-reference';

/** Every suite task with browser apps, sorted by id. */
export function tasksWithBrowserApps(): TaskWithBrowserApps[] {
  return listTaskIds().flatMap((id) => {
    const { spec, file } = loadTask(id);
    const apps = Object.fromEntries(Object.entries(spec.apps ?? {}).filter((e): e is [string, BrowserAppEntrySpec] => isBrowserAppEntry(e[1])));
    if (Object.keys(apps).length === 0) return [];
    return [{ id, dir: resolve(dirname(file), apps[WEB_REFERENCE]?.dir ?? 'web'), scenes: spec.scenes ?? [spec.scene], milestones: spec.validators.flatMap((v) => v.milestones.map((m) => m.id)), apps }];
  });
}

/** One cell of the verdict matrix: a scene, a dominant hand, and the milestones the page must fail there. */
export interface MatrixCell {
  scene: string;
  hand: Handedness;
  expectFail: string[];
}

/**
 * Where each page runs. The reference: both hands in two scenes (the acceptance). An adversarial page:
 * each hand once, in two scenes (right in the first, left in the second); one that fails only with one
 * hand runs with that hand in the first scene and with the other hand, expecting no failure, in the second.
 */
export function matrixCells(task: TaskWithBrowserApps, name: string): MatrixCell[] {
  const app = task.apps[name];
  const [first, second] = [task.scenes[0], task.scenes[1] ?? task.scenes[0]];
  const fails = [...(app.expectFail ?? [])].sort();
  if (fails.length === 0) return [first, second].flatMap((scene) => (['right', 'left'] as const).map((hand) => ({ scene, hand, expectFail: [] })));
  if (app.failsWithHand) {
    const other = app.failsWithHand === 'left' ? 'right' : 'left';
    return [
      { scene: first, hand: app.failsWithHand, expectFail: fails },
      { scene: second, hand: other, expectFail: [] },
    ];
  }
  return [
    { scene: first, hand: 'right', expectFail: fails },
    { scene: second, hand: 'left', expectFail: fails },
  ];
}
