/**
 * Locally installed npm packages, for pages: bare imports (`three`, `three/addons/...`) resolve through an
 * import map to `/@pkg/<name>/...` on the app server, and requests to the usual CDNs (unpkg, jsDelivr,
 * esm.sh, cdnjs: `cdn-urls.ts`) for an installed package are answered from its local copy. Nothing is
 * fetched.
 *
 * Packages are looked for beside the page (its directory's `node_modules`, walking up), in the project
 * (the working directory's), then in xrsim's own installation, which ships the WebXR input profiles
 * (`@webxr-input-profiles/assets`, what three.js's controller and hand model factories load) and the XR
 * Blocks stack. A CDN URL's version or range picks the first copy that satisfies it; when none does, the
 * first copy found answers (a page pinned to `three@0.160.0` runs on the installed three). A package
 * installed nowhere is refused with the `npm i` that would serve it.
 *
 * Only installed packages are served, and of each only the files it publishes (`package-files.ts`): a
 * package resolved outside any `node_modules` (the project itself, by self-reference) is not one.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { parseCdnUrl, splitPackagePath, type CdnRequest } from './cdn-urls.js';
import type { PackageMount } from './static-server.js';
import { isInstalledRoot, publishedFiles, servedPackageFile, type PathTest, type PublishingFields } from './package-files.js';

export { parseCdnUrl } from './cdn-urls.js';

/** URL prefix of mounted packages. */
export const PACKAGE_PREFIX = '/@pkg/';

/** Packages the import map names by default. */
export const DEFAULT_PACKAGES = ['three'];

/** Packages an import map names at most (a page's packages and everything they import). */
const MAX_MAPPED_PACKAGES = 200;

interface PackageJson extends PublishingFields {
  name: string;
  version: string;
  module?: string;
  main?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export interface LocalPackage {
  name: string;
  version: string;
  /** The package's real root (every link followed). */
  dir: string;
  json: PackageJson;
  /** Whether a file, by its `/`-separated path from `dir`, is one the package publishes. */
  published: PathTest;
}

/**
 * How a CDN URL is answered: a local file, or a refusal. `url` is the file's own URL on the CDN when the
 * request names it otherwise (a bare package, an esm.sh module subpath) and in another folder: relative
 * imports inside it resolve against that URL, so a module request is answered with a module that
 * re-exports it from there (`proxyModule`; a fulfilled request cannot redirect). A refusal with `status`
 * is a package that is installed but publishes no such file: the CDN itself would answer 404.
 */
export type CdnAnswer = { file: string; url?: string } | { refused: string; status?: 404 };

/** A module that stands for the module at `url`: its named exports and its default export. */
export function proxyModule(url: string): string {
  const target = JSON.stringify(url);
  return `export * from ${target};\nimport * as module from ${target};\nexport default module.default;\n`;
}

/** Finds installed packages beside the page, in the project, then in xrsim's own installation. */
export class PackageResolver {
  private readonly copies = new Map<string, LocalPackage[]>();
  /** Packages found as dependencies of others (not resolvable from the roots), by name. */
  private readonly nested = new Map<string, LocalPackage>();
  /** Names that resolve to a folder outside any node_modules (the project by self-reference, a linked folder). */
  private readonly notInstalled = new Set<string>();
  private readonly requires: NodeJS.Require[];
  /** The app directory's real path: the one package root outside node_modules that may be served. */
  private readonly appRoot: string;

  constructor(appDir: string, projectDir = process.cwd()) {
    const own = fileURLToPath(import.meta.url);
    this.requires = [createRequire(join(appDir, 'index.html')), createRequire(join(projectDir, 'package.json')), createRequire(own)];
    this.appRoot = realOrResolved(appDir);
  }

  /** The installed package `name` (the first copy satisfying `range`, else the first found), or null. */
  find(name: string, range: string | null = null): LocalPackage | null {
    const copies = this.copiesOf(name);
    if (copies.length === 0) return this.nested.get(name) ?? null;
    const wanted = range ? semver.validRange(range.replace(/^v/, '')) : null;
    return (wanted && copies.find((c) => semver.satisfies(c.version, wanted))) || copies[0];
  }

