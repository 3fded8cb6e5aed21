/**
 * The package as others consume it (issue 10, item 9): publint and arethetypeswrong find nothing wrong
 * with the packed tarball; `require('xrsim')` works (the `default` export condition; Node ≥ 20.19 loads
 * ES modules from require); TypeScript projects with `moduleResolution` node16 and bundler compile against
 * `xrsim` and `xrsim/vitest`, the matchers' `Matchers` augmentation included; and a matcher handed
 * something that is not a session result throws instead of quietly failing (or, negated, passing).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installXrsimMatchers, xrsimMatchers } from '../src/vitest/index.js';
import { ROOT, tempDir } from './helpers/cli.js';

const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
const run = (command: string, args: string[], cwd = ROOT) => spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000 });

/** A consumer project whose node_modules/xrsim is this package. */
function consumer(): string {
  const dir = tempDir('xrsim-consumer-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/xrsim'), 'dir');
  return dir;
}

describe('the package', () => {
  it('passes publint (strict)', () => {
    const r = run(bin('publint'), ['--strict']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('passes arethetypeswrong on the packed tarball (ESM only, loadable by require on Node ≥ 20.19)', () => {
    const dir = tempDir();
    const pack = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir]);
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = join(dir, pack.stdout.trim().split('\n').pop()!);
    // cjs-resolves-to-esm: a CommonJS consumer gets the ES module, which require() loads on Node ≥ 20.19
    // (tested below with a real require).
    const r = run(bin('attw'), [tarball, '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('loads with require() from CommonJS', () => {
    const dir = consumer();
    writeFileSync(join(dir, 'main.cjs'), "const x = require('xrsim'); console.log(typeof x.runSweep, typeof x.createSession, require.resolve('xrsim/vitest'));\n");
    const r = run(process.execPath, ['main.cjs'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`function function ${join(ROOT, 'dist/src/vitest/index.js')}`);
  });

  it.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ])('compiles a TypeScript consumer with moduleResolution %s, matcher types included', (_name, options) => {
    const dir = consumer();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] }, files: ['main.ts'] }),
    );
    writeFileSync(
      join(dir, 'main.ts'),
      [
        "import { createSessionPool, runSweep, type SessionResult, type SweepSummary } from 'xrsim';",
        "import { installXrsimMatchers, xrTest } from 'xrsim/vitest';",
        "import { expect } from 'vitest';",
        "import { test as base } from '@playwright/test';",
        "import { XrPage, xrsimFixtures, xrsimLaunchOptions, type XrsimFixture } from 'xrsim/playwright';",
        'installXrsimMatchers();',
        '// xrsim/playwright: the fixture fits Playwright Test\'s extend, the page handle is typed.',
        'export const pwTest = base.extend<{ xr: XrsimFixture }>(xrsimFixtures);',
        "pwTest('types', async ({ xr }) => { const page: XrPage = await xr.open({ dir: 'app', task: 'xr/poke-button' }); await page.step(2); const n: number = page.events('press').length; void n; });",
        'export const launch = xrsimLaunchOptions().executablePath;',
        "export const open: (o: { dir: string; task: string }) => Promise<XrPage> = (o) => XrPage.open(o);",
        "xrTest('types', async ({ xr }) => {",
        "  const result: SessionResult = await xr.run({ task: 'xr/palm-menu', seed: 1 });",
        "  expect(result).toPassMilestone('menu-on-palm');",
        '  expect(result).not.toPassAllMilestones();',
        "  expect(result).toHaveSessionStatus('passed');",
        '});',
        'export const pool: typeof createSessionPool = createSessionPool;',
        'export type Summary = SweepSummary;',
        'export const sweep = runSweep;',
        '',
      ].join('\n'),
    );
    // vitest resolves from this package's own node_modules, as a user's project has its own.
    symlinkSync(join(ROOT, 'node_modules/vitest'), join(dir, 'node_modules/vitest'), 'dir');
    symlinkSync(join(ROOT, 'node_modules/@playwright'), join(dir, 'node_modules/@playwright'), 'dir');
    const r = run(bin('tsc'), ['-p', 'tsconfig.json'], dir);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('states the Node version its tests need, and a vitest peer range that says what works', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.peerDependencies.vitest).toBe('^3.2.0 || ^4');
    expect(pkg.exports['.'].default).toBe('./dist/src/index.js');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/Node(\.js)? 20\.19 or later/);
  });
});

describe('matchers are strict about what they are given', () => {
  installXrsimMatchers();
  it.each([undefined, null, 42, { status: 'passed' }, 'passed'])('%j is not a session result: the matcher throws', (value) => {
    expect(() => xrsimMatchers.toPassMilestone(value, 'x')).toThrow(/expected a session result/);
    expect(() => xrsimMatchers.toPassAllMilestones(value)).toThrow(/expected a session result/);
    expect(() => xrsimMatchers.toHaveSessionStatus(value, 'passed')).toThrow(/expected a session result/);
    // Negated, it throws too: `expect(undefined).not.toPassMilestone('x')` must never pass.
    expect(() => expect(value).not.toPassMilestone('x')).toThrow(/expected a session result/);
  });
});
