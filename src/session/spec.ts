/**
 * `SessionSpec`: plain JSON that says what to run. It crosses worker, process and machine boundaries.
 */
import { XrsimInputError } from '../errors.js';
import type { SceneSpec } from '../scene/types.js';
import type { StreamEncoding } from '../stream/format.js';
import type { TaskSpec } from '../task/types.js';
import type { Handedness } from '../hand/side.js';
import type { UserOptions } from '../task/user-options.js';
import type { SensingOptions } from '../task/sensing-options.js';
import type { HandModelSpec } from '../hand/hand-model.js';

export type { Handedness } from '../hand/side.js';

/** Where and how to record the frame stream. */
export interface RecordOptions {
  /** Output `.xrs` path. */
  path: string;
  /** `lossless` (default) or `quantised`. */
  encoding?: StreamEncoding;
  /** Frames per chunk, at least 90 (default 90). */
  chunkFrames?: number;
  /** zlib level 1–9 (default 6). */
  compressionLevel?: number;
  /** Replace whatever file is at `path` (`--force`). Without it, only an existing stream or an empty file is replaced. */
  replace?: boolean;
}

/** What to run. */
export interface SessionSpec {
  /** A task id from the suite (`physics/stack-settle`), a path to a task file, or an inline task. */
  task: string | TaskSpec;
  /** A scene id, a path, or an inline scene. Default: the task's own scene. */
  scene?: string | SceneSpec;
  /** The session seed: a non-negative integer. Every random stream derives from it. */
  seed: number;
  /** Re-draws the perturbation streams (tremor, jitter, noise, actor timing) and nothing else (flakiness studies). */
  perturbationSeed?: number;
  /** Default `right`. */
  dominantHand?: Handedness;
  /** Physics steps per tick, overriding the task. */
  substeps?: number;
  /** Simulated seconds, overriding the task. */
  duration?: number;
  /** Hand model: `small`, `medium` (default) or `large`, a path to a hand-model file, or an inline model. */
  handModel?: string | HandModelSpec;
  /** User options (posture, inputs, tracking, contact, perturbation), overriding the task's `user`. */
  user?: UserOptions;
  /** Sensing (depth camera, plane detection), overriding the task's `sensing` field by field. */
  sensing?: SensingOptions;
  /** The app under test: a name from the task's `apps` (default `reference` when it lists apps) or a module path. */
  app?: string;
  /**
   * A browser app's way in: the CSS selector of the element the simulated user clicks to enter XR
   * (overrides the app entry's `start`; default: found, docs/BROWSER.md "Entering XR"). An error for an app
   * that runs in process.
   */
  start?: string;
  /** Record a frame stream. */
  record?: RecordOptions;
  /**
   * Judging `visual` milestones (scoring, outside the simulation: it never changes a frame or a hash).
   * Used by the session workers (`xrsim run`, `sweep`) and `runJudgedSession`; plain `runSession` ignores it.
   */
  judge?: JudgeOptions;
  /**
   * A design judge: a command that watches the session's video and rates the app on design heuristics no
   * formula can see; its ratings join `result.design` (docs/TASKS.md, "Design score"). Session workers and
   * `runJudgedSession` only, as `judge`.
   */
  designJudge?: DesignJudgeOptions;
  /**
   * Who answers the actor script's `a.agent` steps, overriding the task's `agent`: `reference` (xrsim's
   * reference agent), `replay:STREAM` (the decisions recorded in a stream) or a command line (docs/TASKS.md,
   * "Agent actors"). Agent answers are recorded in the stream, so `verify` and `replay` never ask again.
   */
  agent?: string;
  /** Where an agent command's requests and point-of-view images go (default `xrsim-out/agent/<session>/`). */
  agentDir?: string;
  /**
   * A browser app's ticks per round trip at most (default 32; 1: one per round trip). Speed only: results are
   * bit-identical whatever it is (the session batches only ticks that cannot depend on the page's answers).
   */
  browserBatch?: number;
  /**
   * A browser app's round trips outstanding at most (default 2; 1: the session waits for each answer before
   * stepping on). Speed only, like `browserBatch`.
   */
  browserInFlight?: number;
}

/** How `visual` milestones are judged. */
export interface JudgeOptions {
  /** The judge command (a shell command line); overrides the task's `judge`. */
  command?: string;
  /** Where the rendered images go (created when needed). */
  imagesDir?: string;
  /** Seconds a judge may take (default: the validator's `judgeTimeout`, else 60). */
  timeoutSeconds?: number;
}

