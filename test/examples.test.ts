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

describe('docs/examples/sensing.mjs', () => {
  it('discovers planes only after they are seen, hits the bench and loses the anchor with the crate', () => {
    const child = spawnSync(process.execPath, [join(ROOT, 'docs/examples/sensing.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const out = child.stdout;
    const before = out.slice(0, out.indexOf('turning to the bench'));
    expect(before).not.toMatch(/lab-bench/);
    const bench = /(\d+\.\d+) s: plane \d+ added: scene:lab-bench \(table, horizontal\)/.exec(out);
    expect(Number(bench![1])).toBeGreaterThanOrEqual(3.5);
    expect(out).toMatch(/hit test: scene:lab-bench at [\d.]+ m, y = 0\.740/);
    const crate = /(\d+\.\d+) s: plane \d+ added: scene:crate \(table, horizontal\)/.exec(out);
    expect(Number(crate![1])).toBeGreaterThanOrEqual(6.5);
    expect(out).toMatch(/plane-removed[\s\S]*anchor-lost/);
    expect(out).toMatch(/anchor tracked: false/);
    expect(out).toMatch(/result: passed/);
  });
});

describe('docs/examples/vitest (the README example of xrsim/vitest)', () => {
  it('passes as a project of its own', () => {
    const dir = join(ROOT, 'docs/examples/vitest');
    const child = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], { cwd: dir, encoding: 'utf8' });
    expect(child.status, child.stdout + child.stderr).toBe(0);
    expect(child.stdout).toMatch(/2 passed/);
  });
});
