/**
 * Turns what the observer gathered into the ten ratings: each metric banded (heuristics.ts), with the ticks
 * and the content that decided it. An app that showed no content at all rates 1 on every heuristic (no
 * free credit); a heuristic with nothing to apply to in a session that did show content is not rated.
 */
import type { ContentRecord } from './content.js';
import { HEURISTICS, rate } from './heuristics.js';
import type { MotionComfort } from './motion.js';
import { Worst, type PlacementScore } from './placement.js';
import { RESPONSE_WINDOW, type ResponseLog } from './responses.js';
import type { DesignHeuristicId, DesignRating, DesignReport } from './types.js';

/** What the observer gathered over a session. */
export interface DesignEvidence {
  contentSeen: boolean;
  records: readonly ContentRecord[];
  placements: readonly PlacementScore[];
  reach: Worst;
  inside: Worst;
  motion: MotionComfort;
  responses: ResponseLog;
}

type Measured = { metric: number; ticks: number[]; note: string } | { notRated: string };

/** The report: every heuristic rated (or not) and the mean. */
export function designReport(evidence: DesignEvidence): DesignReport {
  const measures = measure(evidence);
  const ratings = HEURISTICS.map((h): DesignRating => {
    const base = { id: h.id, title: h.title, unit: h.unit, source: 'formula' as const };
    if (!evidence.contentSeen) return { ...base, rating: 1, metric: null, ticks: [], note: 'the app showed no content: nothing to rate, no credit' };
    const m = measures[h.id];
    if ('notRated' in m) return { ...base, rating: null, metric: null, ticks: [], note: m.notRated };
    return { ...base, rating: rate(m.metric, h.bands), metric: round(m.metric), ticks: m.ticks, note: m.note };
  });
  return { score: meanRating(ratings), ratings };
}

/** The mean of the rated heuristics, or null when none is rated. */
export function meanRating(ratings: readonly DesignRating[]): number | null {
  const rated = ratings.filter((r) => r.rating !== null);
  return rated.length ? round(rated.reduce((sum, r) => sum + r.rating!, 0) / rated.length) : null;
}

function measure(e: DesignEvidence): Record<DesignHeuristicId, Measured> {
  const hand = e.records.map((r) => r.lockedHand());
  const placed = e.records.filter((_, k) => hand[k] < 0 && e.placements[k].placements > 0);
  const worst = (pick: (p: PlacementScore, touched: boolean) => Worst, better: 'lower' | 'higher') => {
    const w = new Worst(better, 0);
    e.records.forEach((r, k) => hand[k] < 0 && w.merge(pick(e.placements[k], r.touched)));
    return w;
  };
  const noPlacement = { notRated: 'all content lived at a hand: no placement of the app to judge' };
  const at = (w: Worst, what: string) => ({ ticks: [w.tick], note: `${what}: "${w.of}" at tick ${w.tick}` });
  const neck = worst((p) => p.neck, 'higher');
  const behind = worst((p) => p.behind, 'higher');
  const size = worst((p, touched) => (touched ? p.sizeTouched : p.size), 'lower');
  const distance = worst((p) => p.distance, 'lower');
  const locked = e.records.map((r, k) => ({ r, k })).filter(({ k }) => hand[k] >= 0);
  const wobble = locked.reduce((w, { r, k }) => (r.wobble(hand[k]) > w.value ? { value: r.wobble(hand[k]), of: r.tag.role } : w), { value: -1, of: '' });
  const free = e.records.some((_, k) => hand[k] < 0);
  const r = e.responses;
  return {
    'reach-comfort': e.reach.tick >= 0 ? { metric: e.reach.value, ...at(e.reach, 'the farthest reach, for') } : { notRated: 'no content was touched or reached for' },
    'neck-rotation': placed.length === 0 ? noPlacement : neck.tick >= 0 ? { metric: neck.value, ...at(neck, 'the worst placement in front') } : { metric: 0, ticks: [], note: 'every placement was behind or below' },
    'angular-size': placed.length === 0 ? noPlacement : size.tick >= 0 ? { metric: size.value, ...at(size, 'the smallest (or widest) against its minimum') } : { notRated: 'no placed content declared a size or text height (in process: ctx.tag(role, id, poseOf, { size, text }))' },
    'viewing-distance': placed.length === 0 ? noPlacement : { metric: distance.value, ...at(distance, 'the farthest outside the comfortable range') },
    'behind-or-below': placed.length === 0 ? noPlacement : { metric: behind.value, ...at(behind, 'the worst placement') },
    'hand-locked-stability': wobble.value >= 0 ? { metric: wobble.value * 1000, ticks: [], note: `the most wobbly hand-locked content: "${wobble.of}"` } : { notRated: 'no content was locked to a moving hand' },
    'inside-surfaces': !free ? noPlacement : e.inside.tick >= 0 ? { metric: e.inside.value * 100, ...at(e.inside, 'the deepest in a surface') } : { metric: 0, ticks: [], note: 'no content sank into a surface' },
    'motion-comfort': !free ? noPlacement : { metric: e.motion.share(), ticks: e.motion.firstTick >= 0 ? [e.motion.firstTick] : [], note: e.motion.firstTick >= 0 ? `"${e.motion.of}" first moved the view at tick ${e.motion.firstTick} (head turns dragging content: ${e.motion.draggedFrames}/${e.motion.turningFrames} frames; large content moving while the head was still: ${e.motion.movingFrames}/${e.motion.stillFrames})` : 'no content moved the view' },
    'response-latency': r.answered > 0 ? { metric: r.medianDelay(), ticks: [r.slowestTick], note: `median of ${r.answered} answered inputs; the slowest took ${round(r.slowest)} s (input at tick ${r.slowestTick})` } : { notRated: r.inputs > 0 ? 'no input was answered: see interaction-feedback' : 'no input' },
    'interaction-feedback': r.judged > 0 ? { metric: r.answered / r.judged, ticks: r.firstUnansweredTick >= 0 ? [r.firstUnansweredTick] : [], note: `${r.answered} of ${r.judged} inputs answered within ${RESPONSE_WINDOW} s${r.firstUnansweredTick >= 0 ? `; the first unanswered at tick ${r.firstUnansweredTick}` : ''}` } : { notRated: 'no input' },
  };
}

function round(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(4)) : x;
}
