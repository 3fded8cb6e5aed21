/**
 * Expanding a sweep's options into session specs, in a deterministic order.
 */
import { XrsimInputError } from '../errors.js';
import { contentHash } from '../model/canonical.js';
import { resolve } from 'node:path';
import { listSceneIds, looksLikePath } from '../scene/load.js';
import type { Handedness, SessionSpec } from '../session/spec.js';
import { listTaskIds, loadTask } from '../task/load.js';

/** What a sweep runs. Every field has an embedded default. */
export interface SweepOptions {
  /** Task ids or globs (`physics/*`). Default: the whole suite. */
  tasks?: string[];
  /** Seeds. Default: 1, 2, 3. */
  seeds?: number[];
  /** Dominant hands. Default: both. */
  hands?: Handedness[];
  /** `default` (each task's own scene list), `all` (every library scene) or scene ids. Default: `default`. */
  scenes?: 'default' | 'all' | string[];
  /**
   * Apps of tasks that have them: `reference` (default), `all`, or one app's name (tasks without an app of
   * that name are left out). Tasks without apps always run, once, except under a single app name.
   */
  apps?: 'reference' | 'all' | string;
  /** Run only shard `index` (1-based) of `count`: every count-th session of the expanded matrix. */
  shard?: { index: number; count: number };
}

/** One session of a sweep and its stable key (the spec's content hash). */
export interface SweepEntry {
  key: string;
  spec: SessionSpec & { task: string; app?: string; scene: string; dominantHand: Handedness };
}

/**
 * The expanded matrix: tasks × apps × scenes × seeds × hands, in that nesting order; then the shard, if
 * any. Any `count` shards together hold every session exactly once.
 */
export function expandMatrix(options: SweepOptions = {}): SweepEntry[] {
  const tasks = matchTasks(options.tasks);
  const seeds = options.seeds ?? [1, 2, 3];
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
  const entries: SweepEntry[] = [];
  for (const task of tasks) {
    const spec = loadTask(task).spec;
    const scenes = options.scenes === 'all' ? library : Array.isArray(options.scenes) ? options.scenes : (spec.scenes ?? [spec.scene]);
    const appNames = !spec.apps ? (appChoice === 'reference' || appChoice === 'all' ? [null] : []) : appChoice === 'all' ? Object.keys(spec.apps) : spec.apps[appChoice] ? [appChoice] : [];
    for (const app of appNames) {
      for (const scene of scenes) {
        for (const seed of seeds) {
          for (const dominantHand of hands) {
            const session = { task, ...(app ? { app } : {}), scene, seed, dominantHand };
            entries.push({ key: contentHash(session).slice(0, 16), spec: session });
          }
        }
      }
    }
  }
  if (entries.length === 0) throw new XrsimInputError(`no task has an app named "${appChoice}"`, { expected: '--apps reference, all, or the name of an app some task has (see xrsim list tasks)' });
  if (!options.shard) return entries;
  const { index, count } = options.shard;
  return entries.filter((_, i) => i % count === index - 1);
}

/** Parses `--shard K/N` (1 ≤ K ≤ N). */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!(index >= 1 && count >= 1 && index <= count)) throw new XrsimInputError(`--shard must be K/N with 1 ≤ K ≤ N, got "${text}"`, { expected: 'such as 1/4' });
  return { index, count };
}

/**
 * Suite task ids matching the globs, in sorted order, then task files given by path (`./my-task.json`), in
 * the order given. Every glob must match something.
 */
export function matchTasks(globs: string[] | undefined): string[] {
  const known = listTaskIds();
  if (!globs || globs.length === 0) return known;
  const matched = new Set<string>();
  const files: string[] = [];
  for (const glob of globs) {
    if (looksLikePath(glob)) {
      loadTask(glob); // bad input names the file now, before anything runs
      files.push(resolve(glob));
      continue;
    }
    const pattern = new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}$`);
    const hits = known.filter((id) => pattern.test(id));
    if (hits.length === 0) throw new XrsimInputError(`no task matches "${glob}". Known tasks: ${known.join(', ')}`, { expected: 'a task id or glob such as physics/*' });
    hits.forEach((id) => matched.add(id));
  }
  return [...known.filter((id) => matched.has(id)), ...files];
}

/** Parses `1..N`, `A..B` or a comma list into seeds. */
export function parseSeeds(text: string): number[] {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (from > to) throw new XrsimInputError(`--seeds ${text}: the range is empty (${from} > ${to})`, { expected: 'A..B with A ≤ B, such as 1..3' });
    if (to - from >= 100000) throw new XrsimInputError(`--seeds ${text}: more than 100000 seeds`, { expected: 'a smaller range' });
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
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
