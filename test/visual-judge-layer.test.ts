/**
 * Visual judges of browser apps see what the page rendered (a system test: real Chromium; skipped only with
 * XRSIM_SKIP_SYSTEM=1). The fixture task's pages place and tag the poke-button page's red (0xdd2222) button
 * 0.38 m in front of the user; the reference page draws it, the adversarial page never does. The criterion
 * asks for that red in the view, so it can pass only on the images of the page's XR layer: the
 * simulation's own view draws no such red (it is checked too, as `view: "simulation"`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJudgedSession } from '../src/judge/session.js';
import { decodePng } from '../src/render/png.js';
import { runSession } from '../src/session/run.js';
import type { SessionResult } from '../src/session/result.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
const TASK = join(ROOT, 'test/fixtures/visual/web-button.json');
const JUDGE = `node ${join(ROOT, 'tasks/judges/colour-fill.mjs')}`;

const seen = (result: SessionResult) => result.milestones.find((m) => m.id === 'button-seen')!;

/** Pixels of a kept image that show the page's red, in the left and the right eye. */
function redPixels(path: string): [number, number] {
  const image = decodePng(readFileSync(path));
  const halves: [number, number] = [0, 0];
  for (let i = 0; i < image.pixels.length; i += 3) {
    if (image.pixels[i] > 90 && image.pixels[i + 1] < 60 && image.pixels[i + 2] < 60) halves[(i / 3) % image.width < image.width / 2 ? 0 : 1]++;
  }
  return halves;
}

function taskWith(view: Record<string, unknown>): Record<string, unknown> {
  const task = JSON.parse(readFileSync(TASK, 'utf8'));
  const dir = join(ROOT, 'test/fixtures/visual');
  // Inline, its paths resolve against the working directory: make them absolute.
  task.actors = join(dir, task.actors);
  for (const app of Object.values(task.apps) as Record<string, string>[]) for (const key of ['module', 'dir']) if (app[key]) app[key] = join(dir, app[key]);
  Object.assign(task.validators[1], view);
  return task;
}

