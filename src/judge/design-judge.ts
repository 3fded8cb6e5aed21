/**
 * The design judge: a command that watches a session's video and rates the app on design heuristics no
 * formula can see (how legible its pages are, how consistent, how cluttered: GenXR-Bench asks a VLM). It
 * reads a request (JSON on stdin and in `$XRSIM_DESIGN_REQUEST`: the session, the video, the formula's own
 * ratings) and prints `{ "ratings": [{ "id", "title"?, "rating": 1–5, "reason" }] }` as the last line of its
 * stdout. Its ratings join the formula's in `result.design` (`source: "judge"`), and the score is their mean.
 * A judge that cannot run, or answers anything else, makes the session `errored` (kind `judge`): a design
 * judged by nobody is never passed off as rated.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { meanRating } from '../design/report.js';
import { DESIGN_HEURISTIC_IDS, type DesignRating, type Likert } from '../design/types.js';
import { encodeSessionVideo } from '../export/session-video.js';
import { FFMPEG_INSTALL_HELP, ffmpegPath } from '../export/video.js';
import type { SessionResult } from '../session/result.js';
import { runSession } from '../session/run.js';
import type { SessionSpec } from '../session/spec.js';
import { runCommandLine } from './command.js';

/** Seconds a design judge may take unless told otherwise. */
export const DEFAULT_DESIGN_JUDGE_TIMEOUT = 60;
/** The video a design judge watches: small and at a low rate, as a VLM would be given it. */
export const DESIGN_VIDEO = { width: 320, height: 240, fps: 10 } as const;

/** What a design judge is asked. */
export interface DesignJudgeRequest {
  task: string;
  app: string | null;
  scene: string;
  seed: number;
  hand: string;
  /** The session's video (`.webm`): a browser app's XR layer, else the simulation's view from the head. */
  video: string;
  /** What the video shows: `layer` (what the page drew) or `simulation` (the room, the hands and the bodies; an in-process app's content is not drawn). */
  view: 'layer' | 'simulation';
  /** The formula's ratings, for context; the judge's ids must differ from theirs. */
  formula: DesignRating[];
  /** What to answer. */
  answer: string;
}

/** Where a session's design judging goes unless the spec says: `xrsim-out/design/<task>-seed<N>-<hand>`. */
export function defaultDesignDir(spec: SessionSpec): string {
  const task = typeof spec.task === 'string' ? spec.task : spec.task.id;
  return join('xrsim-out', 'design', `${task.replace(/[^A-Za-z0-9_.-]+/g, '_')}-seed${spec.seed}-${spec.dominantHand ?? 'right'}`);
}

/**
 * The result with the design judge's ratings added. The session's stream (recorded, or recorded now by
 * running the session again, hash checked) is made into a video and handed to the judge.
 */
export async function judgeDesign(result: SessionResult, spec: SessionSpec): Promise<SessionResult> {
  const options = spec.designJudge;
  if (!options || !result.design || result.status === 'errored') return result;
  const dir = resolve(options.dir ?? defaultDesignDir(spec));
  mkdirSync(dir, { recursive: true });
  const fail = (message: string): SessionResult => {
    const { error: _previous, ...rest } = result;
    return { ...rest, status: 'errored', error: { kind: 'judge', message: `design judge: ${message}` } };
  };
  if (!ffmpegPath()) return fail(`no video without ffmpeg. ${FFMPEG_INSTALL_HELP}`);
  let stream = spec.record?.path;
  if (!stream) {
    stream = join(dir, 'session.xrs');
    const again = await runSession({ ...spec, record: { path: stream } });
    if (again.hash !== result.hash) return fail(`the session run again to record its video was not the same session (hash ${again.hash || 'none'}, first run ${result.hash})`);
  }
  const video = join(dir, 'design.webm');
  let view: DesignJudgeRequest['view'];
  try {
    view = (await encodeSessionVideo(stream, { out: video, ...DESIGN_VIDEO })).view;
  } catch (err) {
    return fail(`no video: ${err instanceof Error ? err.message : String(err)}`);
  }
  const request: DesignJudgeRequest = {
    task: result.task,
    app: result.app,
    scene: result.scene,
    seed: result.seed,
    hand: result.hand,
    video,
    view,
    formula: result.design.ratings,
    answer: `the last line of stdout: { "ratings": [{ "id": "a-heuristic", "title": "...", "rating": 1-5, "reason": "..." }] }, ids other than ${DESIGN_HEURISTIC_IDS.join(', ')}`,
  };
  const requestPath = join(dir, 'design-request.json');
  const run = await runCommandLine(options.command, request, { XRSIM_DESIGN_REQUEST: requestPath }, requestPath, options.timeoutSeconds ?? DEFAULT_DESIGN_JUDGE_TIMEOUT, 'design judge');
  if ('error' in run) return fail(run.error);
  const parsed = parseRatings(run.stdout);
  if (typeof parsed === 'string') return fail(`${parsed}: ${options.command}`);
  const ratings = [...result.design.ratings, ...parsed];
  return { ...result, design: { score: meanRating(ratings), ratings } };
}

/** The judge's ratings from the last line of its output, or what is wrong with them. */
export function parseRatings(stdout: string): DesignRating[] | string {
  const expected = 'expected { "ratings": [{ "id", "rating": 1-5, "reason" }] } on the last line of stdout';
  const line = stdout.trim().split('\n').pop()?.trim() ?? '';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `the design judge printed no JSON (${expected})`;
  }
  const ratings = (value as { ratings?: unknown } | null)?.ratings;
  if (!Array.isArray(ratings) || ratings.length === 0) return `the design judge's answer has no ratings (${expected})`;
  const out: DesignRating[] = [];
  for (const [i, r] of ratings.entries()) {
    const item = r as Record<string, unknown> | null;
    const where = `ratings[${i}]`;
    if (!item || typeof item !== 'object') return `${where} is not an object (${expected})`;
    if (typeof item.id !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(item.id)) return `${where}.id must be a lower-case name of letters, digits and dashes`;
    if ((DESIGN_HEURISTIC_IDS as readonly string[]).includes(item.id)) return `${where}.id "${item.id}" is a formula's heuristic: a judge rates what no formula can see`;
    if (out.some((o) => o.id === item.id)) return `${where}.id "${item.id}" is rated twice`;
    if (!Number.isInteger(item.rating) || (item.rating as number) < 1 || (item.rating as number) > 5) return `${where}.rating must be a whole number from 1 to 5, got ${JSON.stringify(item.rating)}`;
    if (typeof item.reason !== 'string') return `${where}.reason must be a string`;
    const title = typeof item.title === 'string' ? item.title.slice(0, 200) : item.id;
    out.push({ id: item.id, title, rating: item.rating as Likert, metric: null, unit: 'judged', ticks: [], note: item.reason.slice(0, 2000), source: 'judge' });
  }
  return out;
}
