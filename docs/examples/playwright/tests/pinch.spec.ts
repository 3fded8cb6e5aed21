import { test as base, expect } from '@playwright/test';
import { xrsimFixtures, type XrsimFixture } from 'xrsim/playwright';

// The `xr` fixture opens WebXR pages in the test's browser, with the shim installed and a simulated user.
const test = base.extend<{ xr: XrsimFixture }>(xrsimFixtures);
const app = new URL('../app/', import.meta.url);

test('counts every pinch of the scripted user, with its hand', async ({ xr }) => {
  // The pinch-spawn-ball task's actors: the right hand pinches and holds, the left pinches briefly
  // meanwhile, then the right lets go (a pinch counts when it ends).
  const page = await xr.open({ dir: app, task: 'xr/pinch-spawn-ball', seed: 1, dominantHand: 'right' });
  expect(page.started).toBe(true);
  await page.step(); // the page places its cube on its first frame
  expect(page.tags().cube?.position[1]).toBeGreaterThan(1);

  await page.finish(); // steps the task to its end
  expect(page.events('pinch').map((e) => e.data)).toEqual([
    { hand: 'left', count: 1 },
    { hand: 'right', count: 2 },
  ]);
  expect(page.errors()).toEqual([]);
  expect(page.hash).toMatch(/^[0-9a-f]{16}$/);
});

test('counts a pinch the test makes with explicit poses', async ({ xr }) => {
  // No actor script: the user stands still until the test moves it.
  const page = await xr.open({ dir: app, task: 'xr/pinch-spawn-ball', seed: 1, actors: false });
  const hand = page.user.hand('right');
  hand.moveTo({ point: page.inFront(0.3, { up: -0.1, right: 0.1 }), with: 'pinch-point' });
  await page.advance(0.8);
  hand.pinch();
  await page.advance(0.4);
  hand.release();
  await page.advance(0.4);
  expect(page.events('pinch')).toEqual([expect.objectContaining({ name: 'pinch', data: { hand: 'right', count: 1 } })]);
  // The page can be inspected like any Playwright page.
  expect(await page.page.title()).toBe('Pinch counter');
});
