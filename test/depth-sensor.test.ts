/**
 * The depth sensor as apps and test authors see it: XRCPUDepthInformation semantics, its own rate on the
 * simulation clock, noise presets that match their documented parameters, seeds, and the stream channel.
 */
import { describe, expect, it } from 'vitest';
import { DepthRaster, pinholeCamera, setCameraPose } from '../kernels/depth-raster.js';
import { DepthNoiseStreams, measureDepth } from '../kernels/depth-noise.js';
import { PrimitiveKind, PrimitiveType, SceneGeometry } from '../kernels/scene-geometry.js';
import { quatFromAxisAngle } from '../src/geometry/math.js';
import {
  CpuDepthInformation,
  DEPTH_NOISE,
  noiseSigma,
  rigidTransform,
  StreamReader,
  verifyStream,
  type DepthNoisePreset,
} from '../src/index.js';
import { benchSession, stepFor } from './helpers/user.js';
import { recordWithFrames } from './helpers/streams.js';
import { benchTask } from './helpers/user.js';

describe('XRCPUDepthInformation semantics', () => {
  // A 4 × 2 image whose pixel values name their position: row r, column c holds 1000 + 10r + c millimetres.
  const reading = Uint16Array.from({ length: 8 }, (_, i) => 1000 + 10 * Math.floor(i / 4) + (i % 4));

  it('is row-major from the top left and scales raw values by rawValueToMeters', () => {
    const info = new CpuDepthInformation(reading, 4, 2);
    expect(info.rawValueToMeters).toBe(0.001);
    expect(new Uint16Array(info.data)[5]).toBe(1011);
    expect(info.getDepthInMeters(0, 0)).toBeCloseTo(1.0, 9);
    expect(info.getDepthInMeters(0.3, 0.7)).toBeCloseTo(1.011, 9); // column 1, row 1
  });

  it('accepts x = 1 and y = 1 (clamped into the buffer) and throws RangeError outside [0, 1]', () => {
    const info = new CpuDepthInformation(reading, 4, 2);
    expect(info.getDepthInMeters(1, 1)).toBeCloseTo(1.013, 9);
    for (const [x, y] of [[-0.001, 0.5], [0.5, -0.001], [1.001, 0.5], [0.5, 1.001], [Number.NaN, 0.5]]) {
      expect(() => info.getDepthInMeters(x, y)).toThrow(RangeError);
    }
  });

  it('honours normDepthBufferFromNormView', () => {
    // A half-turn about the view's centre: (x, y) → (1 − x, 1 − y), as for a buffer stored upside down.
    const flipped = new CpuDepthInformation(reading, 4, 2, 'unsigned-short', rigidTransform([1, 1, 0], quatFromAxisAngle([0, 0, 1], Math.PI)));
    expect(flipped.getDepthInMeters(0.1, 0.1)).toBeCloseTo(1.013, 6); // lands in column 3, row 1
    expect(flipped.getDepthInMeters(0.9, 0.9)).toBeCloseTo(1.0, 6);
  });

  it('round-trips both data formats', () => {
    const float = new CpuDepthInformation(reading, 4, 2, 'float32');
    expect(float.rawValueToMeters).toBe(1);
    const metres = new Float32Array(float.data);
    expect(Array.from(metres, (m) => Math.round(m * 1000))).toEqual(Array.from(reading));
    const short = new CpuDepthInformation(reading, 4, 2, 'unsigned-short');
    expect(Array.from(new Uint16Array(short.data))).toEqual(Array.from(reading));
    for (const [x, y] of [[0, 0], [0.6, 0.2], [1, 1]]) expect(float.getDepthInMeters(x, y)).toBeCloseTo(short.getDepthInMeters(x, y), 6);
  });
});

