/**
 * Browser apps as programs of a model: a directory served to an unmodified WebXR page (a task's
 * `{ "host": "browser", "dir": ... }` entry, or a user's `--app DIR` / `--app page.html`), or a page at a
 * loopback URL the user serves. A directory is content-hashed (sorted relative paths and contents), not
 * its location, so a changed page changes the model hash and `verify` notices.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { XrsimInputError } from '../errors.js';

/** A browser app in a model (`model.sources.programs.app` with `host: 'browser'`). */
export interface BrowserAppRef {
  name: string;
  host: 'browser';
  /** The served directory (absolute), or for a URL app the URL itself. */
  path: string;
  /** The page to open, relative to the directory (for a URL app: the URL's path). */
  page: string;
  /** Set for a page at a loopback URL the user serves (nothing is hashed: the page is not ours to read). */
  url?: string;
  /** SHA-256 of the directory's files (for a URL app: of the URL). */
  sha256: string;
  /** The CSS selector of the element the simulated user clicks to enter XR (absent: found; `browser/enter-xr.ts`). */
  start?: string;
}

/** Files a browser app directory may hold before hashing it is refused (a page, not a whole disk). */
const MAX_FILES = 2000;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** The browser app a directory and page make, hashed. Throws naming `file` and `jsonPath` when either is missing. */
export function browserDirRef(name: string, dir: string, page: string, file: string, jsonPath: string): BrowserAppRef {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new XrsimInputError(`browser app directory not found: ${dir}`, { file, jsonPath: `${jsonPath}.dir`, expected: 'a directory holding the page, relative to the task file' });
  }
  if (page.includes('..') || page.startsWith('/') || !existsSync(join(dir, page))) {
    throw new XrsimInputError(`browser app page not found: ${join(dir, page)}`, { file, jsonPath: `${jsonPath}.page`, expected: 'an .html file inside the app directory (default index.html)' });
  }
  const hash = createHash('sha256');
  let count = 0;
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(join(folder, entry.name), relative);
      } else if (entry.isFile()) {
        if (++count > MAX_FILES) throw new XrsimInputError(`browser app directory ${dir} holds more than ${MAX_FILES} files`, { file, jsonPath: `${jsonPath}.dir`, expected: 'the directory of one app' });
        hash.update(`\0${relative}\0`).update(readFileSync(join(folder, entry.name)));
      }
    }
  };
  walk(dir, '');
  return { name, host: 'browser', path: dir, page, sha256: hash.digest('hex') };
}

/**
 * A user's own browser app named on the command line or in a spec: a directory with `index.html`, an
 * `.html` file (its directory is served), or an `http://127.0.0.1` / `http://localhost` URL. Returns where
 * it is, without reading it, or null when `target` is none of these (it may be a module path or an app name).
 */
export function browserTarget(target: string, source: BrowserTargetSource = SPEC_APP): { path: string; page: string; url?: string } | null {
  if (/^https?:\/\//i.test(target)) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return null;
    }
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      const message = `a browser app URL must be on this machine's loopback: ${target}`;
      const expected = 'http://127.0.0.1:PORT/... or http://localhost:PORT/... (nothing leaves the machine)';
      if ('option' in source) throw new XrsimInputError(`${source.option} ${target}: a page at a URL must be served on this machine's loopback`, { expected });
      throw new XrsimInputError(message, { file: source.file, jsonPath: source.jsonPath, expected });
    }
    const href = url.href.replace('//localhost', '//127.0.0.1');
    return { path: href, page: url.pathname.slice(1), url: href };
  }
  const path = resolve(target);
  if (/\.html?$/i.test(target) && existsSync(path) && statSync(path).isFile()) return { path: dirname(path), page: basename(path) };
  if (existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, 'index.html'))) return { path, page: 'index.html' };
  return null;
}

/** Where a browser app's name came from, for errors: a field of a file (default the session spec's `$.app`) or a command-line option. */
export type BrowserTargetSource = { file: string; jsonPath: string } | { option: string };
const SPEC_APP: BrowserTargetSource = { file: '<session spec>', jsonPath: '$.app' };

/** The browser app of a page at a loopback URL (hashed by its URL: the page is not ours to read). */
export function browserUrlRef(href: string): BrowserAppRef {
  return { name: href, host: 'browser', path: href, page: new URL(href).pathname.slice(1), url: href, sha256: createHash('sha256').update(href).digest('hex') };
}
