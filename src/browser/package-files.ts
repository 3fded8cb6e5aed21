/**
 * Which files of an installed package a page may be given: those the package publishes, found inside the
 * package's own folder once every link is followed (docs/BROWSER.md, "Security").
 *
 * - Published, as npm packs it: without a `files` list, every file; with one, its entries (files, folders
 *   or globs; `!` excludes; an entry without a slash matches at any depth, as in `.gitignore`), the
 *   `main`, `module`, `browser` and `exports` targets, and always `package.json`, `README*`, `LICENSE*`
 *   and `LICENCE*` at the root (and `CHANGELOG*`, `HISTORY*` and the like, which older npm packed).
 * - Never, whatever `files` says: a dotfile or anything in a dot-folder (`.git`, `.env`), or anything in a
 *   nested `node_modules` (a dependency is served as its own package).
 * - Only installed packages: a package's real root must sit in a `node_modules` folder. The project itself
 *   (reached by self-reference) and linked folders are not packages a page was given.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { isInside } from './static-server.js';

/** The fields of package.json that say what the package publishes. */
export interface PublishingFields {
  files?: unknown;
  main?: unknown;
  module?: unknown;
  browser?: unknown;
  exports?: unknown;
}

/** A test of a `/`-separated path relative to the package root. */
export type PathTest = (relativePath: string) => boolean;

/** Files npm packs whatever `files` says, at the root (older npm versions also packed changelogs and notices). */
const ALWAYS_PUBLISHED = /^(package\.json|(readme|license|licence|copying|changelog|changes|history|notice)[^/]*)$/i;

/** Whether the package publishes the file at `relativePath` (`/`-separated, from its root). */
export function publishedFiles(json: PublishingFields): PathTest {
  const listed = Array.isArray(json.files) ? filesRules(json.files.filter((e): e is string => typeof e === 'string')) : null;
  const targets = entryTargets(json);
  return (relativePath) => {
    const segments = relativePath.split('/');
    if (segments.some((s) => s.startsWith('.') || s === 'node_modules' || s === '')) return false;
    if (!listed || ALWAYS_PUBLISHED.test(relativePath)) return true;
    return targets.some((target) => target(relativePath)) || listed(relativePath);
  };
}

/** `files` entries in order, the last one that matches deciding (`!` entries exclude). */
function filesRules(entries: string[]): PathTest {
  const rules = entries.flatMap((entry) => {
    const negated = entry.startsWith('!');
    const path = entry.replace(/^!/, '').replace(/^\.\//, '');
    // A slash before the end anchors the entry at the root; a bare name matches at any depth.
    const anchored = path.replace(/\/+$/, '').includes('/');
    const pattern = path.replace(/^\/+/, '').replace(/\/+$/, '');
    if (pattern === '') return [];
    const globs = anchored ? [pattern, `${pattern}/**`] : [`**/${pattern}`, `**/${pattern}/**`];
    return [{ negated, matches: picomatch(globs, { dot: true }) }];
  });
  return (relativePath) => rules.reduce((included, rule) => (rule.matches(relativePath) ? !rule.negated : included), false);
}

/** The files package.json points at: `main`, `module`, a string `browser`, every `exports` target. */
function entryTargets(json: PublishingFields): PathTest[] {
  const tests: PathTest[] = [];
  for (const entry of [json.main, json.module, json.browser]) {
    if (typeof entry !== 'string') continue;
    // `main` resolves as require does: `lib/x` may be `lib/x.js` or `lib/x/index.js`.
    const path = entry.replace(/^\.\//, '');
    tests.push((p) => p === path || p === `${path}.js` || p === `${path}/index.js`);
  }
  for (const target of exportTargets(json.exports)) {
    const path = target.replace(/^\.\//, '');
    if (path.includes('*')) {
      const pattern = new RegExp(`^${path.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
      tests.push((p) => pattern.test(p));
    } else if (path.endsWith('/')) {
      tests.push((p) => p.startsWith(path));
    } else {
      tests.push((p) => p === path);
    }
  }
  return tests;
}

/** Every string target of an `exports` value: conditions, subpaths and fallback arrays, at any depth. */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('./') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(exportTargets);
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

/** Whether a package's real root is an installed package: in a `node_modules` folder, or in a scope folder there. */
export function isInstalledRoot(realRoot: string): boolean {
  const parent = dirname(realRoot);
  if (basename(parent) === 'node_modules') return true;
  return basename(parent).startsWith('@') && basename(dirname(parent)) === 'node_modules';
}

/**
 * The real path of the file `relativePath` of the package at `realRoot`, or null: when it is missing, not a
 * plain file, or, once every link is followed, outside the root or not published (`published`).
 */
export function servedPackageFile(realRoot: string, relativePath: string, published: PathTest): string | null {
  const candidate = join(realRoot, relativePath.replace(/^\.\//, ''));
  if (!isInside(realRoot, candidate)) return null;
  let real: string;
  try {
    real = realpathSync(candidate);
    if (!statSync(real).isFile()) return null;
  } catch {
    return null;
  }
  if (!isInside(realRoot, real)) return null;
  return published(relative(realRoot, real).split(sep).join('/')) ? real : null;
}
