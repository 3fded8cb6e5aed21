/**
 * The shipped rooms are real rooms: realistic dimensions, registry labels, physical props, and they hold
 * still when simulated.
 */
import { describe, expect, it } from 'vitest';
import { composePose, partsOf, placedShapeAabb, quatFromEulerDeg, type Pose } from '../src/geometry/math.js';
import { listSceneIds, loadScene, runSession, SEMANTIC_LABELS, type SceneSpec, type SurfaceSpec } from '../src/index.js';

const SCENES = ['living-room', 'kitchen', 'office', 'empty-lab'];

/** World bounding boxes of an object's parts. */
function partBoxes(object: SurfaceSpec) {
  const pose: Pose = { position: object.position, rotation: quatFromEulerDeg(object.eulerDeg) };
  return partsOf(object).map((part) => placedShapeAabb(part.shape, composePose(pose, part.pose)));
}
const top = (object: SurfaceSpec) => Math.max(...partBoxes(object).map((b) => b.max[1]));
/** Tops of the horizontal parts (wider than tall): seats, shelves, table tops. */
const flatTops = (object: SurfaceSpec) =>
  partBoxes(object)
    .filter((b) => b.max[0] - b.min[0] > b.max[1] - b.min[1] && b.max[2] - b.min[2] > b.max[1] - b.min[1])
    .map((b) => b.max[1]);

describe('scene library', () => {
  it('ships the four rooms', () => {
    expect(listSceneIds()).toEqual(expect.arrayContaining(SCENES));
  });

  describe.each(SCENES)('%s', (id) => {
    const scene: SceneSpec = loadScene(id).spec;

    it('has walls 2.4–2.8 m high and a floor at y = 0', () => {
      expect(scene.room.size[1]).toBeGreaterThanOrEqual(2.4);
      expect(scene.room.size[1]).toBeLessThanOrEqual(2.8);
      const walls = scene.surfaces.filter((s) => s.label === 'wall');
      expect(walls.length).toBeGreaterThanOrEqual(4);
      for (const wall of walls) expect(top(wall)).toBeCloseTo(scene.room.size[1], 1);
      const floor = scene.surfaces.find((s) => s.label === 'floor')!;
      expect(top(floor)).toBeCloseTo(0, 6);
    });

    it('has tables and desks 0.72–0.76 m high, counters about 0.9 m, coffee tables lower', () => {
      const tables = scene.surfaces.filter((s) => s.label === 'table' || s.label === 'desk');
      expect(tables.length).toBeGreaterThan(0);
      for (const table of tables) {
        const height = top(table);
        if (table.id.includes('counter')) expect(height, table.id).toBeGreaterThanOrEqual(0.88), expect(height).toBeLessThanOrEqual(0.92);
        else if (table.id.includes('coffee-table')) expect(height, table.id).toBeLessThanOrEqual(0.5);
        else expect(height, table.id).toBeGreaterThanOrEqual(0.72), expect(height, table.id).toBeLessThanOrEqual(0.76);
      }
    });

    it('has seats about 0.45 m high', () => {
      const seats = scene.surfaces.filter((s) => s.label === 'couch' || s.id.includes('chair'));
      for (const seat of seats) {
        expect(flatTops(seat).some((h) => h >= 0.42 && h <= 0.48), `${seat.id} seat height`).toBe(true);
      }
    });

    it('labels every surface from the WebXR semantic-label registry, with doors and a ceiling', () => {
      for (const s of scene.surfaces) expect(SEMANTIC_LABELS).toContain(s.label);
      const labels = new Set(scene.surfaces.map((s) => s.label));
      for (const needed of ['floor', 'wall', 'ceiling', 'door']) expect(labels).toContain(needed);
    });

    it('has physical props with mass, friction and restitution', () => {
      expect(scene.props.length).toBeGreaterThanOrEqual(3);
      for (const p of scene.props) {
        expect(p.mass).toBeGreaterThan(0);
        expect(p.mass).toBeLessThan(5);
        expect(p.friction).toBeGreaterThan(0);
        expect(p.restitution).toBeGreaterThanOrEqual(0);
      }
    });

    it('has an open-floor anchor big enough for the physics tasks', () => {
      const [length, width] = scene.anchors['open-floor'].clear;
      expect(length).toBeGreaterThanOrEqual(3.6);
      expect(width).toBeGreaterThanOrEqual(1.0);
    });

    it('holds still: no prop moves more than 5 mm when simulated for 2 s', async () => {
      const frames: Float32Array[] = [];
      const result = await runSession(
        { task: 'physics/stack-settle', scene: id, seed: 1, duration: 2 },
        { onFrame: (f) => (f.tick === 0 || f.tick === 180) && frames.push(f.bodyPoses.slice()) },
      );
      expect(result.status).toBe('passed');
      for (let i = 0; i < scene.props.length; i++) {
        const moved = Math.hypot(...[0, 1, 2].map((k) => frames[1][i * 7 + k] - frames[0][i * 7 + k]));
        expect(moved, scene.props[i].id).toBeLessThan(0.005);
      }
    });
  });
});