/** Error statistics of a preset imaging a wall straight on at distance `d`. */
function wallErrors(preset: DepthNoisePreset, d: number, seed: number): { mean: number; std: number; holes: number; n: number } {
  const geometry = new SceneGeometry();
  geometry.add({ type: PrimitiveType.Box, kind: PrimitiveKind.Static, owner: 0, params: [20, 20, 0.05], position: [0, 0, -d - 0.05], rotation: [0, 0, 0, 1] });
  const camera = pinholeCamera(160, 120, (60 * Math.PI) / 180, 0.01, 30);
  setCameraPose(camera, [0, 0, 0], [0, 0, 0, 1]);
  const raster = new DepthRaster(160, 120);
  raster.render(geometry, camera, 1);
  const out = new Uint16Array(160 * 120);
  measureDepth(raster.depth, raster.incidence, 160, 120, DEPTH_NOISE[preset], new DepthNoiseStreams(seed), out);
  let sum = 0, sumSq = 0, n = 0, holes = 0;
  for (let i = 0; i < out.length; i++) {
    if (out[i] === 0) {
      holes++;
      continue;
    }
    const e = out[i] / 1000 - raster.depth[i];
    sum += e;
    sumSq += e * e;
    n++;
  }
  const mean = sum / n;
  return { mean, std: Math.sqrt(sumSq / n - mean * mean), holes: holes / out.length, n };
}

describe('depth noise presets', () => {
  for (const preset of ['headset', 'phone-tof'] as const) {
    it(`${preset}: mean and standard deviation per distance band match the documented model`, () => {
      const p = DEPTH_NOISE[preset];
      for (const d of [0.5, 1, 2, 3, 4.5]) {
        const { mean, std, holes, n } = wallErrors(preset, d, 7);
        // Quantising to whole millimetres adds a uniform error of variance 1/12 mm².
        const expectedStd = Math.sqrt(noiseSigma(p, d) ** 2 + 1e-6 / 12);
        expect(std / expectedStd, `σ at ${d} m`).toBeGreaterThan(0.95);
        expect(std / expectedStd, `σ at ${d} m`).toBeLessThan(1.05);
        expect(Math.abs(mean - p.bias1 * d), `mean at ${d} m`).toBeLessThan((4 * expectedStd) / Math.sqrt(n) + 0.0002);
        // Facing the wall there are no grazing holes: only random dropouts.
        expect(Math.abs(holes - p.dropout)).toBeLessThan(0.005);
      }
    });

    it(`${preset}: no readings beyond range, holes at grazing angles, mixed pixels at depth edges`, () => {
      const p = DEPTH_NOISE[preset];
      expect(wallErrors(preset, p.maxRange + 0.2, 1).holes).toBe(1);
      expect(wallErrors(preset, p.minRange - 0.1, 1).holes).toBe(1);
      // A floor seen almost edge-on: the far rows graze it.
      const geometry = new SceneGeometry();
      geometry.add({ type: PrimitiveType.Box, kind: PrimitiveKind.Static, owner: 0, params: [20, 0.05, 20], position: [0, -0.3, 0], rotation: [0, 0, 0, 1] });
      // A box in front of a far wall makes a depth edge.
      geometry.add({ type: PrimitiveType.Box, kind: PrimitiveKind.Static, owner: 1, params: [0.3, 0.3, 0.3], position: [0, 0, -1.5], rotation: [0, 0, 0, 1] });
      geometry.add({ type: PrimitiveType.Box, kind: PrimitiveKind.Static, owner: 2, params: [20, 20, 0.05], position: [0, 0, -3.5], rotation: [0, 0, 0, 1] });
      const camera = pinholeCamera(160, 120, (80 * Math.PI) / 180, 0.01, 30);
      setCameraPose(camera, [0, 0, 0], [0, 0, 0, 1]);
      const raster = new DepthRaster(160, 120);
      raster.render(geometry, camera, 1);
      const out = new Uint16Array(160 * 120);
      measureDepth(raster.depth, raster.incidence, 160, 120, p, new DepthNoiseStreams(5), out);
      let grazing = 0, grazingHoles = 0, edge = 0, mixed = 0;
      for (let i = 0; i < out.length; i++) {
        if (raster.incidence[i] < p.grazingCosFull && raster.depth[i] < p.maxRange) {
          grazing++;
          if (out[i] === 0) grazingHoles++;
        }
        const col = i % 160;
        if (col > 0 && col < 159 && Math.abs(raster.depth[i + 1] - raster.depth[i]) > 1 && raster.depth[i] < 2) {
          edge++;
          // Well between the box (~1.2 m) and the wall (3.45 m): neither surface plus noise.
          if (out[i] > 1400 && out[i] < 3300) mixed++;
        }
      }
      expect(grazing).toBeGreaterThan(50);
      expect(grazingHoles).toBe(grazing);
      expect(edge).toBeGreaterThan(20);
      expect(mixed / edge).toBeGreaterThan(p.mixedPixel * 0.3);
    });
  }

  it('ideal adds nothing but millimetre quantisation', () => {
    const { mean, std, holes } = wallErrors('ideal', 2.0004, 1);
    expect(holes).toBe(0);
    expect(Math.abs(mean)).toBeLessThanOrEqual(0.0005);
    expect(std).toBeLessThan(0.0005);
  });
});

