/**
 * The documented example runs, as a user would run it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

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
