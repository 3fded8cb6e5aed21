/**
 * `visual` moments that name a milestone (`milestone:<id>`, `milestone:<id>:last`): the view is judged at
 * the milestone's evidence tick once it passed. Those ticks are known only after the session, so the judged
 * session runs again to render them; verdicts go both ways with the shipped judge, a milestone that never
 * passed gives nothing to judge (the visual milestone fails, no free credit), and a moment naming no
 * milestone is refused by the loader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJudgedSession } from '../src/judge/session.js';
import { runSession } from '../src/session/run.js';
import type { Milestone } from '../src/validate/types.js';
import { ROOT, tempDir } from './helpers/cli.js';

const TASK = join(ROOT, 'test/fixtures/visual/ball-drop.json');
const JUDGE = `node ${join(ROOT, 'tasks/judges/colour-fill.mjs')}`;
const byId = (milestones: Milestone[], id: string) => milestones.find((m) => m.id === id)!;

describe('visual moments triggered by a milestone', () => {
  it('judges the view at the evidence tick of the milestone, both ways, without changing the session', async () => {
    const imagesDir = tempDir();
    const judged = await runJudgedSession({ task: TASK, seed: 1, judge: { command: JUDGE, imagesDir } });
    const plain = await runSession({ task: TASK, seed: 1 });
    expect(judged.hash).toBe(plain.hash);

    // Ball a settles on the stand in front of the eyes: judged when it settled, it is in view.
    const aSettled = Math.min(...byId(judged.milestones, 'a-settles').ticks);
    expect(byId(judged.milestones, 'a-settles').passed).toBe(true);
    expect(aSettled).toBeGreaterThan(0);
    const aView = byId(judged.milestones, 'a-in-view-when-settled');
    expect(aView).toMatchObject({ passed: true, ticks: [aSettled] });
    expect(aView.visual?.moments).toEqual([{ at: 'milestone:a-settles', tick: aSettled }]);
    expect(aView.visual?.verdict?.reason).toMatch(new RegExp(`task:a fills [\\d.]+% at tick ${aSettled} `));
    expect(aView.visual?.images).toEqual([join(imagesDir, `visual2-moment0-t${aSettled}.png`)]);
    expect(existsSync(aView.visual!.images![0])).toBe(true);

    // Ball b is in view as it starts to fall, but settles on the floor below the gaze: the judge fails it.
    const bSettled = Math.min(...byId(judged.milestones, 'b-settles').ticks);
    expect(bSettled).toBeGreaterThan(aSettled);
    const bView = byId(judged.milestones, 'b-in-view-when-settled');
    expect(bView).toMatchObject({ passed: false, ticks: [9, bSettled] });
    expect(bView.errored).toBeUndefined();
    expect(bView.visual?.verdict?.passed).toBe(false);
    expect(bView.visual?.verdict?.reason).toMatch(new RegExp(`at tick 9, 0\\.\\d+% at tick ${bSettled} `));

    // A milestone that never passed: its moment never happened, the judge is not asked.
    const unmoved = byId(judged.milestones, 'a-in-view-unmoved');
    expect(byId(judged.milestones, 'a-never-moves').passed).toBe(false);
    expect(unmoved).toMatchObject({ passed: false, score: 0, ticks: [] });
    expect(unmoved.errored).toBeUndefined();
    expect(unmoved.visual?.verdict).toBeUndefined();
    expect(unmoved.note).toMatch(/moment "milestone:a-never-moves" \(milestone "a-never-moves" did not pass\) never happened/);
  });

  it('milestone:<id>:last is its latest evidence tick; without a judge such a milestone is errored, never passed', async () => {
    const task = JSON.parse(readFileSync(TASK, 'utf8'));
    task.validators[2].moments = ['milestone:a-settles:last'];
    const result = await runSession({ task, seed: 1 });
    const settles = byId(result.milestones, 'a-settles');
    const view = byId(result.milestones, 'a-in-view-when-settled');
    expect(view.visual?.moments).toEqual([{ at: 'milestone:a-settles:last', tick: Math.max(...settles.ticks) }]);
    expect(view).toMatchObject({ passed: false, errored: true });
    expect(result.status).toBe('errored');
  });

  it('errors the milestone when the session run again to render is not the same session', async () => {
    // A perturbation in the first run only: the re-run differs, so no image of it may be judged.
    let runs = 0;
    const result = await runJudgedSession(
      { task: TASK, seed: 1, judge: { command: JUDGE, imagesDir: tempDir() } },
      {
        beforeStep(session, tick) {
          if (tick === 1) runs++;
          if (tick === 30 && runs === 1) session.applyImpulse('task:b', [0, 0.05, 0]);
        },
      },
    );
    expect(runs).toBe(2);
    const view = byId(result.milestones, 'a-in-view-when-settled');
    expect(view).toMatchObject({ passed: false, errored: true });
    expect(view.note).toMatch(/run again to render its milestone moments was not the same session/);
  });

  it('refuses a moment naming no milestone, or a visual one, with the JSON path', async () => {
    for (const [moment, message] of [
      ['milestone:nope', /moment "milestone:nope" names no milestone of the task/],
      ['milestone:b-in-view-when-settled', /names a visual milestone/],
    ] as const) {
      const task = JSON.parse(readFileSync(TASK, 'utf8'));
      task.validators[2].moments = [moment];
      const result = await runSession({ task, seed: 1 });
      expect(result.status).toBe('errored');
      expect(result.error).toMatchObject({ kind: 'bad-input', jsonPath: '$.validators[2].moments[0]' });
      expect(result.error?.message).toMatch(message);
    }
    // Formulas that measure at their moment while the session runs cannot wait for a milestone.
    const task = JSON.parse(readFileSync(TASK, 'utf8'));
    task.validators.push({ type: 'distance-at', a: 'task:a', b: 'task:b', at: 'milestone:a-settles', milestones: [{ id: 'apart', threshold: 1 }] });
    const result = await runSession({ task, seed: 1 });
    expect(result.error).toMatchObject({ kind: 'bad-input', jsonPath: '$.validators[5].at' });
    expect(result.error?.message).toMatch(/only visual validators take milestone moments/);
  });
});
