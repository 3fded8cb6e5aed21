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

  xrTest('opens a session to read frame by frame: every spawn at the fingertips, tags, joints and events', async ({ xr }) => {
    const s = await xr.open({ task: 'xr/pinch-spawn-ball', seed: 1 });
    expect(s.tick).toBe(0);
    expect(s.tags().ball ?? null).toBeNull();
    const spawnedAt: number[] = [];
    // Every spawn, not only the first: at each one the ball is within 2 cm of the dominant pinch point.
    while (s.tick < s.session.model.timing.durationTicks) {
      const before = s.events('app:ball-spawned').length;
      await s.step();
      if (s.events('app:ball-spawned').length === before) continue;
      spawnedAt.push(s.tick);
      const thumb = s.joint('right', 'thumb-tip')!;
      const index = s.joint('right', 'index-tip')!;
      const pinch = thumb.map((v, i) => (v + index[i]) / 2);
      const ball = s.tags().ball!;
      expect(Math.hypot(...ball.position.map((v, i) => v - pinch[i]))).toBeLessThan(0.02);
    }
    expect(spawnedAt.length).toBeGreaterThan(0);
    expect(s.events('app:ball-spawned').map((e) => e.tick)).toEqual(spawnedAt);
    const result = await s.finish();
    expect(result).toPassAllMilestones();
    expect(() => s.joint('right', 'no-such-joint' as never)).toThrow(/unknown joint "no-such-joint"/);
  });

  xrTest('runs a session in a worker with a time limit', async ({ xr }) => {
    const result = await xr.runIsolated({ task: 'xr/gaze-dwell-select', seed: 1 }, { timeLimitSeconds: 60 });
    expect(result).toPassAllMilestones();
  });
});
