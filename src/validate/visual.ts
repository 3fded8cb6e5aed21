/**
 * `visual`: a criterion about what the user sees, judged on images. At its moments (seconds, or an event's
 * first occurrence) the user's point of view is rendered and handed, with a short human-written criterion,
 * to a judge command that prints `{ passed, confidence, reason }`. Rendering and judging are scoring, not
 * simulation: they happen outside the kernel, in the tools layer (`src/judge/`), and never touch a frame or
 * a hash. This validator only notes the tick of each moment; on its own (no judge ran) its milestones come
 * out `errored`, never passed. A moment that never happened fails the milestone without asking the judge.
 * A moment may name a milestone (`milestone:<id>`): its tick is known only when every validator has
 * finished, so the registry resolves it then ({@link resolveMilestoneMoments}) and the judge's capture
 * renders it by running the session again (`judge/session.ts`).
 */
import { defineFormula, schema, type SpecOf } from './formula.js';
import type { JudgeVerdict, Milestone, Validator } from './types.js';
import { momentWatcher } from './xr-context.js';
import { milestoneMoment } from '../task/requirements.js';

/** The default size of a judged image, pixels. */
export const VISUAL_DEFAULT_SIZE = { width: 320, height: 240 } as const;

/** The `visual` formula. Metric: the judge's confidence; a milestone passes when the judge passes it with at least its threshold. */
export const visual = defineFormula({
  type: 'visual',
  description:
    'A criterion about the user\'s view, judged on images rendered at named moments by a judge command (`--judge CMD` or `judge`) that prints { passed, confidence, reason }. Metric: the judge\'s confidence; passes when the judge passes it with confidence at least the threshold. Errored when no judge is configured or the judge fails.',
  options: {
    criterion: { type: 'string', minLength: 1, maxLength: 2000, description: 'What must be true of the images, for the judge: short and human-written.' },
    moments: { type: 'array', minItems: 1, maxItems: 16, items: schema.moment, description: 'When to render: seconds, an event name (its first occurrence), or milestone:<id> (the earliest evidence tick of that milestone once it passed; milestone:<id>:last the latest).' },
    camera: { enum: ['head', 'overview'], description: 'The point of view: the user\'s eyes (default) or a corner of the room.' },
    view: { enum: ['layer', 'simulation'], description: 'What is judged: `layer`, what a browser app drew into its XR layer (the default for browser apps), or `simulation`, the simulation\'s own rendering of the room (the default for in-process apps; the only one for `camera: "overview"`).' },
    width: { type: 'integer', minimum: 16, maximum: 1920, description: 'Image width in pixels (default 320).' },
    height: { type: 'integer', minimum: 16, maximum: 1080, description: 'Image height in pixels (default 240).' },
    judge: { type: 'string', minLength: 1, description: 'The judge command (a shell command line, run from the working directory); `--judge` overrides it.' },
    judgeTimeout: { type: 'number', exclusiveMinimum: 0, maximum: 3600, description: 'Seconds the judge may take (default 60).' },
  },
  required: ['criterion', 'moments'],
  frameState: true,
  create: (spec, ctx): Validator => {
    const watchers = spec.moments.map((at) => momentWatcher(ctx, at));
    const ticks: (number | null)[] = spec.moments.map(() => null);
    return {
      trace: () => ticks.filter((t) => t !== null).length,
      observe(frame) {
        watchers.forEach((fired, i) => {
          if (fired(frame)) ticks[i] = frame.tick;
        });
      },
      finish: () => visualMilestones(spec, ticks),
    };
  },
});
/** The options of `visual`. */
export type VisualValidatorSpec = SpecOf<typeof visual>;

/**
 * The milestones of a `visual` validator before judging: failed when a moment never happened (nothing to
 * judge), else errored until a judge decides ({@link judgedMilestone}).
 */
export function visualMilestones(spec: VisualValidatorSpec, ticks: readonly (number | null)[]): Milestone[] {
  const moments = spec.moments.map((at, i) => ({ at, tick: ticks[i] }));
  const missing = moments.filter((m) => m.tick === null).map((m) => {
    const named = milestoneMoment(m.at);
    return named ? `${JSON.stringify(m.at)} (milestone "${named.id}" did not pass)` : JSON.stringify(m.at);
  });
  return spec.milestones.map((m) => ({
    id: m.id,
    passed: false,
    score: 0,
    metric: null,
    threshold: m.threshold,
    comparison: 'atLeast',
    ticks: moments.flatMap((x) => (x.tick === null ? [] : [x.tick])),
    validator: 'visual',
    ...(m.description ? { description: m.description } : {}),
    ...(missing.length
      ? { note: `not judged: moment ${missing.join(', ')} never happened, so there is nothing to show the judge` }
      : { errored: true, note: 'not judged: no judge configured (give --judge CMD to xrsim run or sweep, or "judge" in the task\'s visual validator)' }),
    visual: { criterion: spec.criterion, moments },
  }));
}

/**
 * Resolves a `visual` validator's `milestone:<id>` moments once every milestone is scored: `own` are the
 * validator's milestones as it finished them (such moments unresolved), `settled` every milestone of the
 * session by id, requirements applied. A moment whose milestone did not pass, or has no evidence tick,
 * never happened. Other validators' milestones are returned as they are.
 */
export function resolveMilestoneMoments(spec: { type: string }, own: Milestone[], settled: ReadonlyMap<string, Milestone>): Milestone[] {
  if (spec.type !== 'visual') return own;
  const visualSpec = spec as VisualValidatorSpec;
  if (!visualSpec.moments.some((at) => milestoneMoment(at))) return own;
  const ticks = visualSpec.moments.map((at, k) => {
    const named = milestoneMoment(at);
    if (!named) return own[0]?.visual?.moments[k]?.tick ?? null;
    const milestone = settled.get(named.id);
    if (!milestone?.passed || milestone.ticks.length === 0) return null;
    return named.last ? Math.max(...milestone.ticks) : Math.min(...milestone.ticks);
  });
  return visualMilestones(visualSpec, ticks);
}

/** A `visual` milestone once its judge has answered: passed when the verdict passes with confidence ≥ threshold. */
export function judgedMilestone(milestone: Milestone, verdict: JudgeVerdict, images: string[]): Milestone {
  const passed = verdict.passed && verdict.confidence >= milestone.threshold;
  const { errored: _errored, note: _note, ...rest } = milestone;
  const score = passed ? 1 : verdict.passed ? Math.min(0.99, milestone.threshold > 0 ? verdict.confidence / milestone.threshold : 0) : 0;
  return { ...rest, passed, score: Math.round(score * 1e6) / 1e6, metric: verdict.confidence, visual: { ...milestone.visual!, images, verdict } };
}

/** A `visual` milestone whose judge could not answer (a crash, a timeout, output that is not a verdict). */
export function erroredMilestone(milestone: Milestone, reason: string, images?: string[]): Milestone {
  return { ...milestone, passed: false, score: 0, metric: null, errored: true, note: reason, visual: { ...milestone.visual!, ...(images ? { images } : {}) } };
}
