/**
 * The loader's checks of milestone requirements (`requires`, scored by `validate/requirements.ts`): each
 * names a milestone of the same task, not itself, and no chain of requirements comes back to where it
 * started. Errors name the file and the JSON path of the offending entry.
 */
import { XrsimInputError } from '../errors.js';
import type { TaskSpec } from './types.js';

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
          throw new XrsimInputError(`unknown milestone "${id}"`, { file, jsonPath, expected: `one of the task's milestones: ${[...paths.keys()].join(', ')}` });
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
