/**
 * The design score: ten heuristics rated 1–5 from the frames. Every app built to violate one heuristic
 * (`designFlaw` in its task entry) rates lower than its task's reference on exactly that heuristic, with
 * either hand, in every scene the task lists: the rest of its ratings are the reference's. A rating needs
 * something to rate: no input leaves latency unrated, an app that shows nothing rates 1 throughout.
 */
import { describe, expect, it } from 'vitest';
import { createSession, DESIGN_HEURISTIC_IDS, HEURISTICS, listTaskIds, loadTask, rateDesignMetric, runSession, type DesignReport, type Likert } from '../src/index.js';
import { EventType } from '../src/frame/events.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { isBrowserAppEntry } from '../src/task/types.js';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { SKIP_SYSTEM } from './helpers/browser.js';

/** Every app built to violate a heuristic, with the reference it is compared with: the task's own, in process or in Chromium. */
const flawed = listTaskIds().flatMap((task) =>
  Object.entries(loadTask(task).spec.apps ?? {})
    .filter(([, entry]) => entry.designFlaw)
    .map(([app, entry]) => ({ task, app, flaw: entry.designFlaw!, browser: isBrowserAppEntry(entry), reference: isBrowserAppEntry(entry) ? 'web-reference' : 'reference' })),
);

const ratingsOf = (design: DesignReport | undefined) => Object.fromEntries((design?.ratings ?? []).map((r) => [r.id, r.rating]));

