/**
 * Expanding a sweep's options into session specs, in a deterministic order.
 */
import { XrsimInputError } from '../errors.js';
import { contentHash } from '../model/canonical.js';
import { listSceneIds } from '../scene/load.js';
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
}

/** One session of a sweep and its stable key (the spec's content hash). */
export interface SweepEntry {
  key: string;
  spec: SessionSpec & { task: string; scene: string; dominantHand: Handedness };
}

/** The expanded matrix: tasks × scenes × seeds × hands, in that nesting order. */
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
  const entries: SweepEntry[] = [];
  for (const task of tasks) {
    const spec = loadTask(task).spec;
    const scenes = options.scenes === 'all' ? library : Array.isArray(options.scenes) ? options.scenes : (spec.scenes ?? [spec.scene]);
    for (const scene of scenes) {
      for (const seed of seeds) {
        for (const dominantHand of hands) {
          const session = { task, scene, seed, dominantHand };
          entries.push({ key: contentHash(session).slice(0, 16), spec: session });
        }
      }
    }
  }
  return entries;
}

/** Suite task ids matching the globs, in sorted order; every glob must match something. */
export function matchTasks(globs: string[] | undefined): string[] {
  const known = listTaskIds();
  if (!globs || globs.length === 0) return known;
  const matched = new Set<string>();
  for (const glob of globs) {
    const pattern = new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}$`);
    const hits = known.filter((id) => pattern.test(id));
    if (hits.length === 0) throw new XrsimInputError(`no task matches "${glob}". Known tasks: ${known.join(', ')}`, { expected: 'a task id or glob such as physics/*' });
    hits.forEach((id) => matched.add(id));
  }
  return known.filter((id) => matched.has(id));
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
