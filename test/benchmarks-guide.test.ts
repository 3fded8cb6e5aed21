/**
 * docs/BENCHMARKS.md as a user follows it: every `npx xrsim` command in its `sh` blocks is run, in order,
 * from the repository root (its output folders in a temporary one), and what the guide says of each holds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResultLines, ROOT, tempDir, xrsim } from './helpers/cli.js';

/** The guide's commands: each `npx xrsim ...` line of its sh blocks, split into arguments (quotes removed). */
function guideCommands(): string[][] {
  const text = readFileSync(join(ROOT, 'docs/BENCHMARKS.md'), 'utf8');
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) => b.split('\n')).filter((line) => line.startsWith('npx xrsim ')).map((line) => [...line.slice('npx xrsim '.length).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]));
}

describe('docs/BENCHMARKS.md', () => {
  it('runs every command it shows, with the outcomes it describes', () => {
    const commands = guideCommands();
    expect(commands.map((c) => c[0])).toEqual(['run', 'sweep', 'rank', 'flaky']);
    const dir = tempDir('xrsim-guide-');
    const outside = (args: string[]) => args.map((a) => (a === 'bench-out' || a === 'bench-flaky' ? join(dir, a) : a));
    const [run, sweep, rank, flaky] = commands.map(outside);

    const one = xrsim(...run);
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/FAIL {2}every-spawn-at-pinch-point/);
    expect(one.stdout).toMatch(/pass {2}a-ball-per-pinch/);

    const swept = xrsim(...sweep, '--json');
    expect(swept.code, swept.stderr).toBe(1); // two of the three candidates fail
    const byApp = Object.fromEntries(swept.json.apps.map((a: { app: string; passAt1: { passed: number } }) => [a.app.split('/').pop(), a.passAt1.passed]));
    expect(byApp).toEqual({ 'correct.mjs': 1, 'first-pinch-only.mjs': 0, 'second-at-wrist.mjs': 0 });
    expect(swept.json.sessions).toBe(3 * 2 * 3 * 2); // candidates × scenes × seeds × hands
    for (const line of readResultLines(join(dir, 'bench-out'))) expect(line.appSha256).toMatch(/^[0-9a-f]{64}$/);

    const ranked = xrsim(...rank);
    expect(ranked.code, ranked.stderr).toBe(0);
    expect(ranked.stdout).toMatch(/^1\s+correct\.mjs\s/m);
    expect(ranked.stdout).toMatch(/P\(row beats column\) by Pass@1/);

    const flakes = xrsim(...flaky, '--json');
    expect(flakes.code, flakes.stderr).toBe(0);
    expect(flakes.json).toMatchObject({ runs: 3, flipRate: 0, pairs: 1, pairFlipRate: 0 });
  });
});
