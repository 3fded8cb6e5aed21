/**
 * A worker's task roots: the only folders whose files a job may name. A job's payload is data from whoever
 * can write to the queue, and a session runs the programs its task names, so before anything is read the
 * worker checks every file a spec would load: the task file, its actor script and app modules, the scene
 * and the hand model (ids of the shipped suite resolve inside the package and pass). Output paths are
 * never taken from a job (`readSessionJob` refuses `record`).
 *
 * The roots are always the package's own `tasks/`, `scenes/` and `hand-models/`, plus each `--task-root`.
 * The working directory is not a root unless named. Paths are compared after resolving symbolic links, so a
 * link inside a root that points outside it is outside. A refusal names the offending path as the job gave
 * it and what kind of file it was; it never reads, and so never echoes, a file outside the roots.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { programPaths, type ProgramPaths } from '../task/programs.js';
import { XrsimInputError } from '../errors.js';
import { HAND_MODELS_DIR, SCENES_DIR, TASKS_DIR } from '../paths.js';
import { looksLikePath } from '../scene/load.js';
import type { SessionSpec } from '../session/spec.js';
import { loadTask, type LoadedTask } from '../task/load.js';
import type { TaskSpec } from '../task/types.js';

/** The folders a worker runs files from. */
export class TaskRoots {
  private constructor(readonly dirs: readonly string[]) {}

  /**
   * The package's folders plus `extra` (each must be an existing folder; bad input otherwise). Relative
   * folders are resolved against the working directory now, once.
   */
  static create(extra: readonly string[] = []): TaskRoots {
    const dirs = [TASKS_DIR, SCENES_DIR, HAND_MODELS_DIR].map((dir) => realpathSync(dir));
    for (const dir of extra) {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new XrsimInputError(`--task-root ${dir} is not a folder`, { expected: 'an existing folder holding task files, apps, scenes or hand models' });
      const real = realpathSync(resolve(dir));
      if (!dirs.includes(real)) dirs.push(real);
    }
    return new TaskRoots(dirs);
  }

  /** True when `path` (resolved against the working directory, links followed) exists inside a root. */
  contains(path: string): boolean {
    let real: string;
    try {
      real = realpathSync(resolve(path));
    } catch {
      return false;
    }
    return this.dirs.some((dir) => {
      const rel = relative(dir, real);
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    });
  }

  /**
   * Why a worker refuses `spec`, or null when every file it names lies inside the roots. Reads only the task
   * file (inside the roots) to find the programs and scene it names. Bad input found on the way (a task
   * file that is not a task) is left for the session to report.
   */
  refusal(spec: SessionSpec): string | null {
    const outside = (what: string, ref: string) => `the worker refuses this job: its ${what} ${JSON.stringify(ref)} is outside the worker's task roots (${this.dirs.join(', ')}) or does not exist; add its folder with xrsim worker --task-root DIR`;
    let task: TaskFacts | null = null;
    if (typeof spec.task === 'string') {
      if (looksLikePath(spec.task)) {
        const file = existsSync(spec.task) && statSync(spec.task).isDirectory() ? join(spec.task, 'task.json') : spec.task;
        if (!this.contains(file)) return outside('task file', spec.task);
        task = this.facts.get(spec.task, resolve(file), spec.app);
      } else {
        task = this.facts.get(spec.task, join(TASKS_DIR, ...spec.task.split('/'), 'task.json'), spec.app);
      }
    } else if (typeof spec.task === 'object' && spec.task !== null) {
      task = factsOf(spec.task, spec.app);
    }
    if (task) {
      if (task.actors && !this.contains(task.actors)) return outside('actor script', task.actors);
      if (task.app && !this.contains(task.app)) return outside('app module', task.app);
    } else if (spec.app !== undefined && /\.(mjs|js)$/.test(spec.app) && !this.contains(spec.app)) {
      return outside('app module', spec.app);
    }
    const scene = spec.scene ?? task?.scene;
    if (typeof scene === 'string' && looksLikePath(scene) && !this.contains(scene)) return outside('scene file', scene);
    if (typeof spec.handModel === 'string' && looksLikePath(spec.handModel) && !this.contains(spec.handModel)) return outside('hand-model file', spec.handModel);
    return null;
  }

  /** What task files name, cached (reading and validating a task costs about a millisecond, a job's worth of overhead). */
  private readonly facts = new TaskFactsCache();
}

/** What a task names that a worker must check: its programs' paths (for one app) and its default scene. */
interface TaskFacts {
  actors?: string;
  app?: string;
  scene: string;
}

/** The facts of a task, or null when it cannot be loaded (the session then reports why, as bad input). */
function factsOf(ref: string | TaskSpec, app: string | undefined): TaskFacts | null {
  let task: LoadedTask;
  try {
    task = loadTask(ref);
  } catch {
    return null;
  }
  let programs: ProgramPaths = {};
  try {
    programs = programPaths(task.spec, task.file, app);
  } catch {
    // an unknown app name: the session reports it
  }
  return { actors: programs.actors?.path, app: programs.app?.path, scene: task.spec.scene };
}

/** Task facts by task file and app, valid while the file's size, modification time and inode stay the same. */
class TaskFactsCache {
  private static readonly LIMIT = 1000;
  private readonly entries = new Map<string, { stamp: string; facts: TaskFacts | null }>();

  get(ref: string, file: string, app: string | undefined): TaskFacts | null {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return null;
    const key = `${file}\0${app ?? ''}`;
    const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    const cached = this.entries.get(key);
    if (cached?.stamp === stamp) return cached.facts;
    const facts = factsOf(ref, app);
    if (this.entries.size >= TaskFactsCache.LIMIT) this.entries.clear();
    this.entries.set(key, { stamp, facts });
    return facts;
  }
}
