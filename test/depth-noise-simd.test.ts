/**
 * The WebAssembly SIMD depth noise pass against the JS reference: identical uint16 readings over rendered
 * frames (every preset, many keys and frames) and over awkward images (zeros, negatives, NaN, ±Infinity,
 * depth steps and values on every threshold of the model), and committed module bytes that match the .wat.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { DepthNoiseStreams, measureDepth, measureDepthReference, type DepthNoiseModel } from '../kernels/depth-noise.js';
import { simdPass, simdServes } from '../kernels/depth-noise-simd.js';
import { DEPTH_NOISE_WASM } from '../kernels/depth-noise-wasm.js';
import { DRAW_DYNAMIC, DRAW_STATIC, DepthRaster, pinholeCamera, setCameraPose } from '../kernels/depth-raster.js';
import { quatFromAxes } from '../src/geometry/math.js';
import { buildModel, loadScene, loadTask, type Vec3 } from '../src/index.js';
import { buildSceneGeometry } from '../src/sensing/scene-geometry.js';
import { DEPTH_NOISE } from '../src/task/noise-presets.js';
// @ts-expect-error: a plain .mjs build script, without types
import { wasmModuleSource } from '../scripts/build-wasm.mjs';

/** Pixels where the SIMD pass and the reference differ (both from the same streams, frame and image). */
function differences(depth: Float32Array, incidence: Float32Array, width: number, height: number, p: DepthNoiseModel, key: number, frame: number): string[] {
  const noise = new DepthNoiseStreams(key);
  const fast = new Uint16Array(width * height).fill(7);
  const reference = new Uint16Array(width * height).fill(9);
  measureDepth(depth, incidence, width, height, p, noise, fast, frame);
  measureDepthReference(depth, incidence, width, height, p, noise, reference, frame);
  const found: string[] = [];
  for (let i = 0; i < width * height && found.length < 5; i++) if (fast[i] !== reference[i]) found.push(`pixel ${i}: ${fast[i]} ≠ ${reference[i]} (z ${depth[i]}, cos ${incidence[i]})`);
  return found;
}

/** Presets and variants that move every threshold and term of the model. */
const MODELS: Record<string, DepthNoiseModel> = {
  headset: DEPTH_NOISE.headset,
  'phone-tof': DEPTH_NOISE['phone-tof'],
  'no mixed pixels': { ...DEPTH_NOISE.headset, mixedPixel: 0 },
  'no dropouts, no grazing': { ...DEPTH_NOISE['phone-tof'], dropout: 0, grazingCosStart: 0, grazingCosFull: 0 },
  'everything mixed, wide range': { ...DEPTH_NOISE['phone-tof'], mixedPixel: 0.999, edgeStep: 1e-6, minRange: 0, maxRange: 100, sigma2: 0.01 },
  'all graze': { ...DEPTH_NOISE.headset, grazingCosFull: 0.5, grazingCosStart: 2 },
};

describe('the SIMD depth noise pass', () => {
  it('is the module assembled from kernels/depth-noise.wat (npm run wasm)', async () => {
    const source: string = await wasmModuleSource();
    const committed = source.match(/0x[0-9a-f]{2}/g)!.map(Number);
    expect(Uint8Array.from(committed)).toEqual(DEPTH_NOISE_WASM);
  });

  it('runs on this Node and serves the presets at the sensor sizes', () => {
    expect(simdPass()).not.toBeNull();
    const image = new Float32Array(160 * 120);
    for (const p of Object.values(MODELS)) expect(simdServes(p, 160, 120, image, image, new Uint16Array(160 * 120))).toBe(true);
    expect(simdServes(DEPTH_NOISE.headset, 162, 120, new Float32Array(162 * 120), new Float32Array(162 * 120), new Uint16Array(162 * 120))).toBe(false);
  });

  it('reads rendered rooms exactly as the reference, frame after frame, key after key', () => {
    const index = buildSceneGeometry(buildModel(loadScene('living-room'), loadTask('physics/stack-settle')));
    const camera = pinholeCamera(160, 120, (80 * Math.PI) / 180, 0.01, 7.5);
    const raster = new DepthRaster(160, 120);
    const random = seedrandom('simd-depth');
    const views: [Vec3, Vec3][] = [[[0, 1.5, 0], [0, 0.6, -2]], [[0.4, 1.2, 0.3], [2, 0.3, 0]], [[-0.3, 1.6, 0.2], [-1, 0, 1.5]], [[0, 0.4, 0], [0, 0, -0.5]]];
    const differing: string[] = [];
    let frames = 0;
    for (const [eye, target] of views) {
      setCameraPose(camera, eye, quatFromAxes([0, 1, 0], [eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]], 'z'));
      raster.render(index.geometry, camera, DRAW_STATIC | DRAW_DYNAMIC);
      for (const [name, p] of Object.entries(MODELS)) {
        for (let trial = 0; trial < 12; trial++) {
          const key = Math.floor(random() * 4294967296);
          const frame = trial < 2 ? trial : Math.floor(random() * 4294967296);
          for (const d of differences(raster.depth, raster.incidence, 160, 120, p, key, frame)) differing.push(`${name}, key ${key}, frame ${frame}: ${d}`);
          frames++;
        }
      }
    }
    expect(differing).toEqual([]);
    expect(frames).toBe(views.length * Object.keys(MODELS).length * 12);
  });

  it('reads awkward images exactly as the reference: NaN, ±Infinity, zeros, steps, values on every threshold', () => {
    const random = seedrandom('simd-awkward');
    const f32 = (x: number) => Math.fround(x);
    const next = (x: number, up: boolean) => {
      const v = new Float32Array([x]);
      const b = new Uint32Array(v.buffer);
      b[0] += (x > 0) === up ? 1 : -1;
      return v[0];
    };
    const special = [0, -0, -1, NaN, Infinity, -Infinity, 1e-40, 1e-30, 3e38, 65.535, 65.5355, 100, 0.0004, 0.0005];
    for (const p of Object.values(MODELS)) {
      for (const t of [p.minRange, p.maxRange, p.grazingCosFull, p.grazingCosStart, 1 - 1e-9]) special.push(f32(t), next(f32(t), true), next(f32(t), false));
    }
    const sizes: [number, number][] = [[4, 1], [8, 2], [12, 5], [160, 120], [64, 3]];
    const differing: string[] = [];
    for (const [name, p] of Object.entries(MODELS)) {
      for (const [width, height] of sizes) {
        for (let trial = 0; trial < 6; trial++) {
          const n = width * height;
          const depth = new Float32Array(n);
          const incidence = new Float32Array(n);
          // A smooth wall with steps (edges just over and under edgeStep), strewn with awkward values.
          const base = 0.2 + random() * 5;
          for (let i = 0; i < n; i++) {
            const row = Math.floor(i / width);
            const col = i % width;
            let z = base + 0.001 * col + (col > width / 2 ? p.edgeStep * (random() < 0.5 ? 1.0001 : 0.9999) : 0) + (row % 7 === 3 ? 0.5 : 0);
            if (random() < 0.15) z = special[Math.floor(random() * special.length)];
            depth[i] = z;
            incidence[i] = random() < 0.2 ? special[Math.floor(random() * special.length)] : random();
          }
          const key = Math.floor(random() * 4294967296);
          for (const d of differences(depth, incidence, width, height, p, key, trial)) differing.push(`${name}, ${width}×${height}: ${d}`);
        }
      }
    }
    expect(differing).toEqual([]);
  });
});
