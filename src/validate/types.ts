/**
 * Validators turn a run into milestones. A validator is a pure function of the frames it observes:
 * it sees each frame once, in tick order, live or replayed from a stream, and keeps bounded state.
 */
import type { FrameView } from '../frame/frame.js';

/** One scored requirement. A task's score is the fraction of its milestones that passed. */
export interface Milestone {
  id: string;
  passed: boolean;
  /** Partial credit in [0, 1]: 1 when passed, else how close the metric came (see `validate/score.ts`). */
  score: number;
  /** The measured quantity; `null` when it never occurred (no contact, never settled). */
  metric: number | null;
  /** The threshold the metric was held to. */
  threshold: number;
  /** Whether the metric had to be at most (`atMost`), at least (`atLeast`) or equal to (`exactly`) the threshold. */
  comparison: 'atMost' | 'atLeast' | 'exactly';
  /** Evidence ticks: the frames that decided the metric. */
  ticks: number[];
  /** Which validator formula produced it. */
  validator: string;
  description?: string;
  /** Why the metric could not be measured, when something beyond the formula decided (a non-finite frame). */
  note?: string;
}

/** A running validator. */
export interface Validator {
  /** Called once per frame, in tick order, starting with frame 0. Must not retain `frame`. */
  observe(frame: FrameView): void;
  /** Called after the last frame. */
  finish(): Milestone[];
  /**
   * The quantity the validator watches, at the frame it observed last (a distance, a depth, a count), or
   * null when there is none then. Reports plot it over time; sessions never call it.
   */
  trace?(): number | null;
}
