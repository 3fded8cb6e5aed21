/**
 * Validators turn a run into milestones. A validator is a pure function of the frames it observes:
 * it sees each frame once, in tick order, live or replayed from a stream, and keeps bounded state.
 */
import type { FrameView } from '../frame/frame.js';
import type { Moment } from '../task/types.js';

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
  /**
   * The harness could not score it (a `visual` milestone with no judge, or a judge that crashed, timed out
   * or printed no verdict): never passed, and its session is `errored`. `note` says why.
   */
  errored?: boolean;
  /** A `visual` milestone's criterion, moments, images and verdict. */
  visual?: VisualJudgement;
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

/** What a judge said about a milestone's images. */
export interface JudgeVerdict {
  passed: boolean;
  /** In [0, 1]. */
  confidence: number;
  reason: string;
}

/** The judged part of a `visual` milestone: its criterion, its images (paths) and the judge's verdict. */
export interface VisualJudgement {
  criterion: string;
  /** The tick of each moment, or null for one that never happened. */
  moments: { at: Moment; tick: number | null }[];
  /** Image files, one per moment (absent until rendered). */
  images?: string[];
  /** What the images show: a browser app's XR layer, or the simulation's own view (set once rendered). */
  view?: 'layer' | 'simulation';
  verdict?: JudgeVerdict;
}
