/**
 * The loader's checks of milestone requirements (`requires`, scored by `validate/requirements.ts`): each
 * names a milestone of the same task, not itself, and no chain of requirements comes back to where it
 * started. Also of moments that name a milestone (`milestone:<id>`, used by `visual` validators): the
 * milestone exists and is not itself judged on images. Errors name the file and the JSON path of the
 * offending entry.
 */
import { XrsimInputError } from '../errors.js';
import { listNames } from '../json/names.js';
import type { Moment, TaskSpec } from './types.js';

/**
 * A moment that names a milestone: `milestone:<id>` is the earliest of its evidence ticks once it passed,
 * `milestone:<id>:last` the latest. Null for other moments (seconds, event names).
 */
export function milestoneMoment(at: Moment): { id: string; last: boolean } | null {
  if (typeof at !== 'string' || !at.startsWith('milestone:')) return null;
  const rest = at.slice('milestone:'.length);
  return rest.endsWith(':last') ? { id: rest.slice(0, -':last'.length), last: true } : { id: rest, last: false };
}

/**
 * Throws {@link XrsimInputError} for a `visual` moment naming no milestone of the task, or a `visual` one,
 * and for a milestone moment in another formula (which measures at its moment while the session runs).
 */
export function checkMilestoneMoments(task: TaskSpec, file: string): void {
  const visualIds = new Set(task.validators.flatMap((v) => (v.type === 'visual' ? v.milestones.map((m) => m.id) : [])));
  const known = task.validators.flatMap((v) => (v.type === 'visual' ? [] : v.milestones.map((m) => m.id)));
  task.validators.forEach((v, i) => {
    // Other formulas measure at their moment while the session runs: a milestone is known only after it.
    for (const option of ['at', 'from', 'to']) {
      if (v.type !== 'visual' && milestoneMoment(v[option] as Moment)) {
        throw new XrsimInputError(`moment "${String(v[option])}" names a milestone: only visual validators take milestone moments`, { file, jsonPath: `$.validators[${i}].${option}`, expected: 'seconds or an event name' });
      }
    }
    if (v.type !== 'visual' || !Array.isArray(v.moments)) return;
    (v.moments as Moment[]).forEach((at, k) => {
      const named = milestoneMoment(at);
      if (!named || known.includes(named.id)) return;
      const jsonPath = `$.validators[${i}].moments[${k}]`;
      if (visualIds.has(named.id)) throw new XrsimInputError(`moment "${at}" names a visual milestone, which is judged only after the session`, { file, jsonPath, expected: 'a milestone of a non-visual validator' });
      throw new XrsimInputError(`moment "${at}" names no milestone of the task`, { file, jsonPath, expected: `milestone:<id>[:last] with one of: ${listNames(known)}` });
    });
  });
}

/** Throws {@link XrsimInputError} for a requirement that names no milestone of the task, or for a cycle. */
export function checkMilestoneRequirements(task: TaskSpec, file: string): void {
  const paths = new Map<string, string>();
  const edges = new Map<string, string[]>();
  task.validators.forEach((v, i) => v.milestones.forEach((m, j) => paths.set(m.id, `$.validators[${i}].milestones[${j}]`)));
  for (const v of task.validators) {
    for (const m of v.milestones) {
      (m.requires ?? []).forEach((id, k) => {
        const jsonPath = `${paths.get(m.id)}.requires[${k}]`;
        if (id === m.id) throw new XrsimInputError(`milestone "${m.id}" requires itself`, { file, jsonPath, expected: 'another milestone of the task' });
        if (!paths.has(id)) {
          throw new XrsimInputError(`unknown milestone "${id}"`, { file, jsonPath, expected: `one of the task's milestones: ${listNames(paths.keys())}` });
        }
      });
      edges.set(m.id, m.requires ?? []);
    }
  }
  // Depth-first search; a milestone met again while still on the path closes a cycle.
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'open') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      const from = cycle[cycle.length - 2];
      const jsonPath = `${paths.get(from)}.requires[${edges.get(from)!.indexOf(id)}]`;
      throw new XrsimInputError(`milestone requirements form a cycle: ${cycle.map((c) => `"${c}"`).join(' → ')}`, {
        file,
        jsonPath,
        expected: 'requirements that never lead back to the milestone that requires them',
      });
    }
    state.set(id, 'open');
    for (const next of edges.get(id) ?? []) visit(next, [...path, id]);
    state.set(id, 'done');
  };
  for (const id of edges.keys()) visit(id, []);
}

/**
 * Throws {@link XrsimInputError} for a `visual` validator whose `view` cannot be shown: `layer` (what a
 * browser app drew into its XR layer) with `camera: "overview"` (the layer is the user's eyes only), or,
 * once the session's app is known (`browserApp`), `layer` with an app that is not a browser page.
 */
export function checkVisualViews(task: TaskSpec, file: string, browserApp?: boolean): void {
  task.validators.forEach((v, i) => {
    if (v.type !== 'visual' || v.view !== 'layer') return;
    const jsonPath = `$.validators[${i}].view`;
    if (v.camera === 'overview') throw new XrsimInputError('view "layer" is what the user saw, through their eyes: it cannot be seen from camera "overview"', { file, jsonPath, expected: 'view "simulation" with camera "overview", or camera "head"' });
    if (browserApp === false) throw new XrsimInputError('view "layer" judges what a browser app drew into its XR layer, and this session\'s app is not a browser app', { file, jsonPath, expected: 'a browser app ({ "host": "browser" } in the task\'s apps), or view "simulation"' });
  });
}
