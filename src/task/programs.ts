/**
 * The programs a session runs besides the kernel: the task's actor script and the app under test. Both are
 * ES modules named by the task (`actors`, `apps`), resolved next to the task file, and content-hashed into
 * the model, so a changed script or app changes the model hash and `verify` notices.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { XrsimInputError } from '../errors.js';
import { listNames, ownEntry } from '../json/names.js';
import { isBrowserAppEntry, type TaskSpec } from './types.js';
import { browserDirRef, browserTarget, browserUrlRef, type BrowserAppRef } from './browser-programs.js';

/** A module: where it is and the SHA-256 of its source. */
export interface ModuleRef {
  path: string;
  sha256: string;
}

/** The programs of a model (recorded in `model.sources.programs` and stream headers). */
export interface ProgramSources {
  actors?: ModuleRef;
  /** The app: a module run in process, or (with `host: 'browser'`) a page run in Chromium. */
  app?: ({ name: string } & ModuleRef) | BrowserAppRef;
}

/** The app a session runs when none is named: the task's reference app, if it has apps. */
export const DEFAULT_APP = 'reference';

/** Where a task's programs are, before anything is read: each module's absolute path and where it was named. */
export interface ProgramPaths {
  actors?: { path: string; file: string; jsonPath: string };
  /** For a browser app (`host: 'browser'`): `path` is the served directory (or the URL) and `page` the page in it. */
  app?: { name: string; path: string; file: string; jsonPath: string; host?: 'browser'; page?: string; url?: string; start?: string };
}

/**
 * Where a task's programs are, without reading them (a queue worker checks these paths against its task
 * roots before any file is read). `app` is a name from the task's `apps` or a path to a module;
 * `taskFile` is where the task was read from (relative module paths are relative to it; inline tasks
 * resolve them against the working directory).
 */
export function programPaths(task: TaskSpec, taskFile: string, app: string | undefined, start?: string): ProgramPaths {
  const base = taskFile.startsWith('<') ? process.cwd() : dirname(taskFile);
  const paths: ProgramPaths = {};
  if (task.actors) paths.actors = { path: resolve(base, task.actors), file: taskFile, jsonPath: '$.actors' };
  if (app === undefined && task.apps && Object.keys(task.apps).length === 0) {
    throw new XrsimInputError(`task "${task.id}" is for candidate apps (its "apps" is empty): name the app to test`, {
      file: '<session spec>',
      jsonPath: '$.app',
      expected: 'an app: a module (.mjs), a page directory, an .html page or a loopback URL (run --app, sweep --apps)',
    });
  }
  const name = app ?? (task.apps ? DEFAULT_APP : undefined);
  if (name !== undefined) {
    const entry = ownEntry(task.apps, name);
    const target = entry ? null : browserTarget(name);
    if (entry && isBrowserAppEntry(entry)) {
      const way = start ?? entry.start;
      paths.app = { name, host: 'browser', path: resolve(base, entry.dir), page: entry.page ?? 'index.html', file: taskFile, jsonPath: `$.apps.${name}`, ...(way ? { start: way } : {}) };
    } else if (entry) {
      paths.app = { name, path: resolve(base, entry.module), file: taskFile, jsonPath: `$.apps.${name}.module` };
    } else if (target) {
      paths.app = { name, host: 'browser', ...target, file: '<session spec>', jsonPath: '$.app', ...(start ? { start } : {}) };
    } else if (/\.(mjs|js)$/.test(name)) {
      paths.app = { name, path: isAbsolute(name) ? name : resolve(name), file: '<session spec>', jsonPath: '$.app' };
    } else {
      throw new XrsimInputError(`task "${task.id}" has no app "${name}"`, {
        file: '<session spec>',
        jsonPath: '$.app',
        expected: task.apps
          ? `one of: ${listNames(Object.keys(task.apps))}, a path to an app module (.mjs), or a browser app (a directory with index.html, an .html page, or an http://127.0.0.1 URL)`
          : 'a path to an app module (.mjs) or a browser app (a directory, an .html page or a loopback URL): this task lists no apps',
      });
    }
  }
  if (start !== undefined && paths.app?.host !== 'browser') {
    throw new XrsimInputError(`start names the element a browser app's page is entered by, but the app ${paths.app ? `"${paths.app.name}" runs in process` : 'is none'}`, {
      file: '<session spec>',
      jsonPath: '$.start',
      expected: 'a browser app (a task app with "host": "browser", a directory, an .html page or a loopback URL), or no start',
    });
  }
  return paths;
}

/** Resolves and hashes a task's programs (see {@link programPaths} for how they are found). */
export function resolvePrograms(task: TaskSpec, taskFile: string, app: string | undefined, start?: string): ProgramSources {
  const { actors, app: appPath } = programPaths(task, taskFile, app, start);
  const programs: ProgramSources = {};
  if (actors) programs.actors = moduleRef(actors.path, actors.file, actors.jsonPath);
  if (appPath?.host === 'browser') {
    const ref = appPath.url ? browserUrlRef(appPath.url) : browserDirRef(appPath.name, appPath.path, appPath.page!, appPath.file, appPath.jsonPath);
    programs.app = appPath.start ? { ...ref, start: appPath.start } : ref;
  } else if (appPath) programs.app = { name: appPath.name, ...moduleRef(appPath.path, appPath.file, appPath.jsonPath) };
  return programs;
}

/** Checks that recorded programs are still what they were (for `verify` and `render`). */
export function checkPrograms(programs: ProgramSources): void {
  for (const [what, ref] of Object.entries(programs) as [string, ModuleRef | BrowserAppRef][]) {
    if ('host' in ref) {
      if (ref.url) continue; // a page someone else serves: nothing here to hash
      const now = browserDirRef(ref.name, ref.path, ref.page, '<stream header>', `$.sources.programs.${what}`);
      if (now.sha256 !== ref.sha256) {
        throw new XrsimInputError(`the browser app ${ref.path} changed since the stream was recorded`, { file: '<stream header>', jsonPath: `$.sources.programs.${what}`, expected: `files with SHA-256 ${ref.sha256.slice(0, 16)}…` });
      }
      continue;
    }
    const now = moduleRef(ref.path, '<stream header>', `$.sources.programs.${what}`);
    if (now.sha256 !== ref.sha256) {
      throw new XrsimInputError(`the ${what} module ${ref.path} changed since the stream was recorded`, { file: '<stream header>', jsonPath: `$.sources.programs.${what}`, expected: `a module with SHA-256 ${ref.sha256.slice(0, 16)}…` });
    }
  }
}

/**
 * A module and its content hash. The hash covers the module and every other .mjs/.js file in its folder
 * (the helpers it may import), so editing a shared helper changes the hash too.
 */
export function moduleRef(path: string, file: string, jsonPath: string): ModuleRef {
  if (!existsSync(path)) throw new XrsimInputError(`module not found: ${path}`, { file, jsonPath, expected: 'a path to an ES module (.mjs), relative to the task file' });
  const hash = createHash('sha256').update(readFileSync(path));
  const folder = dirname(path);
  for (const name of readdirSync(folder).filter((n) => /\.m?js$/.test(n)).sort()) {
    const sibling = join(folder, name);
    if (sibling !== path) hash.update(`\0${name}\0`).update(readFileSync(sibling));
  }
  return { path, sha256: hash.digest('hex') };
}
