/**
 * xrsim for vitest (`import { xrTest, installXrsimMatchers } from 'xrsim/vitest'`): a fixture that runs
 * sessions, and matchers over their results.
 *
 * ```ts
 * import { expect } from 'vitest';
 * import { installXrsimMatchers, xrTest } from 'xrsim/vitest';
 * installXrsimMatchers();
 *
 * xrTest('the palm menu sits on the palm', async ({ xr }) => {
 *   const result = await xr.run({ task: 'xr/palm-menu', seed: 1, dominantHand: 'left' });
 *   expect(result).toPassMilestone('menu-on-palm');
 *   expect(result).toPassAllMilestones();
 * });
 *
 * xrTest('every ball spawns at the fingertips', async ({ xr }) => {
 *   const s = await xr.open({ task: 'xr/pinch-spawn-ball', seed: 1 });
 *   await s.advance(2);
 *   for (const e of s.events('app:ball-spawned')) expect(e.tick).toBeGreaterThan(0);
 *   expect(s.tags().ball).not.toBeNull();
 * });
 * ```
 */
import { expect, test } from 'vitest';
import type { RunHooks } from '../session/session.js';
import type { SessionResult } from '../session/result.js';
import { runSession } from '../session/run.js';
import { runSessionIsolated } from '../session/isolated.js';
import type { SessionSpec } from '../session/spec.js';
import { XrSessionHandle } from './session-handle.js';

export { XrSessionHandle, type SessionEvent, type TagPoseNow } from './session-handle.js';

/** What the `xr` fixture gives a test. */
export interface XrFixture {
  /** Runs a session in this thread (never throws for the session's own problems: see `status`). */
  run(spec: SessionSpec, hooks?: RunHooks): Promise<SessionResult>;
  /**
   * Opens a session to step a part at a time, reading its tags, joints and events frame by frame (closed
   * when the test ends). Throws for bad input, as `createSession` does.
   */
  open(spec: SessionSpec): Promise<XrSessionHandle>;
  /** Runs a session in a worker process of its own, with a wall-clock limit (for apps that might hang, or that change globals). */
  runIsolated(spec: SessionSpec, options?: { timeLimitSeconds?: number }): Promise<SessionResult>;
}

/** `test` with an `xr` fixture. */
export const xrTest = test.extend<{ xr: XrFixture }>({
  // eslint-disable-next-line no-empty-pattern
  xr: async ({}, use) => {
    const opened: XrSessionHandle[] = [];
    const open = async (spec: SessionSpec) => {
      const handle = await XrSessionHandle.open(spec);
      opened.push(handle);
      return handle;
    };
    try {
      await use({ run: runSession, runIsolated: runSessionIsolated, open });
    } finally {
      for (const handle of opened) await handle.close();
    }
  },
});

/** Describes a result's milestones for failure messages. */
function describeMilestones(result: SessionResult): string {
  if (result.status === 'errored') return `the session errored (${result.error?.kind}): ${result.error?.message}`;
  return result.milestones
    .map((m) => `  ${m.passed ? 'pass' : 'FAIL'} ${m.id}: metric ${m.metric ?? 'never'} (${m.comparison} ${m.threshold}), evidence ticks ${m.ticks.join(', ') || 'none'}`)
    .join('\n');
}

/**
 * Checks that a matcher got a session result. Anything else throws: a failed match would turn into a pass
 * under `.not` (`expect(undefined).not.toPassMilestone('x')`), hiding a broken test.
 */
function checkResult(value: unknown): asserts value is SessionResult {
  const r = value as Partial<SessionResult> | null;
  const ok = typeof r === 'object' && r !== null && typeof r.task === 'string' && Array.isArray(r.milestones) && (r.status === 'passed' || r.status === 'failed' || r.status === 'errored');
  if (!ok) throw new TypeError(`expected a session result (from runSession or xr.run), got ${describeValue(value)}`);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return String(typeof value === 'string' ? JSON.stringify(value) : value);
  return `an object with keys ${Object.keys(value).slice(0, 6).join(', ') || '(none)'}`;
}

/** The matchers, for `expect.extend`. */
export const xrsimMatchers = {
  /** The session has milestone `id` and it passed. */
  toPassMilestone(received: unknown, id: string) {
    checkResult(received);
    const milestone = received.milestones.find((m) => m.id === id);
    return {
      pass: milestone?.passed === true,
      message: () =>
        milestone
          ? `expected milestone "${id}" ${milestone.passed ? 'not ' : ''}to pass in ${received.task} (${received.scene}, seed ${received.seed}, ${received.hand} hand):\n${describeMilestones(received)}`
          : `the session has no milestone "${id}":\n${describeMilestones(received)}`,
    };
  },
  /** Every milestone passed (and the session did not error). */
  toPassAllMilestones(received: unknown) {
    checkResult(received);
    return {
      pass: received.status === 'passed',
      message: () => `expected ${received.task} (${received.scene}, seed ${received.seed}, ${received.hand} hand) ${received.status === 'passed' ? 'not ' : ''}to pass every milestone:\n${describeMilestones(received)}`,
    };
  },
  /** The session ended with this status: `passed`, `failed` or `errored`. */
  toHaveSessionStatus(received: unknown, status: SessionResult['status']) {
    checkResult(received);
    return { pass: received.status === status, message: () => `expected status ${status}, got ${received.status}:\n${describeMilestones(received)}` };
  },
};

/** Registers the matchers with vitest's `expect`. */
export function installXrsimMatchers(): void {
  expect.extend(xrsimMatchers);
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> {
    toPassMilestone(id: string): T;
    toPassAllMilestones(): T;
    toHaveSessionStatus(status: 'passed' | 'failed' | 'errored'): T;
  }
}
