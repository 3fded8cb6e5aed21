/**
 * A session with its `visual` milestones judged: the session runs as always (the same frames and hash),
 * its views are rendered at the validators' moments (`capture.ts`), and after it ends each validator's
 * images and criterion go to its judge command (`command.ts`); then, when the spec names one, a design judge
 * watches its video (`design-judge.ts`). The session workers run every session this
 * way, so `xrsim run` and `sweep` judge; plain `runSession` leaves visual milestones `errored`.
 */
import { join, resolve } from 'node:path';
import type { SimModel } from '../model/types.js';
import { LABEL_COLOURS, objectColour } from '../render/colours.js';
import { verdict, type SessionResult } from '../session/result.js';
import { runSession } from '../session/run.js';
import type { RunHooks } from '../session/session.js';
import type { SessionSpec } from '../session/spec.js';
import type { Milestone } from '../validate/types.js';
import { erroredMilestone, judgedMilestone } from '../validate/visual.js';
import { milestoneMoment } from '../task/requirements.js';
import { VisualCapture, type ValidatorCapture } from './capture.js';
import { runJudge, type JudgeRequest } from './command.js';
import { AgentViewRenderer } from './agent-views.js';
import { judgeDesign } from './design-judge.js';

/** Seconds a judge may take unless the spec or the validator says otherwise. */
export const DEFAULT_JUDGE_TIMEOUT = 60;

/** Where images go when the spec does not say: `xrsim-out/visual/<task>-seed<N>-<hand>`. */
export function defaultImagesDir(spec: SessionSpec): string {
  const task = typeof spec.task === 'string' ? spec.task : spec.task.id;
  return join('xrsim-out', 'visual', `${task.replace(/[^A-Za-z0-9_.-]+/g, '_')}-seed${spec.seed}-${spec.dominantHand ?? 'right'}`);
}

/** Runs a session and judges its `visual` milestones with `spec.judge` (or each validator's own `judge`). */
export async function runJudgedSession(spec: SessionSpec, hooks: RunHooks = {}): Promise<SessionResult> {
  let capture: VisualCapture | null | undefined;
  // An agent command sees the user's view: rendered from the frames, only for sessions that have one.
  let agentViews: AgentViewRenderer | null | undefined;
  const result = await runSession(spec, {
    ...hooks,
    onFrame(frame, session) {
      hooks.onFrame?.(frame, session);
      if (capture === undefined) {
        const judged = judgedValidators(session.model, spec);
        capture = judged.length ? new VisualCapture(session.model, session.dominantHand, judged, spec.judge?.imagesDir ?? defaultImagesDir(spec)) : null;
      }
      capture?.observe(frame);
      if (agentViews === undefined) agentViews = asksAgentCommand(session.model, spec) ? new AgentViewRenderer(session.model) : null;
      agentViews?.observe(frame);
    },
  }, { agentViews: (request, dir) => agentViews?.render(request, dir) ?? [] });
  if (!capture || result.milestones.length === 0) return judgeDesign(result, spec);
  await renderMilestoneMoments(result, capture, spec, hooks);
  return judgeDesign(await judgeResult(result, capture, spec), spec);
}

/**
 * Renders the moments known only once the session has ended, by running it again (sessions are
 * deterministic) and taking the images at their ticks: moments that name a milestone (`milestone:<id>`),
 * and every moment of a browser app's XR layer (the page reads its layer back only at ticks asked for
 * before it draws them). A re-run whose hash differs from the first run's gives no images, and the
 * milestones are errored.
 */
async function renderMilestoneMoments(result: SessionResult, capture: VisualCapture, spec: SessionSpec, hooks: RunHooks): Promise<void> {
  const wanted: { index: number; moment: number; tick: number }[] = [];
  for (const [index, captured] of capture.captures) {
    const ids = new Set(captured.spec.milestones.map((m) => m.id));
    const waiting = result.milestones.find((m) => m.validator === 'visual' && ids.has(m.id) && m.errored);
    waiting?.visual?.moments.forEach(({ at, tick }, moment) => {
      if ((captured.view === 'layer' || milestoneMoment(at)) && tick !== null && !captured.images[moment]) wanted.push({ index, moment, tick });
    });
  }
  if (wanted.length === 0) return;
  const indices = [...new Set(wanted.map((w) => w.index))];
  const again = new VisualCapture(capture.model, capture.dominantHand, indices, spec.judge?.imagesDir ?? defaultImagesDir(spec), wanted);
  const rerun = await runSession(
    { ...spec, record: undefined },
    { beforeStep: hooks.beforeStep, onFrame: (frame) => again.observe(frame) },
    again.wantsLayer ? { layerCapture: again.layerCapture() } : {},
  );
  if (rerun.hash === result.hash) again.finishLayer();
  for (const { index, moment } of wanted) {
    const target = capture.captures.get(index)!;
    const source = again.captures.get(index);
    if (rerun.hash !== result.hash) target.error ??= `the session run again to render its ${target.view === 'layer' ? 'XR layer' : 'milestone moments'} was not the same session (hash ${rerun.hash || 'none'}, first run ${result.hash})${rerun.error ? `: ${rerun.error.message}` : ''}`;
    else if (source?.error) target.error ??= source.error;
    else target.images[moment] = source?.images[moment] ?? null;
  }
}

