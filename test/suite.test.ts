/**
 * The default suite's verdict matrix: every task with apps, every app, both dominant hands, two scenes.
 * The reference app passes every milestone; each adversarial app fails exactly the milestones it declares.
 * Every task and app is deterministic, and a recorded XR session verifies.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession, listTaskIds, loadTask, verifyStream, type Handedness } from '../src/index.js';
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
      expect(apps.filter(([, a]) => (a.expectFail ?? []).length > 0).length, id).toBeGreaterThanOrEqual(2);
      expect(spec.apps!.reference.expectFail ?? [], id).toEqual([]);
      expect((spec.scenes ?? []).length, id).toBeGreaterThanOrEqual(2);
    }
  });

  for (const id of xrTasks) {
    it(`${id}: every app gets the verdict it declares, with either hand, in two scenes`, async () => {
      const { spec } = loadTask(id);
      for (const [app, entry] of Object.entries(spec.apps!)) {
        for (const scene of spec.scenes!.slice(0, 2)) {
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
      for (const app of Object.keys(loadTask(id).spec.apps!)) {
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
