/**
 * Offline pages, Node side (docs/BROWSER.md, "Offline assets"): every CDN URL form published pages use is
 * answered from an installed package, the version a URL names picks among installed copies, a package
 * installed nowhere is refused with the `npm i` that would serve it, and the page's own import map keeps
 * its mappings.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { injectImportMap, pageImportMapSpecifiers } from '../src/browser/browser-app.js';
import { parseCdnUrl } from '../src/browser/cdn-urls.js';
import { PackageResolver, proxyModule } from '../src/browser/packages.js';
import { tempDir } from './helpers/cli.js';

const packages = new PackageResolver(process.cwd());

describe('CDN URL forms', () => {
  it.each([
    ['https://esm.sh/lit@3.3.1', { name: 'lit', version: '3.3.1', path: '' }],
    ['https://esm.sh/v135/*lit@3.3.1/decorators.js?target=es2022', { name: 'lit', version: '3.3.1', path: 'decorators.js', module: true }],
    ['https://esm.sh/bidi-js@%5E1.0.2?target=es2022', { name: 'bidi-js', version: '^1.0.2', path: '' }],
    ['https://esm.sh/webgl-sdf-generator@1.1.1/es2022/webgl-sdf-generator.mjs', { name: 'webgl-sdf-generator', version: '1.1.1', path: '' }],
    ['https://esm.sh/lit@3.3.1/es2022/decorators.development.mjs', { name: 'lit', version: '3.3.1', path: 'decorators', module: true }],
    ['https://cdn.jsdelivr.net/npm/lit@3/+esm', { name: 'lit', version: '3', path: '' }],
    ['https://cdn.jsdelivr.net/npm/@pmndrs/uikit@1.0.64/dist/index.min.js', { name: '@pmndrs/uikit', version: '1.0.64', path: 'dist/index.min.js' }],
    ['https://cdn.jsdelivr.net/gh/marella/material-symbols@v0.33.0/svg/400/outlined/shift.svg', { name: '@material-symbols/svg-400', version: '0.33.0', path: 'outlined/shift.svg' }],
    ['https://cdn.jsdelivr.net/gh/protectwise/troika@v0.52.4/packages/troika-three-utils/src/index.js', { name: 'troika-three-utils', version: '0.52.4', path: 'src/index.js' }],
  ])('%s', (url, expected) => {
    expect(parseCdnUrl(url)).toMatchObject(expected);
  });

  it('tells a GitHub file that is no npm package apart', () => {
    expect(parseCdnUrl('https://cdn.jsdelivr.net/gh/xrblocks/assets@5582bd1/simulator/scenes/a.glb')).toEqual({ github: 'xrblocks/assets@5582bd1/simulator/scenes/a.glb' });
  });
});

describe('answering CDN URLs from installed packages', () => {
  it('serves the WebXR input profiles, jsDelivr-minified files and Material Symbols from their npm packages', () => {
    expect(packages.cdnFile('https://cdn.jsdelivr.net/npm/@webxr-input-profiles/assets@1.0/dist/profiles/profilesList.json')).toMatch(/@webxr-input-profiles\/assets\/dist\/profiles\/profilesList\.json$/);
    expect(packages.cdnFile('https://cdn.jsdelivr.net/npm/@webxr-input-profiles/assets@1.0/dist/profiles/generic-hand/left.glb')).toMatch(/generic-hand\/left\.glb$/);
    expect(packages.cdnFile('https://cdn.jsdelivr.net/npm/@pmndrs/uikit@1.0.64/dist/index.min.js')).toMatch(/@pmndrs\/uikit\/dist\/index\.js$/);
    expect(packages.cdnFile('https://cdn.jsdelivr.net/gh/marella/material-symbols@v0.33.0/svg/400/outlined/shift.svg')).toMatch(/svg-400\/outlined\/shift\.svg$/);
  });

  it("resolves esm.sh module subpaths through the package's exports, and names the file's own URL where it lives elsewhere", () => {
    const entry = packages.cdnAnswer('https://esm.sh/lit@3.3.1');
    expect(entry).toMatchObject({ file: expect.stringMatching(/node_modules\/lit\/index\.js$/), url: 'https://esm.sh/lit@3.3.1/index.js' });
    // The file is where the URL says: no second URL, relative imports resolve as they are.
    expect(packages.cdnAnswer('https://esm.sh/lit@3.3.1/index.js')).toEqual({ file: expect.stringMatching(/lit\/index\.js$/) });
    expect(packages.cdnFile('https://esm.sh/lit@3.3.1/decorators.js')).toMatch(/lit\/decorators\.js$/);
    expect(proxyModule('https://esm.sh/lit@3.3.1/index.js')).toBe('export * from "https://esm.sh/lit@3.3.1/index.js";\nimport * as module from "https://esm.sh/lit@3.3.1/index.js";\nexport default module.default;\n');
  });

  it('refuses a package installed nowhere, naming it and the npm i that serves it', () => {
    expect(packages.cdnAnswer('https://unpkg.com/not-installed-xrsim-package@1.2.0/x.js')).toEqual({
      refused: expect.stringMatching(/the package not-installed-xrsim-package is not installed beside the page, in the project or in xrsim \(npm i not-installed-xrsim-package@1\.2\.0 serves it\)/),
    });
    expect(packages.cdnAnswer('https://cdn.jsdelivr.net/gh/xrblocks/assets@5582bd1/a.glb')).toEqual({ refused: expect.stringMatching(/GitHub file on jsDelivr/) });
  });

  it('prefers the installed copy whose version the URL asks for: one beside the page over the project', () => {
    const dir = tempDir('xrsim-packages-');
    const copy = join(dir, 'node_modules', 'three');
    mkdirSync(join(copy, 'build'), { recursive: true });
    writeFileSync(join(copy, 'package.json'), JSON.stringify({ name: 'three', version: '0.150.0', main: 'build/three.module.js' }));
    writeFileSync(join(copy, 'build', 'three.module.js'), 'export const REVISION = "150";');
    const beside = new PackageResolver(dir, process.cwd());
    expect(beside.find('three', '0.150.x')?.dir).toBe(copy);
    expect(beside.find('three', '^0.187.0')?.dir).not.toBe(copy);
    expect(beside.find('three', '^0.187.0')?.version).toBe('0.187.0');
    // No copy satisfies it: the first found answers.
    expect(beside.find('three', '0.120.0')?.dir).toBe(copy);
  });

  it('maps the packages a page loads from CDNs and what they import (lit → lit-html, @lit/reactive-element)', () => {
    const html = '<script type="importmap">{"imports":{"lit":"https://esm.sh/lit@3.3.1"}}</script>';
    const { imports } = packages.importMapFor(html, ['three']);
    expect(imports['three']).toMatch(/^\/@pkg\/three\//);
    expect(imports['lit-html']).toMatch(/^\/@pkg\/lit-html\//);
    expect(imports['@lit/reactive-element']).toMatch(/^\/@pkg\/@lit\/reactive-element\//);
  });
});

describe("the page's own import map", () => {
  it('keeps every specifier the page maps and adds the rest before it', () => {
    const html = `<html><head><script type='importmap'>{ "imports": { "three/addons/": "./jsm/", "three": "../build/three.module.js" } }</script></head><body></body></html>`;
    expect([...pageImportMapSpecifiers(html)]).toEqual(['three/addons/', 'three']);
    const out = injectImportMap(html, { imports: { three: '/@pkg/three/build/three.module.js', 'three/addons/': '/@pkg/three/examples/jsm/', 'three/': '/@pkg/three/' } });
    expect(out).toBe(`<html><head><script type="importmap">{"imports":{"three/":"/@pkg/three/"}}</script><script type='importmap'>{ "imports": { "three/addons/": "./jsm/", "three": "../build/three.module.js" } }</script></head><body></body></html>`);
    // Nothing left to add: the page is served as it is.
    expect(injectImportMap(html, { imports: { three: '/x.js' } })).toBe(html);
  });
});
