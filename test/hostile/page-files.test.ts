/**
 * Which files of a package a page may be given (issue 36; docs/BROWSER.md, "Security"): what npm
 * publishes, never dotfiles or nested node_modules, and only packages installed in a node_modules folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInstalledRoot, publishedFiles } from '../../src/browser/package-files.js';
import { ROOT } from '../helpers/cli.js';

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
