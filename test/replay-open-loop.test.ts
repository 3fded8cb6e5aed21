/**
 * `xrsim replay` of a stream whose task is absent: the task is copied out of the suite, a session of the copy
 * is recorded, and the copy's directory is moved away, as a stream recorded on another machine arrives.
 * The replay then plays the recorded inputs from the frames into the app (open loop) and says so; with
 * the task present it re-simulates, as before. In process here; a page in Chromium below (skipped only
 * with XRSIM_SKIP_SYSTEM=1).
 */
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedChromium } from '../src/browser/chromium.js';
import { createSession, replayStream } from '../src/index.js';
import { PACKAGE_ROOT, TASKS_DIR } from '../src/paths.js';
import { SKIP_SYSTEM } from './helpers/browser.js';
import { xrsim } from './helpers/cli.js';

// Inside the package (its ignored tmp/), so that the copied apps' `import 'xrsim'` resolves to this package.
mkdirSync(join(PACKAGE_ROOT, 'tmp'), { recursive: true });
const dir = mkdtempSync(join(PACKAGE_ROOT, 'tmp', 'replay-open-loop-'));
const suiteTask = join(TASKS_DIR, 'xr', 'poke-button');
const copy = join(dir, 'poke-button');
const streams = { inProcess: join(dir, 'poke-in-process.xrs'), page: join(dir, 'poke-page.xrs'), present: join(dir, 'poke-present.xrs') };

async function record(task: string, app: string, path: string): Promise<void> {
  const session = await createSession({ task, app, seed: 2, dominantHand: 'left', record: { path } });
  const result = await session.run();
  expect(result.status, `${app}: ${result.error?.message ?? ''}`).toBe('passed');
}

beforeAll(async () => {
  cpSync(suiteTask, copy, { recursive: true });
  await record(join(copy, 'task.json'), 'reference', streams.inProcess);
  if (!SKIP_SYSTEM) await record(join(copy, 'task.json'), 'web-reference', streams.page);
  await record('xr/poke-button', 'reference', streams.present);
  renameSync(copy, join(dir, 'moved-away'));
}, 300_000);

afterAll(async () => {
  await closeSharedChromium();
  rmSync(dir, { recursive: true, force: true });
});

describe('replaying a stream whose task is absent, into an in-process app', () => {
  it('plays the recorded inputs into the app open loop, says so, and finds it identical', async () => {
    const report = await replayStream(streams.inProcess, { app: join(suiteTask, 'apps', 'reference.mjs') });
    expect(report.mode).toBe('open-loop');
    expect(report.firstDivergence).toBeNull();
    expect(report.identical).toBe(true);
    expect(report.compared).toBe(report.frames);
  });

  it('names the first divergent tick and tag of an adversarial app', async () => {
    const report = await replayStream(streams.inProcess, { app: join(suiteTask, 'apps', 'out-of-reach.mjs') });
    expect(report.mode).toBe('open-loop');
    expect(report.identical).toBe(false);
    expect(report.firstDivergence).toMatchObject({ kind: 'tag', name: 'button' });
    expect(report.firstDivergence!.recorded).not.toEqual(report.firstDivergence!.replayed);
  });

  it('re-simulates as before where the task is present', async () => {
    const report = await replayStream(streams.present, { app: 'reference' });
    expect(report.mode).toBe('resimulated');
    expect(report.identical).toBe(true);
  });

  it('the CLI names the mode it used', () => {
    const absent = xrsim('replay', streams.inProcess, '--app', join(suiteTask, 'apps', 'reference.mjs'));
    expect(absent.code).toBe(0);
    expect(absent.stdout).toMatch(/^identical: \d+ frames, .*open loop: the stream's task is absent/);
    const json = xrsim('replay', streams.inProcess, '--app', join(suiteTask, 'apps', 'out-of-reach.mjs'), '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ mode: 'open-loop', identical: false, firstDivergence: { kind: 'tag', name: 'button' } });
    const present = xrsim('replay', streams.present, '--app', 'reference');
    expect(present.stdout).toMatch(/^identical: .*resimulated from the stream's task/);
  }, 120_000);
});

describe.skipIf(SKIP_SYSTEM)('replaying a browser session whose task is absent, into a page (system test)', () => {
  it('is identical into the same page, open loop', async () => {
    const report = await replayStream(streams.page, { app: join(suiteTask, 'web', 'index.html') });
    expect(report.mode).toBe('open-loop');
    expect(report.app.host).toBe('browser');
    expect(report.firstDivergence).toBeNull();
    expect(report.compared).toBe(report.frames);
  }, 300_000);

  it('names the first divergent tick and tag of an adversarial page', async () => {
    const report = await replayStream(streams.page, { app: join(suiteTask, 'web', 'out-of-reach.html') });
    expect(report.mode).toBe('open-loop');
    expect(report.firstDivergence).toMatchObject({ kind: 'tag', name: 'button' });
  }, 300_000);
});
