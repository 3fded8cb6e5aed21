/**
 * No free credit (issue 13): an app that does nothing at all, and one that throws on every frame, score 0
 * on every task with apps, with either dominant hand, in the first two scenes the task lists. Guard milestones
 * ("never more than five presses", "hidden once the palm turns away") pass only once the behaviour they
 * guard happened (`requires`), so they cannot pass because nothing happened. Their design score is the
 * lowest too: 1 on every heuristic.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listTaskIds, loadTask, runSession } from '../src/index.js';
import { ROOT } from './helpers/cli.js';

const tasksWithApps = listTaskIds().filter((id) => loadTask(id).spec.apps);
const apps = {
  'does nothing': join(ROOT, 'test/fixtures/apps/does-nothing.mjs'),
  'throws on every frame': join(ROOT, 'test/fixtures/apps/throws.mjs'),
};

describe('an app that does nothing earns nothing', () => {
  it('covers every task with apps', () => {
    expect(tasksWithApps.length).toBeGreaterThanOrEqual(12);
  });

  for (const id of tasksWithApps) {
    it(`${id}: score 0 with either hand, in two listed scenes`, async () => {
      const { spec } = loadTask(id);
      for (const [what, app] of Object.entries(apps)) {
        for (const scene of (spec.scenes ?? [spec.scene]).slice(0, 2)) {
          for (const hand of ['right', 'left'] as const) {
            const result = await runSession({ task: id, app, scene, seed: 1, dominantHand: hand });
            const where = `app that ${what}, in ${scene}, ${hand} hand`;
            expect(result.status, where).toBe('failed');
            const credited = result.milestones.filter((m) => m.score > 0).map((m) => `${m.id}=${m.score}`);
            expect(credited, where).toEqual([]);
            // Nor any design credit: an app that shows nothing rates 1 on every heuristic.
            expect(result.design?.ratings.map((r) => r.rating), where).toEqual(result.design?.ratings.map(() => 1));
            expect(result.design?.score, where).toBe(1);
          }
        }
      }
    });
  }
});
