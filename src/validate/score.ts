/**
 * Turning one measured metric into the milestones of a validator (tiered thresholds).
 */
import type { MilestoneSpec } from '../task/types.js';
import type { Milestone } from './types.js';

/** Whether the metric must stay at most, reach at least, or equal the threshold. */
export type Comparison = 'atMost' | 'atLeast' | 'exactly';

/**
 * Scores `metric` against every milestone threshold of a validator.
 * Partial credit is the ratio threshold/metric (atMost) or metric/threshold (atLeast), clamped to [0, 1];
 * capped below 1 for a milestone that did not pass; a metric that never occurred (non-finite) earns 0.
 */
export function scoreMilestones(
  validator: string,
  specs: readonly MilestoneSpec[],
  metric: number,
  comparison: Comparison,
  ticks: readonly number[],
  extraCondition = true,
): Milestone[] {
  return specs.map((spec) => {
    const finite = Number.isFinite(metric);
    const meets = finite && (comparison === 'atMost' ? metric <= spec.threshold : comparison === 'atLeast' ? metric >= spec.threshold : metric === spec.threshold);
    const passed = meets && extraCondition;
    let score = 0;
    if (passed) score = 1;
    else if (finite) {
      const ratio =
        comparison === 'atMost' ? (metric > 0 ? spec.threshold / metric : 0)
        : comparison === 'atLeast' ? (spec.threshold > 0 ? metric / spec.threshold : 0)
        : 1 - Math.abs(metric - spec.threshold) / Math.max(1, Math.abs(spec.threshold));
      // A milestone that did not pass never earns full credit.
      score = Math.min(0.99, Math.max(0, ratio));
    }
    return {
      id: spec.id,
      passed,
      score: Math.round(score * 1e6) / 1e6,
      metric: finite ? metric : null,
      threshold: spec.threshold,
      comparison,
      ticks: [...ticks],
      validator,
      ...(spec.description ? { description: spec.description } : {}),
    };
  });
}
