/**
 * The default suite's verdict matrix: every task with apps, every app, both dominant hands, every listed scene.
 * The reference app passes every milestone; each adversarial app fails exactly the milestones it declares and
 * names the failure mode it stands for, and every failure mode has at least two. Every task and app is
 * deterministic, and a recorded XR session verifies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession, FAILURE_CATEGORY_IDS, listTaskIds, loadTask, verifyStream, type Handedness } from '../src/index.js';
import { TASKS_DIR } from '../src/paths.js';
import { isBrowserAppEntry } from '../src/task/types.js';
import { tempDir } from './helpers/cli.js';

const xrTasks = listTaskIds().filter((id) => loadTask(id).spec.apps);

async function run(task: string, app: string, scene: string, hand: Handedness, seed = 1) {
  const session = await createSession({ task, app, scene, seed, dominantHand: hand });
  const actorFailures = session.actors?.failures ?? [];
  const result = await session.run();
  return { result, actorFailures };
}

describe('the default suite', () => {
  it('has at least 12 tasks, each with a scene, actors, three or more milestones, a reference and two adversarial apps', () => {
    expect(xrTasks.length).toBeGreaterThanOrEqual(12);
    for (const id of xrTasks) {
      const { spec } = loadTask(id);
      expect(spec.actors, id).toBeTruthy();
      expect(spec.validators.flatMap((v) => v.milestones).length, id).toBeGreaterThanOrEqual(3);
      const apps = Object.entries(spec.apps!);
      // Adversarial apps fail milestones, or break a design heuristic (`designFlaw`: test/design-score.test.ts).
      expect(apps.filter(([, a]) => (a.expectFail ?? []).length > 0 || a.designFlaw).length, id).toBeGreaterThanOrEqual(2);
      expect(spec.apps!.reference.expectFail ?? [], id).toEqual([]);
      expect((spec.scenes ?? []).length, id).toBeGreaterThanOrEqual(2);
    }
  });

  it('names a failure category for every adversarial app, and covers every category with at least two apps', () => {
    const byCategory = new Map<string, string[]>(FAILURE_CATEGORY_IDS.map((c) => [c, []]));
    for (const id of xrTasks) {
      for (const [app, entry] of Object.entries(loadTask(id).spec.apps!)) {
        if ((entry.expectFail ?? []).length === 0) continue; // the reference apps (in process and in Chromium)
        expect(entry.category, `${id} ${app}`).toBeDefined();
        byCategory.get(entry.category!)!.push(`${id}:${app}`);
      }
    }
    for (const [category, apps] of byCategory) expect(apps.length, `${category}: ${apps.join(', ')}`).toBeGreaterThanOrEqual(2);
  });

  it('gives every XR task a distractor in its actor script, documented where the script starts', () => {
    for (const id of xrTasks.filter((t) => t.startsWith('xr/'))) {
      const script = readFileSync(join(TASKS_DIR, id, loadTask(id).spec.actors!), 'utf8');
      expect(script, id).toMatch(/^\/\/ Distractor: /m);
    }
  });

  for (const id of xrTasks) {
    it(`${id}: every app gets the verdict it declares, with either hand, in every listed scene`, async () => {
      const { spec } = loadTask(id);
      // Browser apps have their own matrix (test/browser-apps.test.ts): Chromium is slower than in-process apps.
      for (const [app, entry] of Object.entries(spec.apps!).filter(([, e]) => !isBrowserAppEntry(e))) {
        for (const scene of spec.scenes!) {
          for (const hand of ['right', 'left'] as const) {
            const { result, actorFailures } = await run(id, app, scene, hand);
            const where = `${app} in ${scene}, ${hand} hand`;
            expect(result.status, where).not.toBe('errored');
            const failed = result.milestones.filter((m) => !m.passed).map((m) => m.id).sort();
            expect(failed, where).toEqual([...(entry.expectFail ?? [])].sort());
            if (app === 'reference') expect(actorFailures, where).toEqual([]);
          }
        }
      }
    });
  }

  it('runs every task and app deterministically: two runs, one hash', async () => {
    for (const id of xrTasks) {
      for (const app of Object.entries(loadTask(id).spec.apps!).filter(([, e]) => !isBrowserAppEntry(e)).map(([name]) => name)) {
        const scene = loadTask(id).spec.scenes![0];
        const a = await run(id, app, scene, 'left', 7);
        const b = await run(id, app, scene, 'left', 7);
        expect(b.result.hash, `${id} ${app}`).toBe(a.result.hash);
      }
    }
  });

  it('records XR sessions that verify bit for bit: app, actors, tags and events included', async () => {
    const path = join(tempDir(), 'menu.xrs');
    const session = await createSession({ task: 'xr/palm-menu', seed: 2, dominantHand: 'left', record: { path } });
    const result = await session.run();
    const report = await verifyStream(path);
    expect(report.identical).toBe(true);
    expect(report.sessionHash.stream).toBe(result.hash);
  });
});
