/**
 * Depth for a few pixels: the rasterizer's windows and the noise model's windows give exactly the values the
 * whole image has there, so an app reading single pixels sees what the stream records.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { DepthNoiseStreams, measureDepth } from '../kernels/depth-noise.js';
import { DRAW_DYNAMIC, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose } from '../kernels/depth-raster.js';
import { quatFromAxes } from '../src/geometry/math.js';
import { buildModel, loadScene, loadTask, type Vec3 } from '../src/index.js';
import { buildSceneGeometry } from '../src/sensing/scene-geometry.js';
import { DEPTH_NOISE } from '../src/task/noise-presets.js';

const WIDTH = 160;
const HEIGHT = 120;

function livingRoom() {
  const index = buildSceneGeometry(buildModel(loadScene('living-room'), loadTask('physics/stack-settle')));
  const camera = pinholeCamera(WIDTH, HEIGHT, (80 * Math.PI) / 180, 0.01, 7.5);
  const look = (eye: Vec3, target: Vec3) => setCameraPose(camera, eye, quatFromAxes([0, 1, 0], [eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]], 'z'));
  return { geometry: index.geometry, camera, look };
}

describe('depth windows', () => {
  it('render a window with the values a whole render gives it, and nothing outside it', () => {
    const { geometry, camera, look } = livingRoom();
    const whole = new DepthRaster(WIDTH, HEIGHT);
    const part = new DepthRaster(WIDTH, HEIGHT);
    const random = seedrandom('depth-windows');
    let covered = 0;
    let outsideWritten = 0;
    const differing: string[] = [];
    for (const [eye, target] of [[[0, 1.5, 0], [0, 0.6, -2]], [[0.4, 1.2, 0.3], [2, 0.3, 0]], [[-0.3, 1.6, 0.2], [-1, 0, 1.5]]] as [Vec3, Vec3][]) {
      look(eye, target);
      whole.render(geometry, camera, DRAW_STATIC | DRAW_DYNAMIC);
      for (let trial = 0; trial < 40; trial++) {
        const r0 = Math.floor(random() * HEIGHT), c0 = Math.floor(random() * WIDTH);
        const r1 = Math.min(HEIGHT - 1, r0 + Math.floor(random() * 3)), c1 = Math.min(WIDTH - 1, c0 + Math.floor(random() * 3));
        part.depth.fill(-1);
        part.render(geometry, camera, DRAW_STATIC | DRAW_DYNAMIC, 1, r0, r1, c0, c1);
        for (let row = 0; row < HEIGHT; row++) {
          for (let col = 0; col < WIDTH; col++) {
            const i = row * WIDTH + col;
            if (row < r0 || row > r1 || col < c0 || col > c1) {
              if (part.depth[i] !== -1) outsideWritten++;
              continue;
            }
            if (part.depth[i] !== whole.depth[i] || part.id[i] !== whole.id[i] || part.incidence[i] !== whole.incidence[i]) differing.push(`(${col}, ${row})`);
            if (whole.id[i] >= 0) covered++;
          }
        }
      }
    }
    expect(differing).toEqual([]);
    expect(outsideWritten).toBe(0);
    expect(covered).toBeGreaterThan(200);
  });

  it('measure single pixels as the whole reading has them: noise, mixed pixels, holes, dropouts', () => {
    const { geometry, camera, look } = livingRoom();
    const raster = new DepthRaster(WIDTH, HEIGHT);
    for (const preset of ['headset', 'phone-tof', 'ideal'] as const) {
      const noise = preset === 'ideal' ? null : new DepthNoiseStreams(0x9e3779b9);
      const p = DEPTH_NOISE[preset];
      const whole = new Uint16Array(WIDTH * HEIGHT);
      const single = new Uint16Array(WIDTH * HEIGHT);
      for (const frame of [3, 4]) {
        look([0.2, 1.5, 0.1 * frame], [0, 0.5, -2]);
        raster.render(geometry, camera, DRAW_STATIC | DRAW_DYNAMIC);
        measureDepth(raster.depth, raster.incidence, WIDTH, HEIGHT, p, noise, whole, frame);
        single.fill(7777);
        // Every pixel on its own, in an order unlike the whole image's.
        for (let k = 0; k < WIDTH * HEIGHT; k++) {
          const i = (k * 7919) % (WIDTH * HEIGHT);
          const row = Math.floor(i / WIDTH), col = i % WIDTH;
          measureDepth(raster.depth, raster.incidence, WIDTH, HEIGHT, p, noise, single, frame, row, row + 1, col, col + 1);
        }
        expect(single).toEqual(whole);
        if (preset !== 'ideal') expect(whole.filter((v) => v === 0).length).toBeGreaterThan(50);
      }
    }
  });
});