describe('the depth camera in a session', () => {
  const depthImages = async (seed: number, noise: DepthNoisePreset) => {
    const session = await benchSession({ seed, sensing: { depth: { noise } } });
    const images: Uint16Array[] = [];
    const ticks: number[] = [];
    const keep = () => {
      if (session.frame.depthImage) {
        images.push(session.frame.depthImage.slice());
        ticks.push(session.tick);
      }
    };
    keep();
    stepFor(session, 0.5, keep);
    session.dispose();
    return { images, ticks };
  };

  it('runs at its own rate on the simulation clock: 30 Hz is every third 90 Hz tick, from frame 0', async () => {
    const { ticks, images } = await depthImages(1, 'ideal');
    expect(ticks).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45]);
    // The seated user looks at the bench: most pixels read something within range.
    expect(images[0].filter((v) => v > 0).length / images[0].length).toBeGreaterThan(0.95);
  });

  it('gives identical noisy images for the same seed and different ones for another seed', async () => {
    const a = await depthImages(11, 'headset');
    const b = await depthImages(11, 'headset');
    const c = await depthImages(12, 'headset');
    expect(a.images.map((i) => Buffer.from(i.buffer).toString('base64'))).toEqual(b.images.map((i) => Buffer.from(i.buffer).toString('base64')));
    const differing = a.images[0].filter((v, i) => v !== c.images[0][i]).length;
    expect(differing / a.images[0].length).toBeGreaterThan(0.5);
  });

  it('exposes the latest frame as depth information in the configured format', async () => {
    const session = await benchSession({ sensing: { depth: { format: 'float32', width: 64, height: 48 } } });
    const info = session.sensing.depthInformation()!;
    expect([info.width, info.height, info.rawValueToMeters]).toEqual([64, 48, 1]);
    const centre = info.getDepthInMeters(0.5, 0.5);
    expect(centre).toBeGreaterThan(0.2);
    expect(centre).toBeLessThan(2);
    session.dispose();
  });

  it('records depth frames losslessly in the stream, and verify re-runs them bit for bit', async () => {
    const { path, frames, result } = await recordWithFrames({ task: benchTask({ duration: 1.2 }), seed: 3, sensing: { depth: { noise: 'phone-tof' } } });
    const live: Uint16Array[] = [];
    // recordWithFrames keeps channels, not images; run again to collect the live images.
    const session = await benchSession({ seed: 3, sensing: { depth: { noise: 'phone-tof' } } }, { duration: 1.2 });
    live.push(session.frame.depthImage!.slice());
    stepFor(session, 1.2, () => session.frame.depthImage && live.push(session.frame.depthImage.slice()));
    session.dispose();
    const reader = StreamReader.open(path);
    const stored: Uint16Array[] = [];
    for (const frame of reader.framesInOrder()) if (frame.depthImage) stored.push(frame.depthImage.slice());
    const camera = reader.header.channels.find((c) => c.name === 'depth')!.camera!;
    reader.close();
    expect(frames.length).toBe(109);
    expect(stored.length).toBe(37);
    expect(camera).toMatchObject({ width: 160, height: 120, rawValueToMeters: 0.001, rateHz: 30, noise: 'phone-tof' });
    expect(stored.map((i) => Buffer.from(i.buffer).toString('hex'))).toEqual(live.map((i) => Buffer.from(i.buffer).toString('hex')));
    const report = await verifyStream(path);
    expect(report.identical).toBe(true);
    expect(report.sessionHash.stream).toBe(result.hash);
  });
});
