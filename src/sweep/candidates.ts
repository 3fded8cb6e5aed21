/**
 * Candidate apps given by path (issue 37): `--apps './candidates/*\/'`, a page directory, an `.html` page,
 * a module, a loopback URL, or globs of them, beside the names of a task's own apps. A benchmark grades apps
 * nobody here wrote, many per task, with no reference: each candidate runs under every task of the sweep,
 * and its validators are the test. Paths are made absolute (a session may run in another process), globs
 * are expanded in sorted order, and every path must exist.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { XrsimInputError } from '../errors.js';
import { isAppName } from '../task/types.js';

/** The words of `--apps` that choose among a task's own apps. */
const APP_KEYWORDS = new Set(['reference', 'all', 'process', 'browser']);
/** The most candidates one glob may expand to (a glob of a whole disk is a mistake). */
export const MAX_CANDIDATES_PER_GLOB = 10_000;

/** An `--apps` value's comma list, keeping commas inside braces (`{reference,counts-frames}.mjs`) in their glob. */
export function splitAppChoices(apps: string): string[] {
  const choices: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= apps.length; i++) {
    const c = apps[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if ((c === ',' && depth === 0) || i === apps.length) {
      const choice = apps.slice(start, i).trim();
      if (choice) choices.push(choice);
      start = i + 1;
    }
  }
  return choices;
}

/** Whether an `--apps` choice names candidate apps (by path, glob or URL) rather than a task's app by name. */
export function isCandidateChoice(choice: string): boolean {
  return !APP_KEYWORDS.has(choice) && !isAppName(choice);
}

/**
 * The candidate apps one `--apps` choice names: a loopback URL as it is; a path (absolute, or relative to
 * `cwd`) that must exist; or a glob (`*`, `**`, `?`, `[...]`, `{a,b}`), whose matches are listed in sorted
 * order. A glob ending in `/` matches folders only (page directories: `candidates/*\/`).
 */
export function expandCandidates(choice: string, cwd = process.cwd()): string[] {
  if (/^https?:\/\//.test(choice)) return [choice];
  const scan = picomatch.scan(choice);
  if (!scan.isGlob) {
    const path = resolve(cwd, choice);
    if (!existsSync(path)) throw new XrsimInputError(`no candidate app at ${choice}`, { expected: 'a page directory, an .html page, a module (.mjs), a loopback URL, or a glob of them' });
    return [path];
  }
  const base = resolve(cwd, scan.base || '.');
  const foldersOnly = choice.endsWith('/');
  const pattern = scan.glob.replace(/\/+$/, '');
  const matches = picomatch(pattern, { dot: false });
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const path = join(dir, name);
      const rel = relative(base, path).split(sep).join('/');
      let isDir: boolean;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue; // a link to nothing is no app
      }
      if (matches(rel) && (!foldersOnly || isDir)) {
        found.push(path);
        if (found.length > MAX_CANDIDATES_PER_GLOB) throw new XrsimInputError(`--apps ${choice} matches more than ${MAX_CANDIDATES_PER_GLOB} apps`, { expected: 'a narrower glob' });
      }
      if (isDir && depth < 8 && (pattern.includes('**') || depth < pattern.split('/').length - 1)) walk(path, depth + 1);
    }
  };
  walk(base, 0);
  if (found.length === 0) throw new XrsimInputError(`--apps ${choice} matches no app`, { expected: `page directories, .html pages or modules under ${scan.base || '.'}` });
  return found;
}
