/**
 * Bad sensing input gets a clear error naming the field, from a session spec, a task file and a scene.
 */
import { describe, expect, it } from 'vitest';
import { createSession, loadScene, XrsimInputError, type SceneSpec } from '../src/index.js';
import { benchTask } from './helpers/user.js';

async function inputError(run: () => Promise<unknown> | unknown): Promise<XrsimInputError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(XrsimInputError);
    return err as XrsimInputError;
  }
  throw new Error('expected an XrsimInputError');
}

describe('bad sensing input', () => {
  const cases: [string, object, string][] = [
    ['a resolution of 0', { depth: { width: 0 } }, '$.sensing.depth.width'],
    ['a resolution above 4096', { depth: { height: 4097 } }, '$.sensing.depth.height'],
    ['a field of view of 180°', { depth: { horizontalFovDeg: 180 } }, '$.sensing.depth.horizontalFovDeg'],
    ['an unknown noise preset', { depth: { noise: 'kinect' } }, '$.sensing.depth.noise'],
    ['an unknown option', { planes: { latancy: 1 } }, '$.sensing.planes.latancy'],
  ];
  for (const [what, sensing, path] of cases) {
    it(`names ${path} for ${what} in a session spec`, async () => {
      const err = await inputError(() => createSession({ task: benchTask(), seed: 1, sensing: sensing as never }));
      expect(err.jsonPath).toBe(path);
      expect(err.file).toBe('<session spec>');
    });
    it(`names ${path} for ${what} in a task`, async () => {
      const err = await inputError(() => createSession({ task: benchTask({ sensing: sensing as never }), seed: 1 }));
      expect(err.jsonPath).toBe(path);
    });
  }

  it('explains the preset names when the preset is unknown', async () => {
    const err = await inputError(() => createSession({ task: benchTask(), seed: 1, sensing: { depth: { noise: 'kinect' as never } } }));
    expect(err.message).toMatch(/ideal/);
    expect(err.message).toMatch(/phone-tof/);
  });

  it('rejects min range at or beyond max range', async () => {
    const err = await inputError(() => createSession({ task: benchTask(), seed: 1, sensing: { depth: { minRange: 3, maxRange: 2 } } }));
    expect(err.jsonPath).toBe('$.sensing.depth.minRange');
  });

  const withTableTop = (points: [number, number][]): SceneSpec => {
    const scene = structuredClone(loadScene('empty-lab').spec);
    scene.surfaces.push({ id: 'slab', label: 'table', material: 'vinyl', position: [-2, 0.5, 2.5], shape: { type: 'polygon', points, thickness: 0.04 } });
    return scene;
  };
  for (const [what, points] of [
    ['collinear points', [[0, 0], [0.5, 0], [1, 0]]],
    ['two points', [[0, 0], [0.5, 0]]],
    ['a repeated point', [[0, 0], [0.5, 0], [0.5, 0], [0, 0.5]]],
    ['a non-convex outline', [[0, 0], [1, 0], [0.2, 0.2], [0, 1]]],
  ] as [string, [number, number][]][]) {
    it(`names the polygon of a surface with ${what}`, () => {
      const err = (() => {
        try {
          loadScene(withTableTop(points));
        } catch (e) {
          return e as XrsimInputError;
        }
        throw new Error('expected an error');
      })();
      expect(err).toBeInstanceOf(XrsimInputError);
      expect(err.jsonPath).toBe(`$.surfaces[${loadScene('empty-lab').spec.surfaces.length}].shape.points`);
    });
  }

  it('accepts a convex polygon in either winding and makes it a plane', async () => {
    for (const points of [[[-0.4, -0.25], [0.4, -0.25], [0.4, 0.25], [-0.4, 0.25]], [[-0.4, -0.25], [-0.4, 0.25], [0.4, 0.25], [0.4, -0.25]]] as [number, number][][]) {
      const scene = withTableTop(points);
      const session = await createSession({ task: benchTask({ scene: 'empty-lab' }), scene, seed: 1, sensing: { planes: true } });
      const slab = session.model.statics.findIndex((s) => s.id === 'slab');
      const candidate = session.sensing.planes!.candidates().find((c) => c.surface === slab)!;
      expect(candidate).toMatchObject({ label: 'table', orientation: 'horizontal' });
      session.dispose();
    }
  });

  it('rejects runtime surfaces with unknown materials or taken ids, naming the field', async () => {
    const session = await createSession({ task: benchTask(), seed: 1 });
    const material = await inputError(() => session.environment.addSurface({ id: 'crate', label: 'table', material: 'gold', position: [0, 0, 0], shape: { type: 'box', size: [1, 1, 1] } }));
    expect(material.jsonPath).toBe('$.material');
    const taken = await inputError(() => session.environment.addSurface({ id: 'floor', label: 'table', material: 'vinyl', position: [0, 0, 0], shape: { type: 'box', size: [1, 1, 1] } }));
    expect(taken.jsonPath).toBe('$.id');
    const unknown = await inputError(() => session.environment.removeSurface('scene:sofa'));
    expect(unknown.message).toMatch(/no surface "scene:sofa"/);
    expect(unknown.expected).toMatch(/scene:floor/);
    const old = await inputError(() => session.environment.removeSurface('floor'));
    expect(old.message).toMatch(/"floor" is the old spelling: write "scene:floor"/);
    session.dispose();
  });
});
