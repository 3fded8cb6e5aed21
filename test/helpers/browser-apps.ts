/**
 * The suite's browser apps (three.js WebXR pages in `tasks/<task>/web/`) and their manifests
 * (`web/apps.json`), read and checked for the browser verdict matrix. Phase 2 moves the manifests' entries
 * into the tasks' `apps`; until then this is where they are read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserApp } from '../../src/browser/browser-app.js';
import type { WarmChromium } from '../../src/browser/chromium.js';
import { runBrowserApp, type BrowserRun } from '../../src/browser/scored-run.js';
import { listTaskIds, loadTask, type Handedness } from '../../src/index.js';
import type { SensingOptions } from '../../src/task/sensing-options.js';
import { TASKS_DIR } from '../../src/paths.js';
import { FAILURE_CATEGORY_IDS, type FailureCategory } from '../../src/task/failure-categories.js';


export interface BrowserAppEntry {
  /** The page, relative to `web/`. */
  page: string;
  description: string;
  /** Milestones the page fails (none for the reference). */
  expectFail?: string[];
  category?: FailureCategory;
  /** The page fails only with this dominant hand, and passes every milestone with the other. */
  failsWithHand?: Handedness;
}

export interface BrowserAppsManifest {
  /** Sensing the pages need on top of the task's (a page knows the room only through sensing). */
  sensing?: SensingOptions;
  sensingReason?: string;
  apps: Record<string, BrowserAppEntry>;
}

export interface TaskWithBrowserApps {
  id: string;
  /** The pages' directory. */
  dir: string;
  scenes: string[];
  milestones: string[];
  manifest: BrowserAppsManifest;
}

/** Every suite task with a `web/apps.json`, sorted by id. */
export function tasksWithBrowserApps(): TaskWithBrowserApps[] {
  return listTaskIds().flatMap((id) => {
    const dir = join(TASKS_DIR, ...id.split('/'), 'web');
    const file = join(dir, 'apps.json');
    if (!existsSync(file)) return [];
    const { spec } = loadTask(id);
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as BrowserAppsManifest;
    return [{ id, dir, scenes: spec.scenes ?? [spec.scene], milestones: spec.validators.flatMap((v) => v.milestones.map((m) => m.id)), manifest }];
  });
}

/** What is wrong with a task's manifest, in words (empty when nothing is). */
export function manifestProblems(task: TaskWithBrowserApps): string[] {
  const problems: string[] = [];
  const apps = Object.entries(task.manifest.apps ?? {});
  if (!task.manifest.apps?.reference) problems.push('no reference app');
  if (apps.filter(([name]) => name !== 'reference').length === 0) problems.push('no adversarial app');
  for (const [name, app] of apps) {
    const where = `${task.id} ${name}`;
    if (!existsSync(join(task.dir, app.page))) problems.push(`${where}: page ${app.page} is missing`);
    if (!app.description) problems.push(`${where}: no description`);
    const fails = app.expectFail ?? [];
    if (name === 'reference') {
      if (fails.length > 0 || app.category || app.failsWithHand) problems.push(`${where}: the reference must expect to pass everything`);
      continue;
    }
    if (fails.length === 0) problems.push(`${where}: an adversarial app must name the milestones it fails`);
    for (const id of fails) if (!task.milestones.includes(id)) problems.push(`${where}: no milestone "${id}"`);
    if (!FAILURE_CATEGORY_IDS.includes(app.category!)) problems.push(`${where}: category must be one of ${FAILURE_CATEGORY_IDS.join(', ')}`);
    if (app.failsWithHand !== undefined && app.failsWithHand !== 'left' && app.failsWithHand !== 'right') problems.push(`${where}: failsWithHand must be left or right`);
  }
  return problems;
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
  const app = task.manifest.apps[name];
  const [first, second] = [task.scenes[0], task.scenes[1] ?? task.scenes[0]];
  const fails = [...(app.expectFail ?? [])].sort();
  if (name === 'reference') return [first, second].flatMap((scene) => (['right', 'left'] as const).map((hand) => ({ scene, hand, expectFail: [] })));
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

export interface PageRunOptions {
  scene: string;
  hand: Handedness;
  seed?: number;
  /** The most ticks per round trip. */
  batch?: number;
}

/** Opens a task's page in a fresh context, starts its XR session and runs it through the task, scored. */
export async function runTaskPage(chromium: WarmChromium, task: TaskWithBrowserApps, name: string, options: PageRunOptions): Promise<BrowserRun & { started: boolean }> {
  const seed = options.seed ?? 1;
  const app = await BrowserApp.open({ chromium, dir: task.dir, page: task.manifest.apps[name].page, seed, tickTimeoutMs: 30_000 });
  try {
    const started = await app.waitForSession();
    const spec = { task: task.id, scene: options.scene, seed, dominantHand: options.hand, sensing: task.manifest.sensing };
    return { ...(await runBrowserApp({ spec, app, batch: options.batch })), started };
  } finally {
    await app.close();
  }
}
