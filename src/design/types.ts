/**
 * A session's design score: ten XR design heuristics rated 1 to 5 from what the frame stream shows (where
 * the app put its content, how it moved, how it answered the user), as GenXR-Bench's design score rates
 * apps on a Likert scale. Functional milestones say whether an app works; these say whether it is
 * comfortable to use. docs/TASKS.md, "Design score", gives every heuristic's measure, bands and sources.
 */

import { DESIGN_HEURISTIC_IDS, type DesignHeuristicId } from '../task/design-heuristics.js';

export { DESIGN_HEURISTIC_IDS, type DesignHeuristicId };

/** A rating on the 1–5 Likert scale: 5 best. */
export type Likert = 1 | 2 | 3 | 4 | 5;

/** One heuristic's rating in one session. */
export interface DesignRating {
  /** A heuristic id: one of {@link DESIGN_HEURISTIC_IDS}, or a judge's own (`source: 'judge'`). */
  id: string;
  title: string;
  /** 1–5, or null when the session showed nothing it applies to (no hand-locked content, no interaction). */
  rating: Likert | null;
  /** The measured quantity the rating is banded from, in `unit`; null when not rated. */
  metric: number | null;
  unit: string;
  /** Evidence: the ticks that decided the metric (the worst placement, the first unanswered input, ...). */
  ticks: number[];
  /** What was measured where, or why it is not rated. */
  note?: string;
  /** `formula`: computed from the stream by xrsim; `judge`: given by a design judge command over the session's video. */
  source: 'formula' | 'judge';
}

/** A session's design report (`design` in its result). */
export interface DesignReport {
  /** The mean of the rated heuristics (1–5), or null when none is rated. */
  score: number | null;
  ratings: DesignRating[];
}
