/**
 * What the video path hands ffmpeg: the CPU renderer's YUV 4:2:0 frames are its RGB picture in BT.601
 * limited range (Y per pixel, chroma the mean of each 2×2 block), reading a stream without its depth
 * images gives the same frames but for them, and a scene posed only at the frame drawn draws what a
 * scene posed at every frame draws.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuViewRenderer, RecordedScene, viewCamera } from '../src/render/view.js';
import { replayModelFromHeader } from '../src/stream/header.js';
import { StreamReader } from '../src/stream/reader.js';
import { tempDir, xrsim } from './helpers/cli.js';

let stream: string;
beforeAll(() => {
  stream = join(tempDir(), 'session.xrs');
  const run = xrsim('run', '--task', 'xr/place-on-detected-plane', '--duration', '2', '--depth', 'headset', '--out', stream, '--json');
  expect(run.json?.stream, run.stderr).toBe(stream);
});

const W = 64;
const H = 48;

describe('video frames', () => {
  it('YUV 4:2:0 frames are the RGB picture in BT.601 limited range', () => {
    const reader = StreamReader.open(stream);
    const model = replayModelFromHeader(reader.header);
    const scene = new RecordedScene(model);
    const renderer = new CpuViewRenderer(W, H);
    for (const frame of reader.framesInOrder()) {
      scene.advance(frame);
      if (frame.tick !== 120) continue;
      const camera = viewCamera('head', frame, model, { width: W, height: H, fovDeg: 90 });
      const rgb = renderer.render(scene, camera).rgb.slice();
      const yuv = renderer.renderYuv420(scene, camera);
      expect(yuv.length).toBe((W * H * 3) / 2);
      const luma = (i: number) => Math.round(16 + (65.481 * rgb[i * 3] + 128.553 * rgb[i * 3 + 1] + 24.966 * rgb[i * 3 + 2]) / 255);
      const cb = (i: number) => Math.round(128 + (-37.797 * rgb[i * 3] - 74.203 * rgb[i * 3 + 1] + 112 * rgb[i * 3 + 2]) / 255);
      const cr = (i: number) => Math.round(128 + (112 * rgb[i * 3] - 93.786 * rgb[i * 3 + 1] - 18.214 * rgb[i * 3 + 2]) / 255);
      const colours = new Set<number>();
      for (let i = 0; i < W * H; i++) {
        expect(yuv[i]).toBe(luma(i));
        colours.add(rgb[i * 3] | (rgb[i * 3 + 1] << 8) | (rgb[i * 3 + 2] << 16));
      }
      expect(colours.size, 'a picture with several surfaces').toBeGreaterThan(2);
      for (let y = 0; y < H / 2; y++) {
        for (let x = 0; x < W / 2; x++) {
          const block = [2 * y * W + 2 * x, 2 * y * W + 2 * x + 1, (2 * y + 1) * W + 2 * x, (2 * y + 1) * W + 2 * x + 1];
          const c = y * (W / 2) + x;
          expect(yuv[W * H + c]).toBe((block.reduce((s, i) => s + cb(i), 0) + 2) >> 2);
          expect(yuv[W * H + (W * H) / 4 + c]).toBe((block.reduce((s, i) => s + cr(i), 0) + 2) >> 2);
        }
      }
    }
    reader.close();
  });

  it('a stream read without its depth images gives the same frames but for them', () => {
    const full = StreamReader.open(stream);
    const lean = StreamReader.open(stream, { depthImages: false });
    const leanFrames = lean.framesInOrder();
    let withDepth = 0;
    for (const frame of full.framesInOrder()) {
      const words = frame.words.slice();
      const hadDepth = frame.hasDepth;
      const other = leanFrames.next().value!;
      expect(other.tick).toBe(frame.tick);
      expect(other.words).toEqual(words);
      expect(other.hasDepth).toBe(false);
      if (hadDepth) withDepth++;
    }
    expect(withDepth).toBeGreaterThan(10);
    full.close();
    lean.close();
  });

  it('a scene posed only at the frame drawn draws what one posed at every frame draws', () => {
    const reader = StreamReader.open(stream, { depthImages: false });
    const model = replayModelFromHeader(reader.header);
    const everyFrame = new RecordedScene(model);
    const drawnOnly = new RecordedScene(model);
    const a = new CpuViewRenderer(W, H);
    const b = new CpuViewRenderer(W, H);
    let compared = 0;
    for (const frame of reader.framesInOrder()) {
      everyFrame.advance(frame);
      drawnOnly.advance(frame, false);
      if (frame.tick % 30 !== 0) continue;
      drawnOnly.pose(frame);
      const camera = viewCamera('overview', frame, model, { width: W, height: H, fovDeg: 90 });
      expect(b.render(drawnOnly, camera).rgb).toEqual(a.render(everyFrame, camera).rgb);
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
    reader.close();
  });
});
