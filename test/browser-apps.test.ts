/**
 * The suite's browser apps in real Chromium (skipped only with XRSIM_SKIP_SYSTEM=1): three.js WebXR pages
 * next to their tasks (`tasks/xr/<task>/web/`), scored by the tasks' own validators.
 *
 * The verdict matrix: every reference page passes every milestone with both dominant hands in two scenes,
 * with no page error and no actor failure; every adversarial page fails exactly the milestones its
 * manifest names (each hand once, in two scenes). Pages run open loop in batches and are scored by a
 * replay session that checks every input the page was given (src/browser/scored-run.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarmChromium } from '../src/browser/chromium.js';
import { SKIP_SYSTEM } from './helpers/browser.js';
import { FAILURE_CATEGORY_IDS } from '../src/task/failure-categories.js';
import { manifestProblems, matrixCells, runTaskPage, tasksWithBrowserApps } from './helpers/browser-apps.js';

const tasks = tasksWithBrowserApps();
/** A whole task's matrix: up to 14 page runs of 6 to 9 simulated seconds on a loaded machine. */
const TASK_TIMEOUT_MS = 900_000;

describe('the browser apps of the suite', () => {
  it('cover the four tasks of issue 11, each with a reference and an adversarial page, and every failure category', () => {
    expect(tasks.map((t) => t.id)).toEqual(expect.arrayContaining(['xr/pinch-spawn-ball', 'xr/place-on-detected-plane', 'xr/depth-bounce', 'xr/poke-button']));
    for (const task of tasks) expect(manifestProblems(task), task.id).toEqual([]);
    const categories = new Set(tasks.flatMap((t) => Object.values(t.manifest.apps).map((a) => a.category)).filter(Boolean));
    expect([...categories].sort()).toEqual([...FAILURE_CATEGORY_IDS].sort());
  });

  it('are plain WebXR pages on three.js from npm, publishing what the in-process apps publish', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    for (const task of tasks) {
      const sources = readdirSync(task.dir).filter((f) => f.endsWith('.js') || f.endsWith('.html')).map((f) => readFileSync(join(task.dir, f), 'utf8')).join('\n');
      expect(sources, task.id).toContain(`from 'three'`);
      expect(sources, task.id).toContain('navigator.xr.requestSession(');
      expect(sources, task.id).toContain('renderer.xr.setSession(');
      // No private door into the simulator: only xrsim.tag/emit and userData.xrsimTag.
      expect(sources, task.id).not.toMatch(/__xrsim|xrsim\.(?!emit\b|tag\b)\w+/);
    }
  });
});

describe.skipIf(SKIP_SYSTEM)('the browser apps of the suite in Chromium (system test)', () => {
  const chromium = new WarmChromium();
  beforeAll(async () => {
    await chromium.browser();
  });
  afterAll(async () => {
    await chromium.close();
  });

  for (const task of tasks) {
    it(
      `${task.id}: every page gets the verdict its manifest declares`,
      async () => {
        for (const name of Object.keys(task.manifest.apps)) {
          for (const cell of matrixCells(task, name)) {
            const where = `${name} in ${cell.scene}, ${cell.hand} hand`;
            const run = await runTaskPage(chromium, task, name, cell);
            expect(run.started, where).toBe(true);
            expect(run.result.status, where).not.toBe('errored');
            const failed = run.result.milestones.filter((m) => !m.passed).map((m) => m.id).sort();
            expect(failed, where).toEqual(cell.expectFail);
            if (name === 'reference') {
              expect(run.errors, where).toEqual([]);
              expect(run.actorFailures, where).toEqual([]);
            }
          }
        }
      },
      TASK_TIMEOUT_MS,
    );
  }

  it('scores a page the same on every run, whatever the batch size: one seed, one session hash', async () => {
    // The button task's actors follow the page's tag, the placement task's page requests hit-test sources.
    for (const id of ['xr/poke-button', 'xr/place-on-detected-plane']) {
      const task = tasks.find((t) => t.id === id)!;
      const cell = { scene: task.scenes[0], hand: 'left' as const, seed: 3 };
      const first = await runTaskPage(chromium, task, 'reference', cell);
      const second = await runTaskPage(chromium, task, 'reference', cell);
      const smallBatches = await runTaskPage(chromium, task, 'reference', { ...cell, batch: 7 });
      expect(first.result.status, id).toBe('passed');
      expect(second.outputs, id).toEqual(first.outputs);
      expect(second.result.hash, id).toBe(first.result.hash);
      expect(smallBatches.result.hash, id).toBe(first.result.hash);
    }
  }, TASK_TIMEOUT_MS);
});
