/**
 * The documented example runs, as a user would run it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

describe('docs/examples/user.mjs', () => {
  it('pokes within the limit, pinches, and reports the unreachable target', () => {
    const child = spawnSync(process.execPath, [join(ROOT, 'docs/examples/user.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const poke = /index tip: ([\d.]+) mm into surface/.exec(child.stdout);
    expect(Number(poke![1])).toBeGreaterThan(2.5);
    expect(Number(poke![1])).toBeLessThanOrEqual(3);
    expect(child.stdout).toMatch(/pinch: thumb tip to index tip [0-4]\.\d mm, tracked true/);
    expect(child.stdout).toMatch(/tick \d+: target-unreachable/);
    expect(child.stdout).toMatch(/result: passed/);
  });
});

describe('docs/examples/embed.mjs', () => {
  it('runs and shows what it promises', () => {
    const child = spawnSync(process.execPath, [join(ROOT, 'docs/examples/embed.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toMatch(/physics\/stack-settle in office: passed, score 1, hash [0-9a-f]{16}/);
    expect(child.stdout).toMatch(/pass reaches-first-checkpoint/);
    expect(child.stdout).toMatch(/diverges at tick 101 in bodies/);
  });
});
