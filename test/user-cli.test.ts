/**
 * The simulated user on the command line: `xrsim pose`, hand models and perturbation on `run`, and clear
 * errors for bad hand input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const medium = () => JSON.parse(readFileSync(join(ROOT, 'hand-models/medium.json'), 'utf8'));

describe('xrsim pose', () => {
  it('prints 25 WebXR joints by default, with the wrist in front of a standing user’s chest', () => {
    const r = xrsim('pose', 'pinch');
    expect(r.code).toBe(0);
    const { joints } = r.json;
    expect(joints).toHaveLength(25);
    expect(joints[0]).toEqual({ name: 'wrist', position: [0.16, 1.15, -0.3], orientation: [0, 0, 0, 1], radius: 0.0215 });
    expect(joints.map((j: { name: string }) => j.name)).toContain('pinky-finger-tip');
    const tip = (name: string) => joints.find((j: { name: string }) => j.name === name).position;
    const [a, b] = [tip('thumb-tip'), tip('index-finger-tip')];
    expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])).toBeLessThanOrEqual(0.005);
  });

  it('prints 26 OpenXR joints, for either hand and every size', () => {
    const right = xrsim('pose', 'open', '--format', 'openxr-json', '--size', 'large').json.joints;
    const left = xrsim('pose', 'open', '--format', 'openxr-json', '--size', 'large', '--hand', 'left').json.joints;
    expect(right).toHaveLength(26);
    expect(right[0].name).toBe('palm');
    expect(right[25].name).toBe('little-tip');
    // The left wrist is placed at −x; relative to its wrist, the left hand mirrors the right.
    const rel = (joints: { position: number[] }[], j: number) => joints[j].position.map((v, i) => v - joints[1].position[i]);
    const r = rel(right, 10);
    const l = rel(left, 10);
    expect(l[0]).toBeCloseTo(-r[0], 5);
    expect(l[1]).toBeCloseTo(r[1], 5);
    expect(l[2]).toBeCloseTo(r[2], 5);
  });

  it('solves grab for a diameter', () => {
    const small = xrsim('pose', 'grab', '--diameter', '0.04').json.joints;
    const large = xrsim('pose', 'grab', '--diameter', '0.1').json.joints;
    const gap = (joints: { name: string; position: number[] }[]) => {
      const [a, b] = ['thumb-tip', 'index-finger-tip'].map((n) => joints.find((j) => j.name === n)!.position);
      return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    };
    expect(gap(large)).toBeGreaterThan(gap(small));
  });
});

describe('bad hand input exits 2, naming the field', () => {
  it('an unknown pose lists the known ones', () => {
    const r = xrsim('pose', 'wave');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown pose "wave"\. Known poses: fist, frame, grab, open, palm-up, pinch, point, poke, relaxed, thumbs-down, thumbs-up, victory/);
  });

  it('a hand model that violates the schema', () => {
    const model = medium();
    model.joints['thumb-tip'].radius = 'thick';
    const path = join(tempDir(), 'thick.json');
    writeFileSync(path, JSON.stringify(model));
    const r = xrsim('pose', 'open', '--hand-model', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/thick\.json: at \$\.joints\["thumb-tip"\]\.radius: must be number/);
  });

  it('a negative bone length', () => {
    const model = medium();
    model.joints['index-proximal'].length = -0.02;
    const path = join(tempDir(), 'negative.json');
    writeFileSync(path, JSON.stringify(model));
    for (const args of [['pose', 'open', '--hand-model', path], ['run', '--task', 'physics/stack-settle', '--hand-model', path]]) {
      const r = xrsim(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/negative\.json: at \$\.joints\["index-proximal"\]\.length: must be > 0 \(expected a number > 0\)/);
    }
  });

  it('reversed joint limits and an unknown hand model id', () => {
    const model = medium();
    model.joints['index-intermediate'].limits.flexion = [100, 0];
    const path = join(tempDir(), 'reversed.json');
    writeFileSync(path, JSON.stringify(model));
    expect(xrsim('pose', 'open', '--hand-model', path).stderr).toMatch(/at \$\.joints\["index-intermediate"\]\.limits\.flexion: flexion limits are reversed/);
    const r = xrsim('run', '--task', 'physics/stack-settle', '--hand-model', 'huge');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown hand model "huge"\. Known hand models: large, medium, small/);
  });

  it('bad user options in a task name the JSON path', () => {
    const task = JSON.parse(readFileSync(join(ROOT, 'tasks/physics/stack-settle/task.json'), 'utf8'));
    task.user = { posture: 'lying' };
    const path = join(tempDir(), 'lying.json');
    writeFileSync(path, JSON.stringify(task));
    const r = xrsim('run', '--task', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lying\.json: at \$\.user\.posture: must be equal to one of the allowed values/);
  });
});

describe('xrsim run with user options', () => {
  it('runs with another hand model, and perturbation changes the hash with the seed but not the verdict', () => {
    const base = ['run', '--task', 'physics/stack-settle', '--json'];
    const medium = xrsim(...base).json;
    const small = xrsim(...base, '--hand-model', 'small').json;
    expect(small.status).toBe('passed');
    expect(small.hash).not.toBe(medium.hash);
    const p1 = xrsim(...base, '--perturb', '--seed', '1').json;
    const p1again = xrsim(...base, '--perturb', '--seed', '1').json;
    const p2 = xrsim(...base, '--perturb', '--seed', '2').json;
    expect(p1.hash).toBe(p1again.hash);
    expect(p2.hash).not.toBe(p1.hash);
    expect([p1.status, p2.status]).toEqual(['passed', 'passed']);
  });
});
