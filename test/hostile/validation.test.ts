/**
 * Validation that a hostile file cannot stall or fool: a schema error in a million-item array is found
 * at its first item (collecting every error took minutes), lists of known names in errors are bounded,
 * and a user's name that is also a member of `Object.prototype` ("constructor", "__proto__", ...) is an
 * unknown name, never a lookup that finds the prototype. The time of the million-item case is the bench
 * figure `hostile_validation_s` (bench/hostile.ts), not asserted here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { XrsimInputError } from '../../src/errors.js';
import { loadHandModel } from '../../src/hand/hand-model.js';
import { resolvePose } from '../../src/hand/poses.js';
import { listNames, ownEntry } from '../../src/json/names.js';
import { options } from '../../src/user/arguments.js';
import { ROOT, tempDir, xrsim } from '../helpers/cli.js';

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

function readJson(relative: string): any {
  return JSON.parse(readFileSync(join(ROOT, relative), 'utf8'));
}

/** Writes `doc` as `name` in a fresh folder and returns its path. */
function written(name: string, doc: unknown): string {
  const path = join(tempDir('xrsim-validation-'), name);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

describe('a task with a million wrong array items', () => {
  it('is bad input (exit 2) naming the first wrong item, with one problem and no count of the rest', () => {
    const task = readJson('tasks/physics/stack-settle/task.json');
    task.bodies = new Array(1_000_000).fill(1);
    const file = written('million.json', task);
    const result = xrsim('run', '--task', file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}: at $.bodies[0]: must be object (expected object)`);
    expect(result.stderr).not.toMatch(/more problem/);
    expect(result.stderr.length).toBeLessThan(1000);
  });

  it('still names the first wrong item when it is the last one', () => {
    const task = readJson('tasks/physics/stack-settle/task.json');
    const body = task.bodies[0];
    task.bodies = Array.from({ length: 20_000 }, (_, i) => ({ ...body, id: `b${i}` }));
    task.bodies[19_999].mass = 'heavy';
    const result = xrsim('run', '--task', written('last.json', task));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('at $.bodies[19999].mass: must be number');
  });

  it('lists at most 20 of its 20,000 bodies when a reference names none of them', () => {
    const task = readJson('tasks/physics/stack-settle/task.json');
    const body = task.bodies[0];
    task.bodies = Array.from({ length: 20_000 }, (_, i) => ({ ...body, id: `b${i}` }));
    const result = xrsim('run', '--task', written('many.json', task));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown body "block-1" \(expected one of the task's bodies: b0, b1, .*, b19 … and 19980 more\)/);
    expect(result.stderr.length).toBeLessThan(1000);
  });
});

describe.each(PROTOTYPE_NAMES)('the name %j, which Object.prototype has', (name) => {
  it('is an unknown scene surface material (exit 2)', () => {
    const scene = readJson('scenes/empty-lab.json');
    scene.surfaces[0].material = name;
    const result = xrsim('run', '--task', 'physics/stack-settle', '--scene', written('scene.json', scene));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`at $.surfaces[0].material: unknown material "${name}" (expected one of the scene's materials: plaster,`);
  });

  it('is an unknown task fixture material (exit 2)', () => {
    const task = readJson('tasks/physics/material-curling/task.json');
    task.fixtures[0].material = name;
    const result = xrsim('run', '--task', written('task.json', task));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`at $.fixtures[0].material: unknown material "${name}" (expected one of the task's materials: ice, boards)`);
  });

  it('is an unknown placement anchor (exit 2, not a TypeError)', () => {
    const task = readJson('tasks/physics/stack-settle/task.json');
    task.placement.anchor = name;
    const result = xrsim('run', '--task', written('task.json', task));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`at $.placement.anchor: scene "empty-lab" has no anchor "${name}"`);
    expect(result.stderr).not.toMatch(/TypeError|Cannot read/);
  });

  it('is an app the task does not have (exit 2)', () => {
    const result = xrsim('run', '--task', 'xr/poke-button', '--app', name);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`task "xr/poke-button" has no app "${name}"`);
  });

  it('is an unknown pose, an unknown option of an actor verb, and no entry of any table', () => {
    expect(() => resolvePose(name, loadHandModel('medium'))).toThrow(XrsimInputError);
    expect(() => resolvePose(name, loadHandModel('medium'))).toThrow(`unknown pose "${name}"`);
    const check = options({ duration: () => null });
    expect(check(JSON.parse(`{${JSON.stringify(name)}: 1}`))).toBe(`an options object { duration } (${JSON.stringify(name)} is not one of them)`);
    expect(ownEntry({ reference: 1 }, name)).toBeUndefined();
    expect(ownEntry(JSON.parse(`{${JSON.stringify(name)}: 7}`), name)).toBe(7);
  });
});

describe('lists of names in errors', () => {
  it('show every name up to 20 and then how many more there are', () => {
    expect(listNames(['a', 'b'])).toBe('a, b');
    expect(listNames([])).toBe('');
    const names = Array.from({ length: 21 }, (_, i) => `n${i}`);
    expect(listNames(names.slice(0, 20))).toBe(names.slice(0, 20).join(', '));
    expect(listNames(names)).toBe(`${names.slice(0, 20).join(', ')} … and 1 more`);
    expect(listNames(new Set(names), 3)).toBe('n0, n1, n2 … and 18 more');
  });
});