/** Whether the session's agent (the spec's, else the task's) is a command, which gets views. */
function asksAgentCommand(model: SimModel, spec: SessionSpec): boolean {
  const choice = spec.agent ?? (model.sources.task as { agent?: string }).agent;
  return choice !== undefined && choice !== 'reference' && !choice.startsWith('replay');
}

/** Indices of the model's `visual` validators that have a judge command (from the spec or their own). */
function judgedValidators(model: SimModel, spec: SessionSpec): number[] {
  return model.validators.flatMap((v, i) => (v.type === 'visual' && (spec.judge?.command ?? v.judge) ? [i] : []));
}

/** The result with each captured validator's milestones judged, and its verdict recomputed. */
async function judgeResult(result: SessionResult, capture: VisualCapture, spec: SessionSpec): Promise<SessionResult> {
  const decided = new Map<string, Milestone>();
  for (const [index, captured] of capture.captures) {
    const ids = new Set(captured.spec.milestones.map((m) => m.id));
    // Only milestones waiting for a judge: a moment that never happened, or a non-finite frame, already failed them.
    const waiting = result.milestones.filter((m) => m.validator === 'visual' && ids.has(m.id) && m.errored);
    if (waiting.length === 0) continue;
    for (const m of await judgeValidator(index, captured, waiting, capture, spec, result.task)) decided.set(m.id, m);
  }
  const milestones = result.milestones.map((m) => (m.validator === 'visual' ? (decided.get(m.id) ?? m) : m));
  const { error: _previous, ...rest } = result;
  const { status, score, error } = verdict(milestones);
  return { ...rest, milestones, status, score, ...(error ? { error } : {}) };
}

async function judgeValidator(index: number, captured: ValidatorCapture, waiting: Milestone[], capture: VisualCapture, spec: SessionSpec, task: string): Promise<Milestone[]> {
  const images = captured.images.flatMap((image, k) => (image ? [{ ...image, at: captured.spec.moments[k] }] : []));
  const paths = images.map((i) => i.path);
  // The kept result says which view was judged.
  waiting = waiting.map((m) => ({ ...m, visual: { ...m.visual!, view: captured.view } }));
  if (captured.error) return waiting.map((m) => erroredMilestone(m, captured.error!, paths));
  const command = spec.judge?.command ?? captured.spec.judge!;
  const request: JudgeRequest = {
    criterion: captured.spec.criterion,
    task,
    milestones: waiting.map((m) => m.id),
    view: captured.view,
    images,
    // The simulation's colours show only in its own view; a page draws in colours of its own.
    colours: captured.view === 'simulation' ? colourTable(capture) : {},
    background: [0, 0, 0],
  };
  const timeout = spec.judge?.timeoutSeconds ?? captured.spec.judgeTimeout ?? DEFAULT_JUDGE_TIMEOUT;
  const outcome = await runJudge(command, request, resolve(spec.judge?.imagesDir ?? defaultImagesDir(spec), `visual${index}-request.json`), timeout);
  return waiting.map((m) => ('verdict' in outcome ? judgedMilestone(m, outcome.verdict, paths) : erroredMilestone(m, outcome.error, paths)));
}

/** Which colours show what: each labelled surface, body and fixture by reference, and each label (all its shades). */
function colourTable(capture: VisualCapture): Record<string, [number, number, number][]> {
  const model = capture.model;
  const table: Record<string, [number, number, number][]> = {};
  for (const label of Object.keys(LABEL_COLOURS) as (keyof typeof LABEL_COLOURS)[]) table[label] = [0, 1, 2, 3, 4].map((k) => objectColour(label, k));
  model.statics.forEach((s, i) => (table[`${s.origin}:${s.id}`] = [objectColour(s.label, i)]));
  model.bodies.forEach((b, i) => (table[`${b.origin}:${b.id}`] = [objectColour(b.label ?? 'prop', i)]));
  return table;
}
