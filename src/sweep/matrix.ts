/**
 * A sweep's matrix: tasks × apps × scenes × seeds × hands, in that nesting order, then the shard. The plan
 * holds only the lists; sessions are generated one at a time, so `--seeds 1..1000000` costs no memory up
 * front.
 */
import { hash as hashOnce } from 'node:crypto';
import { XrsimInputError } from '../errors.js';
import { contentHash } from '../model/canonical.js';
import { listSceneIds } from '../scene/load.js';
import type { Handedness, SessionSpec } from '../session/spec.js';
import { loadTask } from '../task/load.js';
import { expandCandidates, isCandidateChoice, splitAppChoices } from './candidates.js';
import { expectedFailures, type AppEntries } from './expectations.js';
import { isBrowserAppEntry, type AppEntrySpec } from '../task/types.js';
import { matchTasks } from './task-globs.js';

/** Seeds `from..to`, inclusive, without listing them. */
export interface SeedRange {
  from: number;
  to: number;
}

/** What a sweep runs. Every field has an embedded default. */
export interface SweepOptions {
  /** Task ids, globs (`physics/*`, `xr/{palm-menu,poke-button}`, `!xr/late*`) or task files. Default: the whole suite. */
  tasks?: string[];
  /** Seeds, as a list or a range. Default: 1, 2, 3. */
  seeds?: number[] | SeedRange;
  /** Dominant hands. Default: both. */
  hands?: Handedness[];
  /** `default` (each task's own scene list), `all` (every library scene) or scene ids. Default: `default`. */
  scenes?: 'default' | 'all' | string[];
  /**
   * Apps of tasks that have them: `reference` (default), `all`, `process` (in-process apps), `browser`
   * (browser apps), one app's name (tasks without an app of that name are left out), or a comma list of
   * these. Tasks without apps run once under `reference`, `all` or `process`. Candidate apps by path, glob
   * or loopback URL (`./candidates/*\/`, `page.html`, `app.mjs`; `sweep/candidates.ts`) run under every task.
   */
  apps?: 'reference' | 'all' | 'process' | 'browser' | string;
  /** Run only shard `index` (1-based) of `count`: every count-th session of the expanded matrix. */
  shard?: { index: number; count: number };
}

/** The spec of one session of a sweep. */
export type SweepSpec = SessionSpec & { task: string; app?: string; scene: string; dominantHand: Handedness };

/** One session of a sweep and its stable key (the spec's content hash). */
export interface SweepEntry {
  key: string;
  spec: SweepSpec;
}

/**
 * A sweep session's key: the first 16 hex digits of its spec's content hash (`contentHash(spec)`), with
 * the spec's canonical JSON written directly (keys in sorted order) instead of by the general encoder: a
 * sweep computes every key twice (the matrix hash, then the sessions). The one-shot `crypto.hash` gives the
 * same digest as `createHash` at about a third of the cost (no hash object per key).
 */
export function sessionKey(spec: SweepSpec): string {
  const { task, app, scene, seed, dominantHand } = spec;
  if (!Number.isFinite(seed) || Object.keys(spec).length !== (app === undefined ? 4 : 5)) return contentHash(spec).slice(0, 16);
  const canonical = `{${app === undefined ? '' : `"app":${JSON.stringify(app)},`}"dominantHand":${JSON.stringify(dominantHand)},"scene":${JSON.stringify(scene)},"seed":${JSON.stringify(seed)},"task":${JSON.stringify(task)}}`;
  return hashOnce('sha256', canonical, 'hex').slice(0, 16);
}

/** One task's share of the matrix. */
interface TaskPlan {
  /** What a spec names: a suite id, or a task file's path. */
  task: string;
  /** The task's own id (results carry it). */
  id: string;
  apps: (string | null)[];
  scenes: string[];
  /** The task's app entries, for what each app is expected to fail. */
  entries: AppEntries;
}

/** The matrix, as lists: its size is known and its sessions are generated on demand. */
export class MatrixPlan {
  /** Sessions in the matrix (after the shard). */
  readonly size: number;
  private readonly unsharded: number;
  /** The task plans by the id results carry (the first of a duplicated id), made when first asked. */
  private byId: Map<string, TaskPlan> | undefined;