  /** The server mount for `/@pkg/<name>/<rest>`. */
  mount(pathname: string): PackageMount | null {
    if (!pathname.startsWith(PACKAGE_PREFIX)) return null;
    const [name, rest] = splitPackagePath(pathname.slice(PACKAGE_PREFIX.length));
    const pkg = name ? this.find(name) : null;
    return pkg ? { dir: pkg.dir, rest: `/${rest}`, allow: pkg.published } : { dir: '/nonexistent-xrsim-package', rest: '/' };
  }

  /** An import map for `names` (those installed) and every package they depend on. */
  importMap(names: string[]): { imports: Record<string, string> } {
    const imports: Record<string, string> = {};
    const seen = new Set<string>();
    const queue: { name: string; from: LocalPackage | null }[] = names.map((name) => ({ name, from: null }));
    while (queue.length > 0 && seen.size < MAX_MAPPED_PACKAGES) {
      const { name, from } = queue.shift()!;
      if (seen.has(name)) continue;
      seen.add(name);
      const pkg = this.find(name) ?? (from ? this.dependencyOf(from, name) : null);
      if (!pkg) continue;
      Object.assign(imports, packageImports(pkg));
      for (const dep of Object.keys({ ...pkg.json.dependencies, ...pkg.json.peerDependencies })) queue.push({ name: dep, from: pkg });
    }
    return { imports };
  }

