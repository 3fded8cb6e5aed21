/**
 * The URL forms of the CDNs pages load npm packages from, and which package, version (or range) and file
 * each names. Nothing here touches the disk: `packages.ts` answers the URL from an installed copy.
 *
 * - unpkg `https://unpkg.com/<pkg>[@<range>][/<file>]` and jsDelivr `https://cdn.jsdelivr.net/npm/<pkg>[@<range>][/<file>]`
 *   serve the package's files as published (`file`); a bare package URL is its entry point.
 * - jsDelivr's `.../+esm` and esm.sh `https://esm.sh/[v<n>/][*]<pkg>[@<range>][/<subpath>][?query]` serve
 *   modules built for the browser: a subpath is resolved through the package's `exports` (`module`), and
 *   esm.sh's build outputs (`/es2022/<name>.mjs`) stand for the entry or the subpath they were built from.
 * - cdnjs `https://cdnjs.cloudflare.com/ajax/libs/<name>/<version>/<file>`.
 * - jsDelivr's GitHub form (`/gh/<user>/<repo>@<ref>/<file>`) names a repository, not an npm package. Where
 *   the repository publishes the same files to npm, the URL stands for them ({@link GITHUB_PACKAGES}: Material
 *   Symbols' SVGs, which XR Blocks' UI icons load; a monorepo's `packages/<name>/...`); otherwise it is
 *   {@link GithubCdnRequest}.
 */

/** A package file a CDN URL asks for. */
export interface CdnRequest {
  name: string;
  /** The version or range the URL names (`0.160.0`, `^1.0.2`, `1.0`), null for none (latest). */
  version: string | null;
  /** The file or subpath inside the package, without a leading slash; empty for the package's entry. */
  path: string;
  /** True when `path` is a module subpath to resolve through the package's `exports` (esm.sh, `+esm`). */
  module?: true;
  /** The URL of the package's root on that CDN (`https://esm.sh/lit@3.3.1`): files of the package are below it. */
  base: string;
}

/** jsDelivr's GitHub form: files of a repository, not of an npm package. */
export interface GithubCdnRequest {
  github: string;
}

/**
 * GitHub repositories whose files are published to npm: the repository path pattern, and the npm package
 * and file it matches. The repository ref (a tag such as `v0.33.0`) is the package version.
 */
const GITHUB_PACKAGES: { repo: string; path: RegExp; to(match: RegExpMatchArray): [name: string, path: string] }[] = [
  { repo: 'marella/material-symbols', path: /^svg\/(\d+)\/(.+)$/, to: (m) => [`@material-symbols/svg-${m[1]}`, m[2]] },
  { repo: '*', path: /^packages\/([a-z0-9][\w.-]*)\/(.+)$/, to: (m) => [m[1], m[2]] },
];

/** A jsDelivr GitHub path (`<user>/<repo>@<ref>/<file>`) as the npm package file it stands for, else null. */
function githubPackage(origin: string, spec: string): CdnRequest | null {
  const match = /^([^/@]+\/[^/@]+)(?:@([^/]+))?\/(.+)$/.exec(spec);
  if (!match) return null;
  const [, repo, ref, file] = match;
  const version = ref && /^v?\d+\.\d+/.test(ref) ? ref.replace(/^v/, '') : null;
  for (const known of GITHUB_PACKAGES) {
    if (known.repo !== '*' && known.repo !== repo) continue;
    const m = known.path.exec(file);
    if (!m) continue;
    const [name, path] = known.to(m);
    return { name, version, path, base: `${origin}/gh/${repo}${ref ? `@${ref}` : ''}/${file.slice(0, file.length - path.length - 1)}` };
  }
  return null;
}

/** esm.sh build targets (the path segment after the version in its build outputs). */
const ESM_SH_TARGETS = /^(es20\d\d|esnext|deno|denonext|node)$/;

/** Which package and file a CDN URL names; null when it is no CDN's package URL. */
export function parseCdnUrl(url: string): CdnRequest | GithubCdnRequest | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  switch (u.hostname) {
    case 'unpkg.com':
      return packageSpec(`${u.origin}/`, path.slice(1), false);
    case 'cdn.jsdelivr.net':
      if (path.startsWith('/gh/')) return githubPackage(u.origin, path.slice(4)) ?? { github: path.slice(4) };
      if (!path.startsWith('/npm/')) return null;
      if (path.endsWith('/+esm')) return packageSpec(`${u.origin}/npm/`, path.slice(5, -5), true);
      return packageSpec(`${u.origin}/npm/`, path.slice(5), false);
    case 'esm.sh': {
      const parsed = packageSpec(`${u.origin}/`, path.slice(1).replace(/^v\d+\//, '').replace(/^\*/, ''), true);
      return parsed ? esmShBuildOutput(parsed) : null;
    }
    case 'cdnjs.cloudflare.com': {
      if (!path.startsWith('/ajax/libs/')) return null;
      const [name, version, ...rest] = path.slice(11).split('/');
      return name ? { name, version: version ?? null, path: rest.join('/'), base: `${u.origin}/ajax/libs/${name}/${version ?? ''}` } : null;
    }
    default:
      return null;
  }
}

/** `@scope/name@1/x/y` → the package `@scope/name`, version `1`, path `x/y`. */
function packageSpec(prefix: string, spec: string, module: boolean): CdnRequest | null {
  const [nameWithVersion, rest] = splitPackagePath(spec);
  if (!nameWithVersion) return null;
  const at = nameWithVersion.lastIndexOf('@');
  const [name, version] = at > 0 ? [nameWithVersion.slice(0, at), nameWithVersion.slice(at + 1)] : [nameWithVersion, null];
  if (!name || (name.startsWith('@') && !name.includes('/'))) return null;
  return { name, version: version || null, path: rest, ...(module && rest ? { module: true as const } : {}), base: prefix + encodeURI(nameWithVersion) };
}

/** esm.sh's `/<target>/<subpath>.mjs`: the module it was built from (the entry when the subpath is the package's name). */
function esmShBuildOutput(request: CdnRequest): CdnRequest {
  const [target, ...rest] = request.path.split('/');
  if (!ESM_SH_TARGETS.test(target) || rest.length === 0) return request;
  const subpath = rest.join('/').replace(/(\.development|\.bundle)?\.m?js$/, '');
  const base = request.name.split('/').pop();
  if (subpath === base) return { ...request, path: '', module: undefined };
  return { ...request, path: subpath, module: true };
}

/** `@scope/name@1/x/y` → [`@scope/name@1`, `x/y`]. */
export function splitPackagePath(spec: string): [string, string] {
  const parts = spec.split('/');
  const count = parts[0].startsWith('@') ? 2 : 1;
  return [parts.slice(0, count).join('/'), parts.slice(count).join('/')];
}
