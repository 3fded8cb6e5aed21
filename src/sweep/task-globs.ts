/**
 * Choosing tasks by id, glob or file. Globs are matched by picomatch against suite task ids: `*` within a
 * path segment, `**` across segments, `?`, classes (`[a-c]`), braces (`{palm-menu,poke-button}`), and a
 * leading `!` to leave tasks out (`'xr/*' '!xr/late*'`).
 */
import { resolve } from 'node:path';
import picomatch from 'picomatch';
import { XrsimInputError } from '../errors.js';
import { looksLikePath } from '../scene/load.js';
import { listTaskIds, loadTask } from '../task/load.js';

/**
 * Suite task ids matching the globs, in sorted order, then task files given by path (`./my-task.json`), in
 * the order given. Every glob that selects (not a `!` one) must match something. With only `!` globs, they
 * leave tasks out of the whole suite. No globs: the whole suite.
 */
export function matchTasks(globs: string[] | undefined): string[] {
  const known = listTaskIds();
  if (!globs || globs.length === 0) return known;
  const files: string[] = [];
  const selectors: ((id: string) => boolean)[] = [];
  const exclusions: ((id: string) => boolean)[] = [];
  for (const glob of globs) {
    if (glob.startsWith('!')) {
      exclusions.push(matcher(glob.slice(1)));
      continue;
    }
    if (looksLikePath(glob)) {
      loadTask(glob); // bad input names the file now, before anything runs
      if (!files.includes(resolve(glob))) files.push(resolve(glob));
      continue;
    }
    const matches = matcher(glob);
    if (!known.some(matches)) throw new XrsimInputError(`no task matches "${glob}". Known tasks: ${known.join(', ')}`, { expected: 'a task id or glob such as physics/* or xr/{palm-menu,poke-button}' });
    selectors.push(matches);
  }
  const selected = selectors.length > 0 || files.length > 0 ? known.filter((id) => selectors.some((m) => m(id))) : known;
  return [...selected.filter((id) => !exclusions.some((m) => m(id))), ...files];
}

function matcher(glob: string): (id: string) => boolean {
  if (glob === '') throw new XrsimInputError('an empty task glob', { expected: 'a task id or glob such as physics/*' });
  const matches = picomatch(glob, { dot: true });
  return (id) => matches(id); // one argument: a second one asks picomatch for a (truthy) result object

}