describe.skipIf(SKIP_SYSTEM)('visual judges of browser apps: the page\'s XR layer (system test: Chromium)', () => {
  it('passes a page that draws the button and fails one that does not, judging and keeping the layer\'s images', async () => {
    const imagesDir = tempDir();
    const judged = await runJudgedSession({ task: TASK, seed: 1, app: 'web-reference', judge: { command: JUDGE, imagesDir } });
    const plain = await runSession({ task: TASK, seed: 1, app: 'web-reference' });
    expect(judged.hash, 'reading the layer back changes nothing the session sees').toBe(plain.hash);
    expect(judged.status, JSON.stringify(judged.milestones)).toBe('passed');
    const milestone = seen(judged);
    const reach = judged.milestones.find((m) => m.id === 'button-within-reach')!;
    const at = Math.min(...reach.ticks);
    expect(milestone.visual).toMatchObject({ view: 'layer', moments: [{ at: 1, tick: 90 }, { at: 'milestone:button-within-reach', tick: at }] });
    expect(milestone.visual?.verdict?.reason).toMatch(/#dd2222 fills 0\.[2-9]\d% at tick 90/);
    expect(milestone.visual?.images).toEqual([join(imagesDir, 'visual1-moment0-t90-layer.png'), join(imagesDir, `visual1-moment1-t${at}-layer.png`)]);
    for (const path of milestone.visual!.images!) {
      // The layer: both eyes side by side, each showing the page's red button.
      expect(decodePng(readFileSync(path))).toMatchObject({ kind: 'rgb', width: 256, height: 128 });
      const [left, right] = redPixels(path);
      expect(left).toBeGreaterThan(20);
      expect(right).toBeGreaterThan(20);
    }
    // The judge was told what it sees; the simulation's colour table means nothing on a page's layer.
    const request = JSON.parse(readFileSync(join(imagesDir, 'visual1-request.json'), 'utf8'));
    expect(request).toMatchObject({ view: 'layer', colours: {}, images: [{ view: 'layer', tick: 90, width: 256, height: 128 }, { view: 'layer' }] });

    // The same button, placed and tagged, never drawn: the user saw no red, and the judge fails it.
    const hidden = await runJudgedSession({ task: TASK, seed: 1, app: 'web-hidden-button', judge: { command: JUDGE, imagesDir: tempDir() } });
    expect(hidden.milestones.find((m) => m.id === 'button-within-reach')?.passed).toBe(true);
    expect(hidden.status).toBe('failed');
    expect(seen(hidden)).toMatchObject({ passed: false, score: 0, visual: { view: 'layer', verdict: { passed: false } } });
    expect(seen(hidden).errored).toBeUndefined();
    for (const path of seen(hidden).visual!.images!) expect(redPixels(path)).toEqual([0, 0]);
  });

  it('view "simulation" judges the simulation\'s own view of a browser app, which has no page pixels', async () => {
    const imagesDir = tempDir();
    const result = await runJudgedSession({ task: taskWith({ view: 'simulation' }), seed: 1, app: 'web-reference', judge: { command: JUDGE, imagesDir } });
    expect(seen(result)).toMatchObject({ passed: false, visual: { view: 'simulation', verdict: { passed: false } } });
    expect(seen(result).visual?.images?.[0]).toBe(join(imagesDir, 'visual1-moment0-t90.png'));
    expect(decodePng(readFileSync(seen(result).visual!.images![0]))).toMatchObject({ width: 320, height: 240 });
    expect(redPixels(seen(result).visual!.images![0])).toEqual([0, 0]);
  });

  it('in-process apps are judged on the simulation\'s view; view "layer" needs a browser app and the user\'s eyes, with the JSON path', async () => {
    const inProcess = await runJudgedSession({ task: TASK, seed: 1, app: 'reference', judge: { command: JUDGE, imagesDir: tempDir() } });
    expect(seen(inProcess).visual?.view).toBe('simulation');

    const refused = await runSession({ task: taskWith({ view: 'layer' }), seed: 1, app: 'reference' });
    expect(refused.status).toBe('errored');
    expect(refused.error).toMatchObject({ kind: 'bad-input', jsonPath: '$.validators[1].view' });
    expect(refused.error?.message).toMatch(/view "layer" judges what a browser app drew into its XR layer, and this session's app is not a browser app/);

    const overview = await runSession({ task: taskWith({ view: 'layer', camera: 'overview' }), seed: 1, app: 'web-reference' });
    expect(overview.error).toMatchObject({ kind: 'bad-input', jsonPath: '$.validators[1].view' });
    expect(overview.error?.message).toMatch(/cannot be seen from camera "overview"/);

    const unknown = await runSession({ task: taskWith({ view: 'page' }), seed: 1, app: 'web-reference' });
    expect(unknown.error).toMatchObject({ kind: 'bad-input' });
    expect(unknown.error?.jsonPath).toMatch(/^\$\.validators\[1\]/);
  });

  it('xrsim run --judge (in a session worker) judges the page\'s layer and keeps its images next to the stream', () => {
    const out = join(tempDir(), 'button.xrs');
    const r = xrsim('run', '--task', TASK, '--app', 'web-reference', '--judge', JUDGE, '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    const milestone = (r.json!.milestones as SessionResult['milestones']).find((m) => m.id === 'button-seen')!;
    expect(milestone).toMatchObject({ passed: true, visual: { view: 'layer' } });
    expect(milestone.visual?.images?.[0]).toBe(join(out.replace(/\.xrs$/, '.visual'), 'visual1-moment0-t90-layer.png'));
    expect(existsSync(milestone.visual!.images![0])).toBe(true);
  });

  it('without a judge, a browser app\'s visual milestone is errored, never passed', async () => {
    const result = await runJudgedSession({ task: TASK, seed: 1, app: 'web-reference' });
    expect(seen(result)).toMatchObject({ passed: false, errored: true });
    expect(result.status).toBe('errored');
  });
});
