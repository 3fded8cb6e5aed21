/**
 * The depth rasterizer against an exact per-pixel ray cast, on every shipped scene from several head
 * poses, and on random primitives of every type against an empty background (silhouettes everywhere).
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { DRAW_DYNAMIC, DRAW_HANDS, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose, type RasterCamera } from '../kernels/depth-raster.js';
import { rayCastDepth } from '../kernels/depth-raycast.js';
import { PrimitiveKind, PrimitiveType, SceneGeometry } from '../kernels/scene-geometry.js';
import { quatFromAxes } from '../src/geometry/math.js';
import { buildModel, listSceneIds, loadScene, loadTask, type Vec3 } from '../src/index.js';
import { buildSceneGeometry } from '../src/sensing/scene-geometry.js';

interface Agreement {
  pixels: number;
  bothHit: number;
  within1mm: number;
  hitMiss: number;
  hitMissOffEdge: number;
}

/** Compares the rasterizer with the ray cast for one camera. */
function compare(geometry: SceneGeometry, camera: RasterCamera, kinds: number): Agreement {
  const raster = new DepthRaster(camera.width, camera.height);
  raster.render(geometry, camera, kinds);
  const exact = new Float32Array(camera.width * camera.height);
  rayCastDepth(geometry, camera, kinds, exact);
  const result: Agreement = { pixels: exact.length, bothHit: 0, within1mm: 0, hitMiss: 0, hitMissOffEdge: 0 };
  const hit = (i: number) => exact[i] !== Infinity;
  for (let i = 0; i < exact.length; i++) {
    const a = raster.depth[i];
    if ((a === Infinity) !== !hit(i)) {
      result.hitMiss++;
      // A silhouette edge: some 8-neighbour of the exact image differs in hit state or depth by > 5 cm.
      const row = Math.floor(i / camera.width);
      const col = i % camera.width;
      let edge = false;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const r = row + dr, c = col + dc;
          if (r < 0 || c < 0 || r >= camera.height || c >= camera.width) continue;
          const j = r * camera.width + c;
          if (hit(j) !== hit(i) || Math.abs(exact[j] - exact[i]) > 0.05) edge = true;
        }
      }
      if (!edge) result.hitMissOffEdge++;
    } else if (a !== Infinity) {
      result.bothHit++;
      if (Math.abs(a - exact[i]) <= 0.001) result.within1mm++;
    }
  }
  return result;
}

/** A camera at `position` looking toward `target`. */
function lookingAt(camera: RasterCamera, position: Vec3, target: Vec3): RasterCamera {
  const back: Vec3 = [position[0] - target[0], position[1] - target[1], position[2] - target[2]];
  setCameraPose(camera, position, quatFromAxes([0, 1, 0], back, 'z'));
  return camera;
}

function expectAgreement(a: Agreement): void {
  expect(a.within1mm / a.bothHit).toBeGreaterThanOrEqual(0.999);
  expect(a.hitMiss / a.pixels).toBeLessThanOrEqual(0.002);
  expect(a.hitMissOffEdge).toBe(0);
}

describe('depth rasterizer accuracy against an exact ray cast', () => {
  const task = loadTask('physics/stack-settle');
  for (const sceneId of listSceneIds()) {
    it(`agrees on ${sceneId} from several head poses, props included`, () => {
      const scene = loadScene(sceneId);
      const index = buildSceneGeometry(buildModel(scene, task));
      const [sx, sy, sz] = scene.spec.room.size;
      const camera = pinholeCamera(160, 120, (80 * Math.PI) / 180, 0.01, 10);
      const poses: [Vec3, Vec3][] = [
        [[0, 1.6, 0], [0, 0.8, -sz / 2]],
        [[0.3, 1.5, 0.4], [sx / 2, 0.2, 0]],
        [[-0.5, 1.2, -0.2], [-sx / 2, 1.0, sz / 2]],
        [[0.1, 1.7, 0.2], [0.1, 0, -0.8]],
        [[sx / 4, sy / 2, sz / 4], [-sx / 2, sy, -sz / 2]],
      ];
      for (const [eye, target] of poses) expectAgreement(compare(index.geometry, lookingAt(camera, eye, target), DRAW_STATIC | DRAW_DYNAMIC));
    });
  }

  it('agrees on random boxes, spheres, capsules, cylinders and slabs against an empty background', () => {
    const random = seedrandom('depth-kernel-primitives');
    const geometry = new SceneGeometry();
    const u = (lo: number, hi: number) => lo + (hi - lo) * random();
    for (let i = 0; i < 40; i++) {
      const type = i % 5;
      const params =
        type === PrimitiveType.Box ? [u(0.02, 0.3), u(0.02, 0.3), u(0.02, 0.3)]
        : type === PrimitiveType.Prism ? [u(0.01, 0.1)]
        : [u(0.02, 0.2), u(0.02, 0.3)];
      const polygon = type === PrimitiveType.Prism ? Array.from({ length: 6 }, (_, k) => [Math.cos(k * 1.047) * 0.2, Math.sin(k * 1.047) * 0.15] as [number, number]) : undefined;
      const axis: Vec3 = [u(-1, 1), u(-1, 1), u(-1, 1)];
      geometry.add({
        type,
        kind: i % 3 === 0 ? PrimitiveKind.Hand : PrimitiveKind.Dynamic,
        owner: i,
        params,
        polygon,
        position: [u(-1.5, 1.5), u(-1, 1), u(-4, -1)],
        rotation: quatFromAxes(axis, [u(-1, 1), u(-1, 1), u(-1, 1)]),
      });
    }
    const camera = pinholeCamera(320, 240, (80 * Math.PI) / 180, 0.01, 10);
    for (const eye of [[0, 0, 0], [0.4, -0.2, 0.5], [-0.6, 0.5, -0.3]] as Vec3[]) {
      const a = compare(geometry, lookingAt(camera, eye, [0, 0, -2.5]), DRAW_DYNAMIC | DRAW_HANDS);
      expect(a.bothHit).toBeGreaterThan(1000);
      expectAgreement(a);
    }
  });

  it('draws only the kinds asked for, and nothing disabled', () => {
    const geometry = new SceneGeometry();
    const box = geometry.add({ type: PrimitiveType.Box, kind: PrimitiveKind.Hand, owner: 0, params: [0.5, 0.5, 0.5], position: [0, 0, -2], rotation: [0, 0, 0, 1] });
    const camera = pinholeCamera(8, 6, 1, 0.01, 10);
    const raster = new DepthRaster(8, 6);
    raster.render(geometry, camera, DRAW_STATIC | DRAW_DYNAMIC);
    expect(raster.depth.every((z) => z === Infinity)).toBe(true);
    raster.render(geometry, camera, DRAW_HANDS);
    expect(raster.depth[3 * 8 + 4]).toBeCloseTo(1.5, 6);
    geometry.setEnabled(box, false);
    raster.render(geometry, camera, DRAW_HANDS);
    expect(raster.depth.every((z) => z === Infinity)).toBe(true);
  });
});
