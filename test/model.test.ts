/**
 * SimModel: immutable, validated, content-hashed; the hash depends on content, not on key order or machine.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildModel, canonicalJson, loadScene, loadTask, XrsimInputError, type SceneSpec } from '../src/index.js';
import { ROOT } from './helpers/cli.js';

const build = (task = 'physics/rolling-ball-checkpoints', scene?: string | SceneSpec) => {
  const t = loadTask(task);
  return buildModel(loadScene(scene ?? t.spec.scene), t);
};

/** Recursively reverses the key order of every object. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)]));
  return value;
}

describe('SimModel', () => {
  it('is deep-frozen', () => {
    const model = build();
    expect(Object.isFrozen(model)).toBe(true);
    expect(Object.isFrozen(model.bodies[0].pose.position)).toBe(true);
    expect(() => {
      (model.timing as { dt: number }).dt = 1;
    }).toThrow(TypeError);
  });

  it('has the same hash for the same content whatever the key order', () => {
    const scene = loadScene('kitchen').spec;
    const a = build('physics/stack-settle', scene);
    const b = build('physics/stack-settle', reverseKeys(scene) as SceneSpec);
    expect(canonicalJson(reverseKeys(scene))).toBe(canonicalJson(scene));
    expect(b.hash).toBe(a.hash);
  });

  it('has the same hash in another process', () => {
    const here = build().hash;
    const script = `import('${ROOT}dist/src/index.js').then(m => { const t = m.loadTask('physics/rolling-ball-checkpoints'); console.log(m.buildModel(m.loadScene(t.spec.scene), t).hash); })`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe(here);
  });

  it('changes hash when the content changes', () => {
    const scene = structuredClone(loadScene('office').spec);
    const before = build('physics/stack-settle', scene).hash;
    scene.props[0].friction += 0.01;
    expect(build('physics/stack-settle', scene).hash).not.toBe(before);
  });

  it('creates bodies in a fixed order: scene props, then task bodies', () => {
    const model = build('physics/stack-settle', 'living-room');
    const scene = loadScene('living-room').spec;
    expect(model.bodies.map((b) => `${b.origin}:${b.id}`)).toEqual([
      ...scene.props.map((p) => `scene:${p.id}`),
      'task:block-1', 'task:block-2', 'task:block-3', 'task:block-4', 'task:block-5',
    ]);
  });

  it('places task objects in the scene anchor frame', () => {
    const scene = loadScene('kitchen').spec;
    const model = build('physics/stack-settle', 'kitchen');
    const anchor = scene.anchors['open-floor'].position;
    const block = model.bodies.find((b) => b.id === 'block-1')!;
    expect(block.pose.position[0]).toBeCloseTo(anchor[0], 9);
    expect(block.pose.position[2]).toBeCloseTo(anchor[2], 9);
  });

  it('spreads each prop’s mass over its volume as collider density', () => {
    const model = build('physics/rolling-ball-checkpoints');
    const ball = model.bodies.find((b) => b.id === 'ball')!;
    const collider = model.colliders[ball.colliders[0]];
    expect(collider.density * (4 / 3) * Math.PI * 0.0286 ** 3).toBeCloseTo(0.17, 9);
  });

  it('refuses a scene whose anchor is too small for the task, naming both', () => {
    const scene = structuredClone(loadScene('office').spec);
    scene.anchors['open-floor'].clear = [2, 1];
    expect(() => build('physics/material-curling', scene)).toThrow(XrsimInputError);
    expect(() => build('physics/material-curling', scene)).toThrow(/anchor "open-floor" is clear for 2 × 1 m, but the task needs 3.6 × 1 m/);
  });
});
