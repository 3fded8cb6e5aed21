/**
 * `xrsim/vitest` as a user's project would use it: the fixture runs sessions, the matchers pass and fail
 * with messages that say which milestone and why.
 */
import { describe, expect } from 'vitest';
import { installXrsimMatchers, xrsimMatchers, xrTest } from '../src/vitest/index.js';

installXrsimMatchers();

describe('xrsim/vitest', () => {
  xrTest('runs a session through the fixture and matches its milestones', async ({ xr }) => {
    const result = await xr.run({ task: 'xr/palm-menu', seed: 1, dominantHand: 'left' });
    expect(result).toPassMilestone('menu-on-palm');
    expect(result).toPassAllMilestones();
    expect(result).toHaveSessionStatus('passed');
  });

  xrTest('says which milestone failed, with its metric and evidence', async ({ xr }) => {
    const result = await xr.run({ task: 'xr/palm-menu', app: 'always-visible', seed: 1 });
    expect(result).not.toPassAllMilestones();
    expect(result).not.toPassMilestone('hidden-when-palm-away');
    const verdict = xrsimMatchers.toPassMilestone(result, 'hidden-when-palm-away');
    expect(verdict.pass).toBe(false);
    expect(verdict.message()).toMatch(/FAIL hidden-when-palm-away: metric 1 \(atMost 0\)/);
    expect(xrsimMatchers.toPassMilestone(result, 'no-such-milestone').message()).toMatch(/has no milestone "no-such-milestone"/);
  });

  xrTest('runs a session in a worker with a time limit', async ({ xr }) => {
    const result = await xr.runIsolated({ task: 'xr/gaze-dwell-select', seed: 1 }, { timeLimitSeconds: 60 });
    expect(result).toPassAllMilestones();
  });
});