  constructor(
    private readonly tasks: readonly TaskPlan[],
    private readonly seeds: SeedRange | readonly number[],
    private readonly hands: readonly Handedness[],
    private readonly shard: { index: number; count: number } | undefined,
  ) {
    const perTask = seedCount(seeds) * hands.length;
    this.unsharded = tasks.reduce((sum, t) => sum + t.apps.length * t.scenes.length * perTask, 0);
    this.size = shard ? Math.max(0, Math.ceil((this.unsharded - (shard.index - 1)) / shard.count)) : this.unsharded;
  }

  /** The tasks' ids, in matrix order. */
  get taskIds(): string[] {
    return this.tasks.map((t) => t.id);
  }

  /** The milestones a session's app is expected to fail (`sweep/expectations.ts`), by the task id results carry. */
  expectedFailures(result: { task: string; app: string | null; hand: Handedness }): readonly string[] {
    if (!this.byId) {
      this.byId = new Map();
      for (const t of this.tasks) if (!this.byId.has(t.id)) this.byId.set(t.id, t);
    }
    return expectedFailures(this.byId.get(result.task)?.entries, result.app, result.hand);
  }

  /** The sessions, in matrix order, one at a time. */
  *entries(): Generator<SweepEntry> {
    const count = seedCount(this.seeds);
    const shard = this.shard;
    let position = 0;
    for (const { task, apps, scenes } of this.tasks) {
      for (const app of apps) {
        for (const scene of scenes) {
          for (let s = 0; s < count; s++) {
            const seed = seedAt(this.seeds, s);
            for (const dominantHand of this.hands) {
              const mine = !shard || position % shard.count === shard.index - 1;
              position++;
              if (!mine) continue;
              const spec: SweepSpec = { task, ...(app ? { app } : {}), scene, seed, dominantHand };
              yield { key: sessionKey(spec), spec };
            }
          }
        }
      }
    }
  }

  /**
   * The matrix's identity, as a content hash of what decides its keys in order: the tasks (as specs name
   * them) with their apps and scenes, the seeds as runs of consecutive ones, the hands and the shard. Two
   * plans with the same hash have the same sessions in the same order, and it costs the same for a
   * trillion seeds as for one: a sweep starts at once whatever its size.
   */
  hash(): string {
    return contentHash({
      format: 'xrsim-matrix',
      tasks: this.tasks.map(({ task, apps, scenes }) => ({ task, apps, scenes })),
      seeds: seedRuns(this.seeds),
      hands: this.hands,
      shard: this.shard ?? null,
    });
  }
}

/** Resolves the options into a plan. Bad input (unknown tasks, scenes or apps) throws before anything runs. */
export function planMatrix(options: SweepOptions = {}): MatrixPlan {
  const tasks = matchTasks(options.tasks);
  const seeds = options.seeds ?? [1, 2, 3];
  checkSeeds(seeds);
  // A seed listed twice would be the same session twice.
  const uniqueSeeds = Array.isArray(seeds) ? [...new Set(seeds as number[])] : seeds;
  const hands = options.hands ?? ['right', 'left'];
  const library = listSceneIds();
  if (Array.isArray(options.scenes)) {
    for (const scene of options.scenes) {
      if (!library.includes(scene)) {
        throw new XrsimInputError(`unknown scene "${scene}". Known scenes: ${library.join(', ')}`, { expected: 'scene ids, "default" or "all"' });
      }
    }
  }
  const appChoice = options.apps ?? 'reference';
  const choices = splitAppChoices(appChoice);
  const candidates = [...new Set(choices.filter(isCandidateChoice).flatMap((c) => expandCandidates(c)))];
  const named = choices.filter((c) => !isCandidateChoice(c)).join(',');
  const plans: TaskPlan[] = [];
  for (const task of tasks) {
    const spec = loadTask(task).spec;
    const scenes = options.scenes === 'all' ? library : Array.isArray(options.scenes) ? options.scenes : (spec.scenes ?? [spec.scene]);
    const apps = [...(named ? appsOf(spec.apps, named) : []), ...candidates];
    if (apps.length > 0) plans.push({ task, id: spec.id, apps, scenes, entries: spec.apps });
  }
  if (plans.length === 0) throw new XrsimInputError(`no task has an app named "${appChoice}"`, { expected: '--apps reference, all, process, browser, the name of an app some task has (see xrsim list tasks), or a comma list' });
  return new MatrixPlan(plans, uniqueSeeds, [...new Set(hands)], options.shard);
}