/** How the design judge runs. */
export interface DesignJudgeOptions {
  /** The design judge command (a shell command line). */
  command: string;
  /** Where the session's video, its stream (when the spec records none) and the request go (created when needed). */
  dir?: string;
  /** Seconds the judge may take (default 60). */
  timeoutSeconds?: number;
}

const SPEC_FILE = '<session spec>';
const KNOWN_KEYS = new Set(['task', 'scene', 'seed', 'dominantHand', 'substeps', 'duration', 'handModel', 'user', 'sensing', 'app', 'start', 'perturbationSeed', 'record', 'judge', 'designJudge', 'browserBatch', 'browserInFlight', 'agent', 'agentDir']);

/** Checks a spec's shape and fills defaults. Throws {@link XrsimInputError} naming the offending field. */
export function normalizeSpec(input: unknown): Required<Pick<SessionSpec, 'task' | 'seed' | 'dominantHand'>> & SessionSpec {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new XrsimInputError('a session spec must be an object', { file: SPEC_FILE, jsonPath: '$', expected: 'an object' });
  }
  const spec = input as Record<string, unknown>;
  for (const key of Object.keys(spec)) {
    if (!KNOWN_KEYS.has(key)) {
      throw new XrsimInputError(`unknown property "${key}"`, { file: SPEC_FILE, jsonPath: `$.${key}`, expected: [...KNOWN_KEYS].join(', ') });
    }
  }
  const fail = (key: string, message: string, expected: string): never => {
    throw new XrsimInputError(message, { file: SPEC_FILE, jsonPath: `$.${key}`, expected });
  };
  if (typeof spec.task !== 'string' && (typeof spec.task !== 'object' || spec.task === null)) {
    fail('task', 'missing or invalid task', 'a task id, a path or a task object');
  }
  if (spec.scene !== undefined && typeof spec.scene !== 'string' && (typeof spec.scene !== 'object' || spec.scene === null)) {
    fail('scene', 'invalid scene', 'a scene id, a path or a scene object');
  }
  if (!isSeed(spec.seed)) fail('seed', `seed must be a non-negative integer, got ${JSON.stringify(spec.seed)}`, 'an integer from 0 to 2^53 - 1');
  if (spec.perturbationSeed !== undefined && !isSeed(spec.perturbationSeed)) fail('perturbationSeed', `perturbationSeed must be a non-negative integer, got ${JSON.stringify(spec.perturbationSeed)}`, 'an integer from 0 to 2^53 - 1');
  const hand = spec.dominantHand ?? 'right';
  if (hand !== 'right' && hand !== 'left') fail('dominantHand', `unknown hand ${JSON.stringify(hand)}`, '"right" or "left"');
  if (spec.substeps !== undefined && !(Number.isInteger(spec.substeps) && (spec.substeps as number) >= 1 && (spec.substeps as number) <= 64)) {
    fail('substeps', `substeps must be an integer from 1 to 64, got ${JSON.stringify(spec.substeps)}`, 'an integer 1..64');
  }
  if (spec.duration !== undefined && !(typeof spec.duration === 'number' && spec.duration > 0 && spec.duration <= 86400)) {
    fail('duration', `duration must be a positive number of seconds, got ${JSON.stringify(spec.duration)}`, 'seconds in (0, 86400]');
  }
  if (spec.handModel !== undefined && typeof spec.handModel !== 'string' && (typeof spec.handModel !== 'object' || spec.handModel === null)) {
    fail('handModel', 'invalid hand model', 'small, medium, large, a path or a hand-model object');
  }
  if (spec.user !== undefined && (typeof spec.user !== 'object' || spec.user === null || Array.isArray(spec.user))) {
    fail('user', 'invalid user options', 'an object (see the task schema\'s user section)');
  }
  if (spec.sensing !== undefined && (typeof spec.sensing !== 'object' || spec.sensing === null || Array.isArray(spec.sensing))) {
    fail('sensing', 'invalid sensing options', 'an object (see the task schema\'s sensing section)');
  }
  if (spec.app !== undefined && (typeof spec.app !== 'string' || spec.app === '')) fail('app', 'invalid app', 'an app name from the task or a path to an app module');
  if (spec.start !== undefined && (typeof spec.start !== 'string' || spec.start.trim() === '')) fail('start', 'invalid start selector', "a CSS selector of the page's element that enters XR");
  if (spec.record !== undefined) checkRecord(spec.record, fail);
  if (spec.judge !== undefined) checkJudge(spec.judge, fail);
  if (spec.designJudge !== undefined) checkDesignJudge(spec.designJudge, fail);
  if (spec.agent !== undefined && (typeof spec.agent !== 'string' || spec.agent.trim() === '')) fail('agent', 'invalid agent', 'reference, replay:STREAM or a command line');
  if (spec.agentDir !== undefined && (typeof spec.agentDir !== 'string' || spec.agentDir === '')) fail('agentDir', 'invalid agent folder', 'a folder path');
  if (spec.browserBatch !== undefined && !(Number.isInteger(spec.browserBatch) && (spec.browserBatch as number) >= 1 && (spec.browserBatch as number) <= 1024)) {
    fail('browserBatch', `browserBatch must be an integer from 1 to 1024, got ${JSON.stringify(spec.browserBatch)}`, 'an integer 1..1024');
  }
  if (spec.browserInFlight !== undefined && !(Number.isInteger(spec.browserInFlight) && (spec.browserInFlight as number) >= 1 && (spec.browserInFlight as number) <= 8)) {
    fail('browserInFlight', `browserInFlight must be an integer from 1 to 8, got ${JSON.stringify(spec.browserInFlight)}`, 'an integer 1..8');
  }
  return { ...(spec as unknown as SessionSpec), dominantHand: hand as Handedness };
}

