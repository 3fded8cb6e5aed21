/**
 * Locally installed npm packages, for pages: bare imports (`three`, `three/addons/...`) resolve through an
 * import map to `/@pkg/<name>/...` on the app server, and requests to the usual CDNs (unpkg, jsDelivr,
 * esm.sh, cdnjs) for an installed package are answered from its local copy. Nothing is fetched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** URL prefix of mounted packages. */
export const PACKAGE_PREFIX = '/@pkg/';

/** Packages the import map names by default. */
export const DEFAULT_PACKAGES = ['three'];

interface PackageJson {
  name: string;
  version: string;
  module?: string;
  main?: string;
  exports?: unknown;
}

export interface LocalPackage {
  name: string;
  version: string;
  dir: string;
  json: PackageJson;
}

/** Finds installed packages from the app directory, then from xrsim's own installation. */
export class PackageResolver {
  private readonly cache = new Map<string, LocalPackage | null>();
  private readonly requires: NodeJS.Require[];

  constructor(appDir: string) {
    const own = fileURLToPath(import.meta.url);
    this.requires = [createRequire(join(appDir, 'index.html')), createRequire(own)];
  }

  /** The installed package `name`, or null. */
  find(name: string): LocalPackage | null {
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) return null;
    if (this.cache.has(name)) return this.cache.get(name)!;
    let found: LocalPackage | null = null;
    for (const req of this.requires) {
      const dir = packageDir(req, name);
      if (!dir) continue;
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
      found = { name, version: json.version, dir, json };
      break;
    }
    this.cache.set(name, found);
    return found;
  }

  /** The server mount for `/@pkg/<name>/<rest>`. */
  mount(pathname: string): { dir: string; rest: string } | null {
    if (!pathname.startsWith(PACKAGE_PREFIX)) return null;
    const [name, rest] = splitPackagePath(pathname.slice(PACKAGE_PREFIX.length));
    const pkg = name ? this.find(name) : null;
    return pkg ? { dir: pkg.dir, rest: `/${rest}` } : { dir: '/nonexistent-xrsim-package', rest: '/' };
  }

  /** An import map for `names` (those installed), as JSON. */
  importMap(names: string[]): { imports: Record<string, string> } {
    const imports: Record<string, string> = {};
    for (const name of names) {
      const pkg = this.find(name);
      if (!pkg) continue;
      const base = `${PACKAGE_PREFIX}${name}/`;
      const entry = esmEntry(pkg.json);
      if (entry) imports[name] = base + entry.replace(/^\.\//, '');
      // Subpath patterns of `exports` ("./addons/*": "./examples/jsm/*"), then the package itself.
      const exports = pkg.json.exports;
      if (exports && typeof exports === 'object') {
        for (const [key, value] of Object.entries(exports as Record<string, unknown>)) {
          const target = typeof value === 'string' ? value : esmCondition(value);
          if (!target || key === '.') continue;
          if (key.endsWith('/*') && target.endsWith('/*')) imports[`${name}/${key.slice(2, -1)}`] = base + target.slice(2, -1);
          else if (!key.includes('*')) imports[`${name}/${key.slice(2)}`] = base + target.replace(/^\.\//, '');
        }
      }
      imports[`${name}/`] = base;
    }
    return { imports };
  }

  /** The local file answering a CDN URL for an installed package, or null (not a CDN, not installed, no such file). */
  cdnFile(url: string): string | null {
    const parsed = parseCdnUrl(url);
    if (!parsed) return null;
    const pkg = this.find(parsed.name);
    if (!pkg) return null;
    const candidates = parsed.path ? [parsed.path, `build/${parsed.path}`, `dist/${parsed.path}`] : [esmEntry(pkg.json) ?? 'index.js'];
    for (const candidate of candidates) {
      const file = join(pkg.dir, candidate.replace(/^\.\//, ''));
      if (file.startsWith(pkg.dir + '/') && existsSync(file)) return file;
    }
    return null;
  }
}

/** CDN hosts: whether a URL is a package request to one of them, and which package and file. */
export function parseCdnUrl(url: string): { name: string; version: string | null; path: string } | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const path = decodeURIComponent(u.pathname);
  let spec: string;
  if (u.hostname === 'unpkg.com') spec = path.slice(1);
  else if (u.hostname === 'cdn.jsdelivr.net' && path.startsWith('/npm/')) spec = path.slice(5);
  else if (u.hostname === 'esm.sh') spec = path.slice(1).replace(/^v\d+\//, '');
  else if (u.hostname === 'cdnjs.cloudflare.com' && path.startsWith('/ajax/libs/')) {
    const [name, version, ...rest] = path.slice(11).split('/');
    return name ? { name, version: version ?? null, path: rest.join('/') } : null;
  } else return null;
  const [nameWithVersion, rest] = splitPackagePath(spec);
  if (!nameWithVersion) return null;
  const at = nameWithVersion.lastIndexOf('@');
  const [name, version] = at > 0 ? [nameWithVersion.slice(0, at), nameWithVersion.slice(at + 1)] : [nameWithVersion, null];
  return { name, version, path: rest };
}

/** `@scope/name@1/x/y` → [`@scope/name@1`, `x/y`]. */
function splitPackagePath(spec: string): [string, string] {
  const parts = spec.split('/');
  const count = parts[0].startsWith('@') ? 2 : 1;
  return [parts.slice(0, count).join('/'), parts.slice(count).join('/')];
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
