/**
 * A page sees only its site and the packages it was given (issue 36; docs/BROWSER.md, "Security"), in real
 * Chromium: a page's fetches of symlinks out of a package (on unpkg, jsDelivr and `/@pkg/`) and out of the
 * app directory, of the app directory's own dotfiles (`.env`, `.git/`), of files a package does not publish, and of the project and xrsim reached by
 * self-reference are refused, and no secret reaches the page or what the host records; the app's files,
 * three.js, and a package installed through a symlink (as pnpm installs) are still served.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarmChromium } from '../../src/browser/chromium.js';
import { isInstalledRoot, publishedFiles } from '../../src/browser/package-files.js';
import { PackageResolver } from '../../src/browser/packages.js';
import { appEvents, FIXTURES, pageErrors, runPage, SKIP_SYSTEM, type PageRun } from '../helpers/browser.js';
import { ROOT, tempDir } from '../helpers/cli.js';

const OUTSIDE_SECRET = 'XRSIM-SECRET-OUTSIDE-EVERYTHING';
const ENV_SECRET = 'XRSIM_PROJECT_TOKEN=hostile-env-secret';
const GIT_SECRET = 'hostile-git-remote-secret';
const UNPUBLISHED_SECRET = 'XRSIM-SECRET-NOT-PUBLISHED';
const SECRETS = [OUTSIDE_SECRET, ENV_SECRET, GIT_SECRET, UNPUBLISHED_SECRET];

type Answer = { status: number; body: string } | { blocked: string };

/** What the page fetches (written into the app as probes.json), by what each should get. */
const PROBES = {
  /** Symlinks out of an installed package and files it does not publish, asked of a CDN. */
  cdnUnpublished: ['https://unpkg.com/evil/leak.txt', 'https://cdn.jsdelivr.net/npm/evil@1.0.0/leak.txt', 'https://unpkg.com/evil/unpublished.txt', 'https://unpkg.com/evil/.env'],
  /** The same asked of the app server, the project and xrsim by self-reference, links and dotfiles of the app directory. */
  appServerRefused: [
    '/@pkg/evil/leak.txt',
    '/@pkg/evil/unpublished.txt',
    '/@pkg/evil/.env',
    '/@pkg/evil/node_modules/inner/secret.txt',
    '/@pkg/xrsim-hostile-project/.env',
    '/@pkg/xrsim-hostile-project/.git/config',
    '/@pkg/xrsim-hostile-project/index.js',
    '/@pkg/xrsim/.git/config',
    '/@pkg/xrsim/.git',
    '/@pkg/xrsim/package.json',
    '/outside-link.txt',
    '/node_modules/evil/leak.txt',
    '/.env',
    '/.git/config',
    '/sub/.secret/key.txt',
  ],
  /** The project by self-reference on a CDN: blocked in the browser, as no installed package. */
  cdnProject: ['https://unpkg.com/xrsim-hostile-project/.env'],
  /** What the page was given: the app's files, its packages' published files, three.js, a pnpm-style link. */
  given: [
    '/app-file.js',
    '/.well-known/site.txt',
    '/@pkg/evil/index.js',
    '/@pkg/evil/README.md',
    'https://unpkg.com/evil@1.0.0/index.js',
    '/@pkg/three/build/three.module.js',
    'https://unpkg.com/three/build/three.module.js',
    'https://cdn.jsdelivr.net/npm/three/build/three.module.js',
    '/@pkg/pnpm-style/index.js',
    'https://unpkg.com/pnpm-style@1.0.0/index.js',
  ],
};

/** Writes `text` at `path`, making its folders. */
function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * A project (a package.json whose name its app reaches by self-reference, a .env, a .git) holding the app
 * directory `web/`, whose node_modules has a package with links out and unpublished files, and a package
 * linked in as pnpm installs one. A secret lies beside the project.
 */
