/**
 * The audio task's verdict matrix (`xr/chime-button`), in process and in real Chromium (the browser half
 * skipped only with XRSIM_SKIP_SYSTEM=1): each app fails exactly the milestones written here, with either
 * hand, in two scenes; the reference passes everything with no app error and no actor failure; and two
 * runs of a session give one hash, for an in-process app and for a page.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSession, loadTask, runSession, type Handedness } from '../src/index.js';
import { closeSharedChromium } from '../src/browser/chromium.js';
import { SKIP_SYSTEM } from './helpers/browser.js';

const TASK = 'xr/chime-button';
const SCENES = ['empty-lab', 'office'];
const HANDS: Handedness[] = ['right', 'left'];

/** What each app must fail: the matrix the task stands for (task.json's `expectFail` must say the same). */
const IN_PROCESS: Record<string, string[]> = {
  reference: [],
  'not-spatialised': ['chime-at-button'],
  'head-locked': ['chime-at-button'],
  'on-release': ['chime-within-50ms'],
  'voice-leak': ['at-most-two-voices'],
};
const IN_CHROMIUM: Record<string, string[]> = {
  'web-reference': [],
  'web-not-spatialised': ['chime-at-button'],
  'web-listener-in-scene': ['chime-at-button'],
  'web-on-release': ['chime-within-50ms'],
};

async function verdict(app: string, scene: string, hand: Handedness) {
  const session = await createSession({ task: TASK, app, scene, seed: 1, dominantHand: hand });
  const result = await session.run();
  const failed = result.milestones.filter((m) => !m.passed).map((m) => m.id).sort();
  return { result, failed, actorFailures: session.actors?.failures ?? [] };
}

describe('the audio task', () => {
  it("declares the matrix this test holds it to, and its milestones", () => {
    const { spec } = loadTask(TASK);
    const declared = Object.fromEntries(Object.entries(spec.apps!).map(([name, app]) => [name, [...(app.expectFail ?? [])].sort()]));
    expect(declared).toEqual({ ...IN_PROCESS, ...IN_CHROMIUM });
    expect(spec.validators.flatMap((v) => v.milestones.map((m) => m.id))).toEqual(['counts-every-press', 'chimes-for-every-press', 'chime-within-50ms', 'chime-at-button', 'at-most-two-voices']);
  });

  it.each(Object.entries(IN_PROCESS))('in process, %s fails exactly %j with either hand, in two scenes', async (app, fails) => {
    for (const scene of SCENES) {
      for (const hand of HANDS) {
        const { result, failed, actorFailures } = await verdict(app, scene, hand);
        const where = `${app} in ${scene}, ${hand} hand`;
        expect(failed, where).toEqual(fails);
        expect(result.appErrors, where).toBe(0);
        if (app === 'reference') expect(actorFailures, where).toEqual([]);
      }
    }
  });

  it('in process, two runs give one hash', async () => {
    for (const app of Object.keys(IN_PROCESS)) {
      const a = await runSession({ task: TASK, app, seed: 3, dominantHand: 'left', scene: 'office' });
      const b = await runSession({ task: TASK, app, seed: 3, dominantHand: 'left', scene: 'office' });
      expect(b.hash, app).toBe(a.hash);
    }
  });
});

describe.skipIf(SKIP_SYSTEM)('the audio task in Chromium (system test)', () => {
  afterAll(async () => {
    await closeSharedChromium();
  });

  it.each(Object.entries(IN_CHROMIUM))('%s fails exactly %j with either hand, in two scenes', async (app, fails) => {
    for (const scene of SCENES) {
      for (const hand of HANDS) {
        const { result, failed } = await verdict(app, scene, hand);
        const where = `${app} in ${scene}, ${hand} hand`;
        expect(result.status, `${where}: ${result.error?.message}`).not.toBe('errored');
        expect(failed, where).toEqual(fails);
        expect(result.appErrors, `${where}: ${result.firstAppError?.message}`).toBe(0);
      }
    }
  }, 600_000);

  it('a page: two runs give one hash', async () => {
    const spec = { task: TASK, app: 'web-reference', seed: 2, dominantHand: 'left' as const, scene: 'office' };
    const a = await runSession(spec);
    const b = await runSession(spec);
    expect(a.status).toBe('passed');
    expect(b.hash).toBe(a.hash);
  }, 600_000);
});
