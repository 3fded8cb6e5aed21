/**
 * Design judges: a command watches the session's video and rates design heuristics no formula can see; its
 * ratings join the formula's in `result.design`. tasks/judges/design-flashes.mjs, a real judge, counts the
 * view's flashes (WCAG 2.3.1) in the pixels a page drew. A judge that cannot answer makes the session errored,
 * never rated. Real Chromium and ffmpeg: skipped only with XRSIM_SKIP_SYSTEM=1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJudgedSession } from '../src/index.js';
import { parseRatings } from '../src/judge/design-judge.js';
import { SKIP_SYSTEM } from './helpers/browser.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const FLASHES = `node ${join(ROOT, 'tasks/judges/design-flashes.mjs')}`;
const judged = (app: string | undefined, command: string) =>
  runJudgedSession({ task: 'xr/poke-button', ...(app ? { app } : {}), seed: 1, duration: 3, designJudge: { command, dir: tempDir() } });

describe('a design judge', () => {
  // The sessions are three seconds of xr/poke-button: short, so the videos are quick to make and judge.
  it('reads its answer: named ratings 1–5 with reasons, never a formula heuristic, never twice', () => {
    expect(parseRatings('noise\n{"ratings":[{"id":"legibility","rating":4,"reason":"clear"}]}')).toEqual([
      { id: 'legibility', title: 'legibility', rating: 4, metric: null, unit: 'judged', ticks: [], note: 'clear', source: 'judge' },
    ]);
    expect(parseRatings('not json')).toMatch(/printed no JSON/);
    expect(parseRatings('{"ratings":[]}')).toMatch(/has no ratings/);
    expect(parseRatings('{"ratings":[{"id":"reach-comfort","rating":3,"reason":""}]}')).toMatch(/"reach-comfort" is a formula's heuristic/);
    expect(parseRatings('{"ratings":[{"id":"a","rating":3,"reason":""},{"id":"a","rating":2,"reason":""}]}')).toMatch(/rated twice/);
    expect(parseRatings('{"ratings":[{"id":"a","rating":3.5,"reason":""}]}')).toMatch(/whole number from 1 to 5, got 3.5/);
  });

  it.skipIf(SKIP_SYSTEM)('rates the view of an in-process app from its video, and its rating joins the design score', async () => {
    const result = await judged(undefined, FLASHES);
    // Three seconds of poke-button: too short to press five times (failed), long enough to be judged.
    expect(result.status, result.error?.message).toBe('failed');
    const flashing = result.design!.ratings.find((r) => r.id === 'flashing')!;
    expect(flashing).toMatchObject({ source: 'judge', rating: 5, note: expect.stringMatching(/no flash in 3\.\d s of video/) });
    const rated = result.design!.ratings.filter((r) => r.rating !== null);
    expect(result.design!.score).toBeCloseTo(rated.reduce((s, r) => s + r.rating!, 0) / rated.length, 3);
  }, 120_000);

  it.skipIf(SKIP_SYSTEM)('sees a page that flashes five times a second, and one that does not', async () => {
    const flashing = await judged(join(ROOT, 'test/fixtures/design/flashing'), FLASHES);
    expect(flashing.design!.ratings.find((r) => r.id === 'flashing')).toMatchObject({ rating: 1, note: expect.stringMatching(/5 flashes within one second/) });
    const calm = await judged('web-reference', FLASHES);
    expect(calm.design!.ratings.find((r) => r.id === 'flashing')).toMatchObject({ rating: 5 });
  }, 180_000);

  it.skipIf(SKIP_SYSTEM)('that fails, or answers with a formula heuristic, leaves the session errored (kind judge), never rated', async () => {
    const exits = await judged(undefined, 'echo broken >&2; exit 3');
    expect(exits.status).toBe('errored');
    expect(exits.error).toMatchObject({ kind: 'judge', message: expect.stringMatching(/^design judge: design judge exited with code 3 \(broken\)/) });
    const overreaches = await judged(undefined, `echo '{"ratings":[{"id":"reach-comfort","rating":1,"reason":"too far"}]}'`);
    expect(overreaches.status).toBe('errored');
    expect(overreaches.error?.message).toMatch(/"reach-comfort" is a formula's heuristic/);
  }, 120_000);

  it.skipIf(SKIP_SYSTEM)('xrsim run --design-judge: the video and the request beside the stream, the ratings printed and in --json', () => {
    const out = join(tempDir(), 'poke.xrs');
    const r = xrsim('run', '--task', 'xr/poke-button', '--duration', '3', '--out', out, '--design-judge', FLASHES, '--json');
    expect(r.json.status, r.stderr).toBe('failed'); // three seconds: too short to press five times
    expect(r.json.design.ratings.map((x: { id: string }) => x.id)).toContain('flashing');
    expect(existsSync(join(out.replace(/\.xrs$/, '.design'), 'design.webm'))).toBe(true);
    const request = JSON.parse(readFileSync(join(out.replace(/\.xrs$/, '.design'), 'design-request.json'), 'utf8'));
    expect(request).toMatchObject({ task: 'xr/poke-button', view: 'simulation', video: expect.stringMatching(/design\.webm$/) });
    expect(request.formula).toHaveLength(10);
    const text = xrsim('run', '--task', 'xr/poke-button', '--duration', '3', '--design-judge', FLASHES);
    expect(text.stdout).toMatch(/design \d\.\d\d of 5/);
    expect(text.stdout).toMatch(/5\s+flashing\s+.*no flash/);
  }, 120_000);
});
