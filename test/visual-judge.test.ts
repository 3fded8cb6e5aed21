/**
 * The `visual` validator: the user's view rendered at named moments, judged by a command on the images.
 * The shipped judge (`tasks/judges/colour-fill.mjs`) measures how much of the view an object's colour
 * fills, so verdicts go both ways on real images; with no judge, or a broken one, the milestone is
 * errored, never passed; judging never changes the session's hash.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseVerdict } from '../src/judge/command.js';
import { runJudgedSession } from '../src/judge/session.js';
import { decodePng } from '../src/render/png.js';
import { runSession } from '../src/session/run.js';
import type { Milestone } from '../src/validate/types.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const TASK = join(ROOT, 'test/fixtures/visual/ball-in-view.json');
const JUDGE = `node ${join(ROOT, 'tasks/judges/colour-fill.mjs')}`;

const byId = (milestones: Milestone[], id: string) => milestones.find((m) => m.id === id)!;

describe('visual judges', () => {
  it('passes the criterion the view meets and fails the one it does not, keeping images and verdicts', async () => {
    const imagesDir = tempDir();
    const judged = await runJudgedSession({ task: TASK, seed: 1, judge: { command: JUDGE, imagesDir } });
    const plain = await runSession({ task: TASK, seed: 1 });
    expect(judged.hash, 'judging is scoring, outside the simulation').toBe(plain.hash);
    expect(judged.status).toBe('failed');
    const visible = byId(judged.milestones, 'ball-visible');
    expect(visible).toMatchObject({ passed: true, score: 1, validator: 'visual', ticks: [18, 72] });
    expect(visible.errored).toBeUndefined();
    expect(visible.visual?.verdict).toMatchObject({ passed: true });
    expect(visible.visual?.verdict?.reason).toMatch(/task:ball fills .*% at tick 18/);
    expect(visible.visual?.images).toHaveLength(2);
    // The kept image shows what the judge saw: the ball's colour fills a few per cent of the head's view.
    const image = decodePng(readFileSync(visible.visual!.images![0]));
    expect(image).toMatchObject({ width: 320, height: 240, kind: 'rgb' });
    // The colour the judge was told the ball has (its request sits beside the images).
    const request = JSON.parse(readFileSync(join(imagesDir, 'visual0-request.json'), 'utf8'));
    const BALL = request.colours['task:ball'][0];
    expect(request.criterion).toBe('task:ball fills at least 2% of the view');
    let ball = 0;
    for (let o = 0; o < image.pixels.length; o += 3) if (image.pixels[o] === BALL[0] && image.pixels[o + 1] === BALL[1] && image.pixels[o + 2] === BALL[2]) ball++;
    expect(ball / (320 * 240)).toBeGreaterThan(0.02);
    expect(ball / (320 * 240)).toBeLessThan(0.6);
    const fills = byId(judged.milestones, 'ball-fills-view');
    expect(fills).toMatchObject({ passed: false, score: 0, ticks: [45] });
    expect(fills.visual?.verdict?.passed).toBe(false);
    expect(existsSync(fills.visual!.images![0])).toBe(true);
  });

  it('with no judge configured, the milestones are errored with the reason, and so is the session', async () => {
    const result = await runSession({ task: TASK, seed: 1 });
    expect(result.status).toBe('errored');
    expect(result.error).toMatchObject({ kind: 'judge' });
    expect(result.error?.message).toMatch(/ball-visible, ball-fills-view could not be judged: not judged: no judge configured/);
    for (const m of result.milestones) expect(m).toMatchObject({ passed: false, errored: true, score: 0 });
    const cli = xrsim('run', '--task', TASK, '--json');
    expect(cli.code).toBe(1);
    expect(cli.json?.status).toBe('errored');
  });

  it('a judge that prints no verdict, exits non-zero or runs past its time limit errors the milestone with the reason', async () => {
    const cases: [string, RegExp, number?][] = [
      ['echo "looks fine to me"', /printed no JSON verdict/],
      ['echo \'{"passed": "yes", "confidence": 1, "reason": "x"}\'', /no boolean "passed"/],
      ['echo oops >&2; exit 3', /exited with code 3 \(oops\)/],
      ['sleep 5', /timed out after 0.5 s/, 0.5],
      [`node ${join(ROOT, 'tasks/judges/colour-fill.mjs')} && false`, /exited with code 1/],
    ];
    for (const [command, reason, timeoutSeconds] of cases) {
      const result = await runJudgedSession({ task: TASK, seed: 1, judge: { command, imagesDir: tempDir(), ...(timeoutSeconds ? { timeoutSeconds } : {}) } });
      expect(result.status, command).toBe('errored');
      for (const m of result.milestones) {
        expect(m, command).toMatchObject({ passed: false, errored: true });
        expect(m.note, command).toMatch(reason);
      }
    }
  });

  it('a criterion the shipped judge cannot read is errored, not failed', async () => {
    const task = JSON.parse(readFileSync(TASK, 'utf8'));
    task.validators = [{ ...task.validators[0], criterion: 'the ball looks nice' }];
    const result = await runJudgedSession({ task, seed: 1, judge: { command: JUDGE, imagesDir: tempDir() } });
    expect(result.milestones[0]).toMatchObject({ errored: true });
    expect(result.milestones[0].note).toMatch(/cannot read the criterion/);
  });

  it('a moment that never happened fails the milestone without asking the judge (no free credit)', async () => {
    const task = JSON.parse(readFileSync(TASK, 'utf8'));
    task.validators = [{ ...task.validators[0], moments: [0.2, 'app:never'] }];
    const result = await runJudgedSession({ task, seed: 1, judge: { command: 'exit 9', imagesDir: tempDir() } });
    expect(result.status).toBe('failed');
    expect(result.milestones[0]).toMatchObject({ passed: false, score: 0 });
    expect(result.milestones[0].errored).toBeUndefined();
    expect(result.milestones[0].note).toMatch(/moment "app:never" never happened/);
  });

  it('xrsim run --judge keeps the images next to the stream and the verdicts in the JSON result', () => {
    const out = join(tempDir(), 'ball.xrs');
    const r = xrsim('run', '--task', TASK, '--judge', JUDGE, '--out', out, '--json');
    expect(r.code, r.stderr).toBe(1);
    const milestones = r.json!.milestones as Milestone[];
    expect(byId(milestones, 'ball-visible').passed).toBe(true);
    expect(byId(milestones, 'ball-fills-view').passed).toBe(false);
    for (const m of milestones) for (const path of m.visual!.images!) expect(path.startsWith(out.replace(/\.xrs$/, '.visual'))).toBe(true);
    expect(existsSync(join(out.replace(/\.xrs$/, '.visual'), 'visual0-moment0-t18.png'))).toBe(true);
  });

  it('reads verdicts strictly', () => {
    expect(parseVerdict('log line\n{"passed": true, "confidence": 0.9, "reason": "ok"}\n', 'j')).toEqual({ verdict: { passed: true, confidence: 0.9, reason: 'ok' } });
    expect(parseVerdict('{"passed": true, "confidence": 1.5, "reason": "ok"}', 'j')).toMatchObject({ error: expect.stringMatching(/confidence/) });
    expect(parseVerdict('{"passed": false, "confidence": 0.2}', 'j')).toMatchObject({ error: expect.stringMatching(/reason/) });
  });
});