function hostileLayout(): string {
  const base = tempDir('xrsim-page-files-');
  const project = join(base, 'project');
  const app = join(project, 'web');
  put(join(base, 'secret.txt'), OUTSIDE_SECRET);
  put(join(project, 'package.json'), JSON.stringify({ name: 'xrsim-hostile-project', version: '1.0.0', exports: './index.js' }));
  put(join(project, 'index.js'), 'export const project = true;');
  put(join(project, '.env'), ENV_SECRET);
  put(join(project, '.git', 'config'), `[remote "origin"]\n  url = ${GIT_SECRET}\n`);
  cpSync(join(FIXTURES, 'page-files'), app, { recursive: true });
  put(join(app, 'probes.json'), JSON.stringify(Object.values(PROBES).flat()));
  put(join(app, 'app-file.js'), 'export const appFile = 1;');
  put(join(app, '.env'), ENV_SECRET);
  put(join(app, '.git', 'config'), `[remote "origin"]\n  url = ${GIT_SECRET}\n`);
  put(join(app, 'sub', '.secret', 'key.txt'), UNPUBLISHED_SECRET);
  put(join(app, '.well-known', 'site.txt'), 'well known');
  symlinkSync(join(base, 'secret.txt'), join(app, 'outside-link.txt'));
  const evil = join(app, 'node_modules', 'evil');
  put(join(evil, 'package.json'), JSON.stringify({ name: 'evil', version: '1.0.0', main: 'index.js', files: ['index.js', 'leak.txt'] }));
  put(join(evil, 'index.js'), 'export const evil = 1;');
  put(join(evil, 'README.md'), 'evil readme');
  put(join(evil, 'unpublished.txt'), UNPUBLISHED_SECRET);
  put(join(evil, '.env'), UNPUBLISHED_SECRET);
  put(join(evil, 'node_modules', 'inner', 'secret.txt'), UNPUBLISHED_SECRET);
  symlinkSync(join(base, 'secret.txt'), join(evil, 'leak.txt'));
  const store = join(app, 'node_modules', '.pnpm', 'pnpm-style@1.0.0', 'node_modules', 'pnpm-style');
  put(join(store, 'package.json'), JSON.stringify({ name: 'pnpm-style', version: '1.0.0', main: 'index.js' }));
  put(join(store, 'index.js'), 'export const pnpmStyle = 1;');
  symlinkSync(store, join(app, 'node_modules', 'pnpm-style'));
  return app;
}

describe.skipIf(SKIP_SYSTEM)("a page's files in Chromium (system test)", () => {
  const chromium = new WarmChromium();
  let run: PageRun;
  let report: Record<string, Answer>;
  beforeAll(async () => {
    run = await runPage(chromium, hostileLayout(), { task: 'xr/pinch-spawn-ball', seed: 1, duration: 0.1 });
    report = appEvents<Record<string, Answer>>(run.outputs, 'report')[0]?.data;
  });
  afterAll(async () => {
    await chromium.close();
  });

  it('runs the probing page to its report', () => {
    expect(run.started).toBe(true);
    expect(report).toBeDefined();
  });

  it.each(PROBES.cdnUnpublished)('answers %s, a file the installed package does not publish, 404 with nothing of it', (url) => {
    expect(report[url]).toEqual({ status: 404, body: 'not found' });
  });

  it.each(PROBES.appServerRefused)('refuses %s on the app server (403 or 404)', (path) => {
    const answer = report[path] as { status: number; body: string };
    expect([403, 404]).toContain(answer.status);
    expect(answer.body).toMatch(/^(not found|forbidden: )/);
  });

  it('refuses the project reached by self-reference on a CDN too, as no installed package', () => {
    expect(report[PROBES.cdnProject[0]]).toEqual({ blocked: 'TypeError' });
    const network = pageErrors(run.outputs).map((e) => e.message);
    expect(network).toContainEqual(expect.stringMatching(/xrsim-hostile-project\/\.env cannot be served locally: xrsim-hostile-project resolves to a folder outside any node_modules/));
  });

  it('serves the app, its published package files, three.js and a package linked in as pnpm does', () => {
    const served = (url: string) => report[url] as { status: number; body: string };
    expect(served('/app-file.js')).toEqual({ status: 200, body: 'export const appFile = 1;' });
    expect(served('/.well-known/site.txt')).toEqual({ status: 200, body: 'well known' });
    expect(served('/@pkg/evil/index.js')).toEqual({ status: 200, body: 'export const evil = 1;' });
    expect(served('https://unpkg.com/evil@1.0.0/index.js')).toEqual({ status: 200, body: 'export const evil = 1;' });
    expect(served('/@pkg/evil/README.md')).toEqual({ status: 200, body: 'evil readme' });
    for (const url of ['/@pkg/three/build/three.module.js', 'https://unpkg.com/three/build/three.module.js', 'https://cdn.jsdelivr.net/npm/three/build/three.module.js']) {
      expect(served(url).status, url).toBe(200);
      expect(served(url).body, url).toContain('Three.js Authors');
    }
    expect(served('/@pkg/pnpm-style/index.js')).toEqual({ status: 200, body: 'export const pnpmStyle = 1;' });
    expect(served('https://unpkg.com/pnpm-style@1.0.0/index.js')).toEqual({ status: 200, body: 'export const pnpmStyle = 1;' });
  });

  it('lets no secret reach the page or anything the host records, and names every refusal in an app error', () => {
    const recorded = JSON.stringify([run.outputs, run.inputs, run.result]);
    // xrsim's checkout: a worktree's .git file, a clone's .git/config, its package.json.
    for (const secret of [...SECRETS, 'gitdir:', '[core]', '"name": "xrsim"']) expect(recorded, secret).not.toContain(secret);
    const network = pageErrors(run.outputs).filter((e) => e.kind === 'network').map((e) => e.message);
    const refused = Object.entries(report).filter(([, answer]) => !('status' in answer) || answer.status !== 200).map(([url]) => url);
    expect(refused.sort()).toEqual([...PROBES.cdnUnpublished, ...PROBES.appServerRefused, ...PROBES.cdnProject].sort());
    for (const url of refused) expect(network.some((m) => m.includes(url)), url).toBe(true);
  });
});