  /** The import map a page needs: `names`, the packages it loads from CDNs, and their dependencies. */
  importMapFor(html: string, names: string[]): { imports: Record<string, string> } {
    const wanted = new Set(names);
    for (const match of html.matchAll(/https?:\/\/[^\s"'`<>)]+/g)) {
      const request = parseCdnUrl(match[0]);
      if (request && 'name' in request) wanted.add(request.name);
    }
    return this.importMap([...wanted]);
  }

  /** How to answer a CDN URL; null when it is no CDN's package URL. */
  cdnAnswer(url: string): CdnAnswer | null {
    const request = parseCdnUrl(url);
    if (!request) return null;
    if ('github' in request) return { refused: `${url} is a GitHub file on jsDelivr, which cannot be served locally: install the package from npm and map it in the page's import map` };
    const pkg = this.find(request.name, request.version);
    if (!pkg && this.notInstalled.has(request.name)) {
      return { refused: `${url} cannot be served locally: ${request.name} resolves to a folder outside any node_modules (the project itself, or a linked folder), and only installed packages are served` };
    }
    if (!pkg) {
      const spec = request.version ? `${request.name}@${request.version}` : request.name;
      return { refused: `${url} cannot be served locally: the package ${request.name} is not installed beside the page, in the project or in xrsim (npm i ${spec} serves it)` };
    }
    const file = request.module ? moduleFile(pkg, request.path) : rawFile(pkg, request);
    if (!file) return { refused: `${url} cannot be served locally: ${pkg.name}@${pkg.version} publishes no such file`, status: 404 };
    const fileUrl = `${request.base}/${encodeURI(file.path)}`;
    const folder = (u: string) => u.slice(0, u.lastIndexOf('/') + 1);
    return folder(fileUrl) === folder(url.split(/[?#]/)[0]) ? { file: file.real } : { file: file.real, url: fileUrl };
  }

  /** The local file answering a CDN URL for an installed package, or null (not a CDN, not installed, no such file). */
  cdnFile(url: string): string | null {
    const answer = this.cdnAnswer(url);
    return answer && 'file' in answer ? answer.file : null;
  }

  private copiesOf(name: string): LocalPackage[] {
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) return [];
    let copies = this.copies.get(name);
    if (!copies) {
      copies = [];
      for (const req of this.requires) {
        const pkg = this.installed(readPackage(req, name));
        if (pkg && !copies.some((c) => c.dir === pkg.dir)) copies.push(pkg);
      }
      this.copies.set(name, copies);
    }
    return copies;
  }

  /** A dependency installed inside another package (not hoisted), remembered for its mount. */
  private dependencyOf(parent: LocalPackage, name: string): LocalPackage | null {
    const pkg = this.installed(readPackage(createRequire(join(parent.dir, 'package.json')), name));
    if (pkg) this.nested.set(name, pkg);
    return pkg;
  }

  /** The package when it is installed (its real root in a node_modules folder) or is the app directory itself. */
  private installed(pkg: LocalPackage | null): LocalPackage | null {
    if (!pkg || isInstalledRoot(pkg.dir) || pkg.dir === this.appRoot) return pkg;
    this.notInstalled.add(pkg.name);
    return null;
  }
}

/** The import map entries of one package: its entry, its `exports` subpaths, and its folder. */
function packageImports(pkg: LocalPackage): Record<string, string> {
  const imports: Record<string, string> = {};
  const { name } = pkg;
  const base = `${PACKAGE_PREFIX}${name}/`;
  const entry = esmEntry(pkg.json);
  if (entry) imports[name] = base + entry.replace(/^\.\//, '');
  // Subpath patterns of `exports` ("./addons/*": "./examples/jsm/*"), then the package itself.
  const exports = pkg.json.exports;
  if (exports && typeof exports === 'object') {
    for (const [key, value] of Object.entries(exports as Record<string, unknown>)) {
      const target = typeof value === 'string' ? value : esmCondition(value);
      if (!target || key === '.' || !key.startsWith('./')) continue;
      if (key.endsWith('/*') && target.endsWith('/*')) imports[`${name}/${key.slice(2, -1)}`] = base + target.slice(2, -1);
      else if (!key.includes('*')) imports[`${name}/${key.slice(2)}`] = base + target.replace(/^\.\//, '');
    }
  }
  imports[`${name}/`] = base;
  return imports;
}

/** A file of the package as published (unpkg, jsDelivr, cdnjs), or its entry for a bare package URL. */
function rawFile(pkg: LocalPackage, request: CdnRequest): PackageFile | null {
  if (!request.path) return firstFile(pkg, [esmEntry(pkg.json) ?? 'index.js']);
  // jsDelivr minifies any file on request (`x.min.js` of a package that ships `x.js`): the source answers.
  const unminified = request.path.replace(/\.min\.(m?js|css)$/, '.$1');
  const paths = unminified === request.path ? [request.path] : [request.path, unminified];
  return firstFile(pkg, paths.flatMap((path) => [path, `build/${path}`, `dist/${path}`]));
}

/** A module subpath (`lit/decorators.js`) as the package's `exports` resolve it, else as a file. */
function moduleFile(pkg: LocalPackage, subpath: string): PackageFile | null {
  const exports = pkg.json.exports;
  if (subpath && exports && typeof exports === 'object') {
    const table = exports as Record<string, unknown>;
    for (const key of [`./${subpath}`, `./${subpath}.js`]) {
      const target = typeof table[key] === 'string' ? (table[key] as string) : esmCondition(table[key]);
      if (target) return firstFile(pkg, [target]);
    }
  }
  return firstFile(pkg, subpath ? [subpath, `${subpath}.js`, `${subpath}/index.js`] : [esmEntry(pkg.json) ?? 'index.js']);
}

/** A file a package serves: its path in the package, as a CDN names it, and its real file. */
interface PackageFile {
  path: string;
  real: string;
}

/** The first candidate the package serves (`package-files.ts`). */
function firstFile(pkg: LocalPackage, candidates: string[]): PackageFile | null {
  for (const candidate of candidates) {
    const path = candidate.replace(/^\.\//, '');
    const real = servedPackageFile(pkg.dir, path, pkg.published);
    if (real) return { path, real };
  }
  return null;
}

function readPackage(req: NodeJS.Require, name: string): LocalPackage | null {
  const found = packageDir(req, name);
  if (!found) return null;
  const dir = realpathSync(found);
  const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  return { name, version: json.version, dir, json, published: publishedFiles(json) };
}

function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

function packageDir(req: NodeJS.Require, name: string): string | null {
  try {
    return dirname(req.resolve(`${name}/package.json`));
  } catch {
    // Packages whose exports hide package.json: walk up from the resolved entry.
    try {
      let dir = dirname(req.resolve(name));
      while (dir !== dirname(dir)) {
        if (existsSync(join(dir, 'package.json')) && (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson).name === name) return dir;
        dir = dirname(dir);
      }
    } catch {
      return null;
    }
    return null;
  }
}

function esmEntry(json: PackageJson): string | null {
  const exports = json.exports;
  if (typeof exports === 'string') return exports;
  if (exports && typeof exports === 'object') {
    const dot = (exports as Record<string, unknown>)['.'] ?? exports;
    const target = typeof dot === 'string' ? dot : esmCondition(dot);
    if (target) return target;
  }
  return json.module ?? json.main ?? null;
}

function esmCondition(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  for (const key of ['browser', 'import', 'module', 'default']) {
    const t = v[key];
    if (typeof t === 'string') return t;
    const nested = esmCondition(t);
    if (nested) return nested;
  }
  return null;
}
