/**
 * What a sweep expects of each session, from its task's app entries: a reference app (or a task without
 * apps, or an app given by path) passes every milestone; an adversarial app fails exactly its `expectFail`
 * milestones and passes the others, and an app with `failsWithHand` does so only with that dominant hand
 * (with the other it passes everything). A sweep of `--apps all` whose adversarial apps fail exactly what
 * they should is as expected: its exit code is 0.
 */
import type { Handedness } from '../hand/side.js';
import { ownEntry } from '../json/names.js';
import type { SessionStatus } from '../session/result.js';
import type { AppEntrySpec } from '../task/types.js';
import type { Milestone } from '../validate/types.js';

/** A task's apps by name, as its file lists them (undefined for a task without apps). */
export type AppEntries = Readonly<Record<string, AppEntrySpec>> | undefined;

/** The milestones a session of `app` with dominant hand `hand` is expected to fail: none for an app expected to pass. */
export function expectedFailures(apps: AppEntries, app: string | null, hand: Handedness): readonly string[] {
  const entry = app === null ? undefined : ownEntry(apps, app);
  if (!entry?.expectFail?.length) return [];
  if (entry.failsWithHand !== undefined && entry.failsWithHand !== hand) return [];
  return entry.expectFail;
}

/**
 * Whether a session did what was expected of it: passed, for an app expected to pass; failed exactly the
 * `expected` milestones (no more, no fewer), for one expected to fail. An errored session never is: the
 * harness could not judge it.
 */
export function isAsExpected(result: { status: SessionStatus; milestones: readonly Milestone[] }, expected: readonly string[]): boolean {
  if (result.status === 'errored') return false;
  if (expected.length === 0) return result.status === 'passed';
  if (result.status !== 'failed') return false;
  const failed = result.milestones.filter((m) => !m.passed).map((m) => m.id);
  return failed.length === expected.length && expected.every((id) => failed.includes(id));
}