describe('which files of a package are published', () => {
  const json = (name: string) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));

  it("follows `files`, the entry points, and npm's files that are always packed", () => {
    const three = publishedFiles(json('three'));
    expect(three('build/three.module.js')).toBe(true);
    expect(three('examples/jsm/webxr/XRHandModelFactory.js')).toBe(true);
    expect(three('LICENSE')).toBe(true);
    expect(three('examples/screenshots/webxr_vr.jpg')).toBe(false);
    // `exports` targets are published even where `files` names no folder of theirs.
    expect(three('examples/fonts/helvetiker_regular.typeface.json')).toBe(true);
    const symbols = publishedFiles(json('@material-symbols/svg-400'));
    expect(symbols('outlined/shift.svg')).toBe(true);
    expect(symbols('README.md')).toBe(true);
    expect(symbols('outlined/nested/shift.svg')).toBe(false);
    // A later `!` entry excludes what an earlier entry included.
    const litHtml = publishedFiles(json('lit-html'));
    expect(litHtml('development/lit-html.js')).toBe(true);
    expect(litHtml('development/test/lit-html_test.js')).toBe(false);
    // A bare name matches at any depth, as in .gitignore.
    expect(publishedFiles({ files: ['*.js'] })('lib/a.js')).toBe(true);
    expect(publishedFiles({ files: ['/*.js'] })('lib/a.js')).toBe(false);
  });

  it('never publishes dotfiles, dot-folders or nested node_modules, whatever `files` says', () => {
    for (const fields of [{}, { files: ['**', '.env', '.git'] }]) {
      const published = publishedFiles(fields);
      expect(published('index.js')).toBe(true);
      for (const path of ['.env', '.git/config', 'src/.secret', 'node_modules/dep/index.js', 'a/node_modules/b.js']) expect(published(path), path).toBe(false);
    }
  });

  it('takes as installed only a package root in a node_modules folder', () => {
    expect(isInstalledRoot('/p/node_modules/three')).toBe(true);
    expect(isInstalledRoot('/p/node_modules/@scope/name')).toBe(true);
    expect(isInstalledRoot('/p/node_modules/.pnpm/three@1.0.0/node_modules/three')).toBe(true);
    expect(isInstalledRoot('/p/node_modules/three/node_modules/dep')).toBe(true);
    expect(isInstalledRoot('/home/me/project')).toBe(false);
    expect(isInstalledRoot('/home/me/@scope/project')).toBe(false);
  });
});

describe('the project as a package', () => {
  it('is served by `/@pkg/` only where it is the app directory itself, and then only its published files', () => {
    const app = join(hostileLayout(), '..');
    const resolver = new PackageResolver(app);
    const mount = resolver.mount('/@pkg/xrsim-hostile-project/index.js');
    expect(mount).toMatchObject({ dir: app, rest: '/index.js' });
    expect(mount?.allow?.('index.js')).toBe(true);
    expect(mount?.allow?.('.env')).toBe(false);
    // From its app directory below, the same project is no package the page was given.
    expect(new PackageResolver(join(app, 'web')).mount('/@pkg/xrsim-hostile-project/index.js')?.dir).not.toBe(app);
  });
});