/** True for a safe, non-negative integer. */
export function isSeed(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function checkRecord(record: unknown, fail: (key: string, message: string, expected: string) => never): void {
  if (!record || typeof record !== 'object') fail('record', 'invalid record options', 'an object with a path');
  const r = record as Record<string, unknown>;
  if (typeof r.path !== 'string' || r.path === '') fail('record.path', 'missing output path', 'a file path');
  if (r.encoding !== undefined && r.encoding !== 'lossless' && r.encoding !== 'quantised') {
    fail('record.encoding', `unknown encoding ${JSON.stringify(r.encoding)}`, '"lossless" or "quantised"');
  }
  if (r.chunkFrames !== undefined && !(Number.isInteger(r.chunkFrames) && (r.chunkFrames as number) >= 90 && (r.chunkFrames as number) <= 100000)) {
    fail('record.chunkFrames', `chunkFrames must be an integer of at least 90, got ${JSON.stringify(r.chunkFrames)}`, 'an integer 90..100000');
  }
  if (r.compressionLevel !== undefined && !(Number.isInteger(r.compressionLevel) && (r.compressionLevel as number) >= 1 && (r.compressionLevel as number) <= 9)) {
    fail('record.compressionLevel', `compressionLevel must be 1–9, got ${JSON.stringify(r.compressionLevel)}`, 'an integer 1..9');
  }
  if (r.replace !== undefined && typeof r.replace !== 'boolean') fail('record.replace', `replace must be true or false, got ${JSON.stringify(r.replace)}`, 'a boolean');
}

function checkDesignJudge(judge: unknown, fail: (key: string, message: string, expected: string) => never): void {
  const j = judge as Record<string, unknown>;
  if (!judge || typeof judge !== 'object' || Array.isArray(judge)) fail('designJudge', 'invalid design judge options', 'an object { command, dir?, timeoutSeconds? }');
  if (typeof j.command !== 'string' || j.command.trim() === '') fail('designJudge.command', 'invalid design judge command', 'a non-empty command line');
  if (j.dir !== undefined && (typeof j.dir !== 'string' || j.dir === '')) fail('designJudge.dir', 'invalid folder', 'a folder path');
  if (j.timeoutSeconds !== undefined && !(typeof j.timeoutSeconds === 'number' && j.timeoutSeconds > 0 && j.timeoutSeconds <= 3600)) {
    fail('designJudge.timeoutSeconds', `timeoutSeconds must be in (0, 3600], got ${JSON.stringify(j.timeoutSeconds)}`, 'seconds, more than 0 and at most 3600');
  }
}

function checkJudge(judge: unknown, fail: (key: string, message: string, expected: string) => never): void {
  if (!judge || typeof judge !== 'object' || Array.isArray(judge)) fail('judge', 'invalid judge options', 'an object { command?, imagesDir?, timeoutSeconds? }');
  const j = judge as Record<string, unknown>;
  if (j.command !== undefined && (typeof j.command !== 'string' || j.command.trim() === '')) fail('judge.command', 'invalid judge command', 'a non-empty command line');
  if (j.imagesDir !== undefined && (typeof j.imagesDir !== 'string' || j.imagesDir === '')) fail('judge.imagesDir', 'invalid images folder', 'a folder path');
  if (j.timeoutSeconds !== undefined && !(typeof j.timeoutSeconds === 'number' && j.timeoutSeconds > 0 && j.timeoutSeconds <= 3600)) {
    fail('judge.timeoutSeconds', `timeoutSeconds must be in (0, 3600], got ${JSON.stringify(j.timeoutSeconds)}`, 'seconds, more than 0 and at most 3600');
  }
}