describe('the design heuristics', () => {
  it('are ten, each with its bands, and every one has an app built to violate it', () => {
    expect(HEURISTICS.map((h) => h.id)).toEqual([...DESIGN_HEURISTIC_IDS]);
    expect(new Set(flawed.map((f) => f.flaw))).toEqual(new Set(DESIGN_HEURISTIC_IDS));
  });

  it('band a metric into 1–5, with the lowest rating for a metric that is not finite', () => {
    const lower = { better: 'lower' as const, cuts: [0.1, 0.2, 0.4, 0.7] as const };
    const rated = [0, 0.1, 0.15, 0.3, 0.5, 0.7, 0.71, NaN, Infinity].map((m) => rateDesignMetric(m, lower));
    expect(rated).toEqual<Likert[]>([5, 5, 4, 3, 2, 2, 1, 1, 1]);
    const higher = { better: 'higher' as const, cuts: [0.95, 0.8, 0.6, 0.3] as const };
    expect([1, 0.9, 0.7, 0.5, 0.2, -Infinity].map((m) => rateDesignMetric(m, higher))).toEqual<Likert[]>([5, 4, 3, 2, 1, 1]);
  });

  // In process: every scene the task lists. In Chromium (pages, skipped only with XRSIM_SKIP_SYSTEM=1): two.
  const groups = [...new Set(flawed.map((f) => `${f.task}\u0000${f.reference}`))].map((key) => {
    const [task, reference] = key.split('\u0000');
    return { task, reference, apps: flawed.filter((f) => f.task === task && f.reference === reference), browser: reference !== 'reference' };
  });
  for (const { task, reference: referenceApp, apps, browser } of groups) {
    it.skipIf(browser && SKIP_SYSTEM)(`${task}: each design-flawed ${browser ? "page" : "app"} rates lower than ${referenceApp} on exactly its heuristic, with either hand, in ${browser ? "two scenes" : "every scene"}`, async () => {
      const { spec } = loadTask(task);
      for (const scene of (spec.scenes ?? [spec.scene]).slice(0, browser ? 2 : undefined)) {
        for (const hand of ['right', 'left'] as const) {
          const reference = await runSession({ task, app: referenceApp, scene, seed: 1, dominantHand: hand });
          const base = ratingsOf(reference.design);
          expect(reference.design?.score, `${referenceApp} in ${scene}, ${hand} hand`).toBeGreaterThanOrEqual(4.5);
          for (const { app, flaw } of apps) {
            const result = await runSession({ task, app, scene, seed: 1, dominantHand: hand });
            const where = `${app} in ${scene}, ${hand} hand`;
            const ratings = ratingsOf(result.design);
            expect(ratings[flaw], `${where}: ${flaw}`).not.toBeNull();
            expect(ratings[flaw]!, `${where}: ${flaw}`).toBeLessThan(base[flaw]!);
            // Every other heuristic is rated as the reference's, but one that needs what the flaw took away
            // (an answered input has a latency; none answered has none) is unrated.
            const others = Object.keys(base).filter((id) => id !== flaw && ratings[id] !== base[id]);
            expect(others.filter((id) => !(flaw === 'interaction-feedback' && id === 'response-latency' && ratings[id] === null)), where).toEqual([]);
          }
        }
      }
    }, 240_000);
  }

  it('says what decided a rating: the metric, its unit, the evidence tick and the content', async () => {
    const result = await runSession({ task: 'xr/info-kiosk', app: 'side-panel', seed: 1 });
    const neck = result.design!.ratings.find((r) => r.id === 'neck-rotation')!;
    expect(neck).toMatchObject({ source: 'formula', unit: '° past the comfortable zone', rating: 1 });
    expect(neck.metric!).toBeGreaterThan(40);
    expect(neck.ticks).toHaveLength(1);
    expect(neck.note).toMatch(/"panel" at tick \d+/);
    const score = result.design!.ratings.filter((r) => r.rating !== null);
    expect(result.design!.score).toBeCloseTo(score.reduce((s, r) => s + r.rating!, 0) / score.length, 3);
  });

  it('leaves a heuristic unrated when the session shows nothing it applies to', async () => {
    // xr/depth-bounce: a ball, no hand-locked content and no input.
    const result = await runSession({ task: 'xr/depth-bounce', seed: 1 });
    const ratings = ratingsOf(result.design);
    expect(ratings['hand-locked-stability']).toBeNull();
    expect(ratings['response-latency']).toBeNull();
    expect(ratings['interaction-feedback']).toBeNull();
    expect(result.design!.ratings.find((r) => r.id === 'interaction-feedback')!.note).toBe('no input');
    expect(ratings['behind-or-below']).toBe(5);
  });

  it('has no design report for a session without an app (physics tasks)', async () => {
    const result = await runSession({ task: 'physics/stack-settle', seed: 1 });
    expect(result.design).toBeUndefined();
  });

  it('records a tag\'s extent where it is declared, and leaves a tag without one as it always was', async () => {
    const declared: unknown[] = [];
    const session = await createSession({ task: 'xr/info-kiosk', seed: 1 });
    await session.run({
      onFrame: (frame) => {
        for (let i = 0, e = frame.events; i < frame.eventWords; i += 1 + (e[i] & 0xffff)) {
          if (e[i] >>> 16 === EventType.TagDeclared) declared.push(readJsonPayload(Array.from(e.subarray(i + 1, i + 1 + (e[i] & 0xffff))), 1));
        }
      },
    });
    expect(declared).toContainEqual({ role: 'panel', id: 'info-panel', size: [0.8, 0.45, 0.02], text: 0.018 });
    expect(declared).toContainEqual({ role: 'start-button', id: 'start', size: [0.05, 0.05, 0.015] });
  });

  it('counts a change of look (a highlight) as an answer to the input, as a move or a sound', async () => {
    const plain = await runSession({ task: 'xr/poke-button', seed: 1 });
    const lit = await runSession({ task: 'xr/poke-button', app: join(ROOT, 'test/fixtures/apps/lit-button.mjs'), seed: 1 });
    expect(plain.status).toBe('passed');
    expect(lit.status).toBe('passed');
    expect(ratingsOf(plain.design)['interaction-feedback']).toBe(1); // it counts presses, and shows nothing
    expect(ratingsOf(lit.design)['interaction-feedback']).toBe(5);
    expect(ratingsOf(lit.design)['response-latency']).toBe(5);
  });

  it('refuses an extent that is not one, as an app error naming what was expected', async () => {
    const result = await runSession({ task: 'xr/poke-button', app: join(ROOT, 'test/fixtures/apps/bad-extent.mjs'), seed: 1 });
    expect(result.appErrors).toBeGreaterThan(0);
    expect(result.firstAppError?.message).toMatch(/ctx\.tag\(role, id, poseOf, extent\): extent must be \{ size\?: metres or \[x, y, z\], text\?: metres, look\?: a name \}: size must be a positive number or three positive numbers, got \[0\.1,-1,0\.1\]/);
  });
});
