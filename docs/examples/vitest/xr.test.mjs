// A user's own test file: paste it into a project that has xrsim and vitest installed, then `npx vitest`.
import { expect } from 'vitest';
import { installXrsimMatchers, xrTest } from 'xrsim/vitest';

installXrsimMatchers();

xrTest('the reference palm menu passes with a left-handed user', async ({ xr }) => {
  const result = await xr.run({ task: 'xr/palm-menu', seed: 1, dominantHand: 'left', scene: 'office' });
  expect(result).toPassMilestone('menu-on-palm');
  expect(result).toPassAllMilestones();
});

xrTest('an app that never hides its menu is caught', async ({ xr }) => {
  const result = await xr.run({ task: 'xr/palm-menu', app: 'always-visible', seed: 1 });
  expect(result).not.toPassMilestone('hidden-when-palm-away');
});
