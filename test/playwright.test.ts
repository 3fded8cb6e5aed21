/**
 * `xrsim/playwright` in real Chromium (skipped only with XRSIM_SKIP_SYSTEM=1): the documented example
 * project passes under Playwright Test's own CLI, installed as a user installs it (node_modules/xrsim is
 * this package), and the plain async API steps a page deterministically without Playwright Test.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { XrPage } from '../src/playwright/index.js';
import { SKIP_SYSTEM } from './helpers/browser.js';
import { ROOT, tempDir } from './helpers/cli.js';

const EXAMPLE = join(ROOT, 'docs/examples/playwright');

describe.skipIf(SKIP_SYSTEM)('xrsim/playwright (system test)', () => {
  it('runs the README example project with Playwright Test: both of its tests pass', () => {
    // What `npm install` makes of the example's package.json: xrsim (file:../../..) and the packages it names.
    const dir = tempDir('xrsim-playwright-example-');
    cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !/test-results|playwright-report|node_modules/.test(src) });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules/xrsim'), 'dir');
    for (const name of ['@playwright', 'three']) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    const cli = join(ROOT, 'node_modules/@playwright/test/cli.js');
    const child = spawnSync(process.execPath, [cli, 'test'], { cwd: dir, encoding: 'utf8', timeout: 600_000, env: { ...process.env, CI: '1' } });
    expect(child.status, child.stdout + child.stderr).toBe(0);
    expect(child.stdout).toMatch(/2 passed/);
  }, 660_000);

  it('steps a page with the plain API: the same seed and steps give the same events, tags and hash', async () => {
    const run = async () => {
      const page = await XrPage.open({ dir: join(EXAMPLE, 'app'), task: 'xr/pinch-spawn-ball', seed: 3, dominantHand: 'left' });
      try {
        expect(page.started).toBe(true);
        expect(page.tick).toBe(0);
        await page.step(5);
        expect(page.tick).toBe(5);
        const cube = page.tags().cube!;
        const result = await page.finish();
        await expect(page.step()).rejects.toThrow(/finished/);
        return { cube, result, events: page.events('pinch'), errors: page.errors(), hash: page.hash };
      } finally {
        await page.close();
      }
    };
    const first = await run();
    expect(first.events.map((e) => (e.data as { hand: string }).hand)).toEqual(['right', 'left']);
    expect(first.errors).toEqual([]);
    expect(first.hash).toBe(first.result.hash);
    const second = await run();
    expect(second.events).toEqual(first.events);
    expect(second.cube).toEqual(first.cube);
    expect(second.hash).toBe(first.hash);
  }, 300_000);
});
