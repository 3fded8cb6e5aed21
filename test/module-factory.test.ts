/**
 * Module bodies as factories (`src/app/module-factory.ts`): the rewrite keeps every line and column of the
 * body, refuses what it could change the meaning of, and sessions on a worker (which run programs through
 * factories) give the hashes of one thread (which imports them as modules), also when the app throws, in its
 * top-level code, in a file it imports, or with an error its top-level code made, and when its default export
 * is an expression.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSessionPool, type SessionSpec } from '../src/index.js';
import { MODULE_BODY, planFactory } from '../src/app/module-factory.js';
import { ROOT, tempDir } from './helpers/cli.js';
import { tinyTask } from './helpers/tiny-task.js';

const isProgram = (specifier: string) => specifier.startsWith('.');

describe('the rewrite', () => {
  const source = [
    "import { helper } from './helper.mjs'; import { xr } from 'xrsim';",
    '// state of its own',
    'let frames = 0;',
    'export const { setup, frame } = helper({ count: () => frames++ });',
    'export function named() { return xr; }',
    'function local() {}',
    'export { local as renamed };',
    'export default function* (a) {',
    '  yield a.wait(1);',
    '}',
  ].join('\n');
  const plan = planFactory(source, isProgram)!;

  it('keeps every line and column of the body, and exports what the module exports', () => {
    expect(plan).not.toBeNull();
    const lines = plan.source.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^export function ${MODULE_BODY}\\(`));
    const original = source.split('\n');
    for (let i = 1; i < original.length; i++) {
      // Only `export` keywords became spaces (and a default export's holder took the place of its keywords).
      const withoutExports = original[i].replace(/^export \{.*\};$/, (m) => ' '.repeat(m.length)).replace(/^export default /, '__xd={default: ').replace(/^export /, '       ');
      expect(lines[i].startsWith(withoutExports) || lines[i] === `${withoutExports}};`, `line ${i + 1}: ${lines[i]}`).toBe(true);
    }
    expect(plan.programImports).toEqual(['./helper.mjs']);
    expect(plan.exportNames).toEqual(['setup', 'frame', 'named', 'renamed', 'default']);
    expect(plan.source).toContain("import { xr } from 'xrsim';");
  });

  it('is refused for whatever it could change the meaning of', () => {
    const refused = {
      'import.meta': "// x\nexport const here = import.meta.url;",
      'dynamic import': "// x\nexport async function load() { return import('./other.mjs'); }",
      'a namespace import': "import * as helpers from './helper.mjs';\nexport const x = helpers;",
      'a re-export': "// x\nexport { helper } from './helper.mjs';",
      'an exported binding assigned later (a live binding)': '// x\nexport let count = 0;\nexport function more() { count++; }',
      'code on line 1': 'export function frame() {}',
      'eval': '// x\nexport function run(code) { return eval(code); }',
      'arguments': '// x\nexport function all() { return arguments; }',
      'import attributes': "import data from './data.json' with { type: 'json' };\nexport const x = data;",
      'a syntax error': '// x\nexport function (',
    };
    for (const [what, source] of Object.entries(refused)) expect(planFactory(source, isProgram), what).toBeNull();
  });
});

describe('sessions on a worker, with factories, against one thread, with modules', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'lib'), { recursive: true });
  writeFileSync(join(dir, 'lib', 'deep.mjs'), '// a helper in a file of its own\nexport function check(frame) {\n  if (frame.time > 0.03) throw new RangeError(`late: ${frame.time}`);\n}\n');
  const apps: Record<string, string> = {
    'throws-in-import': "import { check } from './lib/deep.mjs';\nlet calls = 0;\nexport function frame(frame, ctx) {\n  calls++;\n  ctx.emit('call', { calls });\n  check(frame);\n}\n",
    'throws-at-top-level': '// throws while the module is evaluated\nconst limit = 1;\nif (limit > 0) throw new TypeError("no app today");\nexport function frame() {}\n',
    'throws-error-made-at-load': '// an error made by the top-level code (its stack is where it was made), thrown later\nconst prepared = new Error("made at load");\nexport function frame() {\n  throw prepared;\n}\n',
    'anonymous-default': "// a default export that is an expression\nexport default { note: 'unused' };\nexport const frame = (frame, ctx) => {\n  if (frame.time > 0.03) ctx.emit('late', { at: frame.time });\n};\n",
  };
  const specs: SessionSpec[] = Object.entries(apps).map(([name, source]) => ({ task: tinyTask(dir, name, source), app: 'reference', scene: 'office', seed: 3, dominantHand: 'right' }));

  it('give the same hash in a worker\'s first three sessions as in one thread', async () => {
    // One thread: plain Node on the compiled library, as users run it (this test runner imports apps its own way,
    // which frames a module's top-level code differently).
    const script = `const { runSession } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/src/index.js')).href)});
      const out = [];
      for (const spec of ${JSON.stringify(specs)}) out.push(await runSession(spec));
      console.log(JSON.stringify(out.map((r) => ({ hash: r.hash, status: r.status, appErrors: r.appErrors, error: r.error }))));`;
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const alone = JSON.parse(stdout.trim().split('\n').pop()!) as { hash: string; status: string; appErrors: number; error?: { message: string } }[];
    expect(alone[0].appErrors).toBeGreaterThan(0);
    expect(alone[1].status).toBe('errored');
    const pool = createSessionPool(1);
    try {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < specs.length; i++) {
          const { result } = await pool.run(specs[i]);
          expect({ hash: result.hash, status: result.status, error: result.error?.message }, `${specs[i].task} session ${round + 1}`).toEqual({ hash: alone[i].hash, status: alone[i].status, error: alone[i].error?.message });
        }
      }
    } finally {
      await pool.close();
    }
  });
});
