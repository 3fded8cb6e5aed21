/**
 * Dependencies run one way: every import of `src/`, `kernels/` and `workers/` (type-only and dynamic ones
 * included) follows the layer table in docs/LAYERS.md, and no files import each other in a cycle.
 * The checker proves it can fail on a fixture tree with an upward import, a cycle and a stray file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLayering, codeOnly, parseLayerTable, scanImports } from './helpers/layering.js';
import { ROOT } from './helpers/cli.js';

const FIXTURE = join(ROOT, 'test/fixtures/layering');

describe('layering', () => {
  it('src/, kernels/ and workers/ import only their own or lower layers, without cycles', () => {
    const layers = parseLayerTable(readFileSync(join(ROOT, 'docs/LAYERS.md'), 'utf8'));
    expect(layers.length).toBeGreaterThan(10);
    expect(checkLayering(ROOT, ['src', 'kernels', 'workers'], layers)).toEqual([]);
  });

  it('fails on an upward import, a cycle and a file in no layer, naming file and line', () => {
    const layers = parseLayerTable(readFileSync(join(FIXTURE, 'LAYERS.md'), 'utf8'));
    const problems = checkLayering(FIXTURE, ['low', 'high', 'other'], layers);
    expect(problems).toEqual([
      'other/stray.ts: in no layer; add its folder to the layer table in docs/LAYERS.md',
      'low/base.ts:3: low (level 0) imports high/widget.ts, in the higher layer high (level 10)',
      'low/base.ts:7: low (level 0) imports high/widget.ts, in the higher layer high (level 10)',
      'import cycle: high/a.ts:2 → high/b.ts:1 → high/a.ts',
      'import cycle: high/widget.ts:2 → low/base.ts:3 → high/widget.ts',
    ]);
  });

  it('a file row overrides its folder row (the longest path wins)', () => {
    const layers = parseLayerTable(readFileSync(join(FIXTURE, 'LAYERS.md'), 'utf8'));
    const problems = checkLayering(FIXTURE, ['low', 'high', 'other'], layers);
    expect(problems.filter((p) => p.includes('raised.ts'))).toEqual([]);
  });

  it('reads every form of import and nothing that only looks like one', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      'import {',
      '  c,',
      '  type D,',
      "} from './c.js';",
      "import './side-effect.js';",
      "export { e } from './e.js';",
      "export * from './f.js';",
      "export type { G } from './g.js';",
      "const h = await import('./h.js');",
      "type I = import('./i.js').I;",
      "// import { x } from './comment.js';",
      "/* import { y } from './block.js'; */",
      "const s = `import { z } from './template.js'`;",
      "const r = /['\"]/g; const t = 'import(\"./string.js\")';",
      "const dynamic = await import(pathToFileURL(file).href);",
      "export const j = 1;",
    ].join('\n');
    expect(scanImports(source)).toEqual([
      { line: 1, specifier: './a.js' },
      { line: 2, specifier: '../b.js' },
      { line: 3, specifier: './c.js' },
      { line: 7, specifier: './side-effect.js' },
      { line: 8, specifier: './e.js' },
      { line: 9, specifier: './f.js' },
      { line: 10, specifier: './g.js' },
      { line: 11, specifier: './h.js' },
      { line: 12, specifier: './i.js' },
    ]);
  });

  it('blanks comments and template text but keeps line breaks', () => {
    const code = codeOnly('a // x\n/* y\n z */ b `t\nu` c');
    expect(code.split('\n')).toHaveLength(4);
    expect(code.replace(/\s+/g, ' ').trim()).toBe('a b ` ` c');
  });

  it('refuses a layer table without levels', () => {
    expect(() => parseLayerTable('## Layers\n\n| level | layer | paths |\n|---|---|---|\n| low | x | `x/` |\n')).toThrow(/level must be a whole number/);
    expect(() => parseLayerTable('# Nothing here\n')).toThrow(/no "Layers" heading/);
  });
});