/** The whole matrix as a list (for small matrices: studies and benchmarks). */
export function expandMatrix(options: SweepOptions = {}): SweepEntry[] {
  return [...planMatrix(options).entries()];
}

/** Seeds as `[from, to]` runs of consecutive seeds, in order: `1..3` and `[1, 2, 3]` give the same runs. */
function seedRuns(seeds: SeedRange | readonly number[]): [number, number][] {
  if (!Array.isArray(seeds)) return [[(seeds as SeedRange).from, (seeds as SeedRange).to]];
  const runs: [number, number][] = [];
  for (const seed of seeds as readonly number[]) {
    const last = runs[runs.length - 1];
    if (last && seed === last[1] + 1) last[1] = seed;
    else runs.push([seed, seed]);
  }
  return runs;
}

function seedCount(seeds: SeedRange | readonly number[]): number {
  return Array.isArray(seeds) ? seeds.length : (seeds as SeedRange).to - (seeds as SeedRange).from + 1;
}

function seedAt(seeds: SeedRange | readonly number[], i: number): number {
  return Array.isArray(seeds) ? seeds[i] : (seeds as SeedRange).from + i;
}

function checkSeeds(seeds: SeedRange | readonly number[]): void {
  const ok = (s: unknown) => typeof s === 'number' && Number.isSafeInteger(s) && s >= 0;
  if (Array.isArray(seeds)) {
    if (seeds.length === 0 || !seeds.every(ok)) throw new XrsimInputError(`seeds must be non-negative integers, got ${JSON.stringify(seeds.slice(0, 5))}`, { expected: 'a non-empty list of integers' });
    return;
  }
  const { from, to } = seeds as SeedRange;
  if (!ok(from) || !ok(to) || from > to) throw new XrsimInputError(`a seed range must run from one non-negative integer to a larger one, got ${from}..${to}`, { expected: 'A..B with A ≤ B' });
}

/** Parses `--shard K/N` (1 ≤ K ≤ N). */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!(index >= 1 && count >= 1 && index <= count)) throw new XrsimInputError(`--shard must be K/N with 1 ≤ K ≤ N, got "${text}"`, { expected: 'such as 1/4' });
  return { index, count };
}

/** Parses `1..N`, `A..B` (a range, never listed) or a comma list into seeds. */
export function parseSeeds(text: string): number[] | SeedRange {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (!Number.isSafeInteger(to)) throw new XrsimInputError(`--seeds ${text}: seeds must be below 2^53`, { expected: 'A..B of safe integers' });
    if (from > to) throw new XrsimInputError(`--seeds ${text}: the range is empty (${from} > ${to})`, { expected: 'A..B with A ≤ B, such as 1..3' });
    return { from, to };
  }
  const list = text.split(',');
  if (list.every((s) => /^\d+$/.test(s) && Number.isSafeInteger(Number(s)))) return [...new Set(list.map(Number))];
  throw new XrsimInputError(`--seeds must be a range such as 1..3 or a list such as 1,5,9, got "${text}"`, { expected: 'A..B or a comma-separated list of non-negative integers' });
}

/** Parses `--hands both|right|left`. */
export function parseHands(text: string | undefined): Handedness[] {
  if (text === undefined || text === 'both') return ['right', 'left'];
  if (text === 'right' || text === 'left') return [text];
  throw new XrsimInputError(`--hands must be both, right or left, got "${text}"`, { expected: 'both, right or left' });
}

/** Parses `--scenes default|all|LIST`. */
export function parseScenes(text: string | undefined): SweepOptions['scenes'] {
  return text === undefined || text === 'default' ? 'default' : text === 'all' ? 'all' : text.split(',');
}

/**
 * The apps a task runs under an `--apps` choice: `reference`, `all`, `process` (every in-process app),
 * `browser` (every browser app), an app's name, or a comma list of these (`reference,web-reference`: the
 * reference apps of both hosts). A task without apps runs once (null) under `reference`, `all` or `process`.
 */
function appsOf(apps: Record<string, AppEntrySpec> | undefined, choice: string): (string | null)[] {
  const choices = choice.split(',').map((c) => c.trim()).filter(Boolean);
  if (!apps) return choices.some((c) => c === 'reference' || c === 'all' || c === 'process') ? [null] : [];
  return Object.keys(apps).filter((name) => {
    const browser = isBrowserAppEntry(apps[name]);
    return choices.includes(name) || choices.includes('all') || choices.includes(browser ? 'browser' : 'process');
  });
}
