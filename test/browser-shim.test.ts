/**
 * The WebXR shim in real Chromium (skipped only with XRSIM_SKIP_SYSTEM=1), driven tick by tick from an
 * in-process session through the bridge: three.js's own hand handling sees every scripted pinch, pages
 * see 25 joints, the planes and the depth the in-process host sees, and the spec's behaviour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarmChromium } from '../src/browser/chromium.js';
import { CpuDepthInformation, IDENTITY_TRANSFORM } from '../src/sensing/depth-information.js';
import type { TickInput } from '../src/browser/protocol.js';
import { appEvents, pageErrors, runPage, SKIP_SYSTEM } from './helpers/browser.js';

/** Select events of hand sources in the tick inputs, per side (what the in-process host gave apps). */
function handSelects(inputs: TickInput[], type: 'selectstart' | 'selectend'): { tick: number; side: string }[] {
  const code = ['selectstart', 'selectend'].indexOf(type);
  return inputs.flatMap((input) => {
    const e = input.e ?? [];
    const out: { tick: number; side: string }[] = [];
    for (let i = 0; i < e.length; i += 2) if (e[i] === code && e[i + 1] <= 1) out.push({ tick: input.k, side: e[i + 1] === 1 ? 'right' : 'left' });
    return out;
  });
}

describe.skipIf(SKIP_SYSTEM)('the WebXR shim in Chromium (system test)', () => {
  const chromium = new WarmChromium();
  beforeAll(async () => {
    await chromium.browser();
  });
  afterAll(async () => {
    await chromium.close();
  });

  it.each(['right', 'left'] as const)("three.js's hands fire pinchstart/pinchend for every scripted pinch, and only those (%s dominant)", async (dominantHand) => {
    const run = await runPage(chromium, 'three-hands', { task: 'xr/pinch-spawn-ball', seed: 1, dominantHand, duration: 3 });
    expect(run.started).toBe(true);
    expect(pageErrors(run.outputs)).toEqual([]);
    const starts = handSelects(run.inputs, 'selectstart');
    const ends = handSelects(run.inputs, 'selectend');
    // The script pinches with the dominant hand (the ball), then with the other hand (its distractor).
    expect(starts.map((s) => s.side)).toEqual([dominantHand, dominantHand === 'right' ? 'left' : 'right']);
    // three's own pinch detection, from the joints the page received, on the same ticks as the host's selects.
    expect(appEvents(run.outputs, 'pinchstart').map((e) => ({ tick: e.tick, side: e.data.handedness }))).toEqual(starts);
    expect(appEvents(run.outputs, 'pinchend').map((e) => ({ tick: e.tick, side: e.data.handedness }))).toEqual(ends);
    // Both hands, 25 joints each, all tracked, from the first frame.
    expect(appEvents(run.outputs, 'hands')[0]).toEqual({ tick: 0, data: { hands: ['left:25:25', 'right:25:25'] } });
    // Every tick produced a frame and a published tag (auto-discovered through userData.xrsimTag).
    expect(run.outputs).toHaveLength(run.session.model.timing.durationTicks + 1);
    expect(run.outputs.every((o) => o.tags.some(([role, pose]) => role === 'cube' && pose !== null))).toBe(true);
    // The index tip the page reads is the in-process one, bit for bit.
    const tips = appEvents<{ handedness: string; p: number[]; r: number }>(run.outputs, 'tip');
    const at = tips[tips.length - 1];
    const input = run.inputs.find((i) => i.k === at.tick)!;
    const floats = new Float64Array(Buffer.from(input.f, 'base64').buffer.slice(0));
    const side = at.data.handedness === 'right' ? 1 : 0;
    const offset = 21 + input.s.indexOf(side) * (14 + 200) * 1 + 14 + 9 * 8;
    expect(at.data.p).toEqual(Array.from(floats.subarray(offset, offset + 3)));
    expect(at.data.r).toBe(floats[offset + 7]);
  });

  it('pages see the planes and the depth the in-process host sees, and the spec behaviour', async () => {
    const spec = { task: 'xr/place-on-detected-plane', seed: 2, duration: 3, sensing: { planes: true, depth: true } };
    const run = await runPage(chromium, 'spec-checks', spec);
    expect(run.started).toBe(true);
    expect(pageErrors(run.outputs)).toEqual([]);
    const setup = appEvents(run.outputs, 'setup')[0].data;
    expect(setup).toEqual({
      missing: [],
      supported: [true, true, false],
      unsupportedRequired: 'NotSupportedError',
      depthWithoutInit: 'NotSupportedError',
      badMode: 'NotSupportedError',
      construct: 'TypeError',
      second: 'InvalidStateError',
      enabled: ['anchors', 'depth-sensing', 'hand-tracking', 'hit-test', 'local', 'local-floor', 'plane-detection', 'viewer'],
      notEnabledSpace: 'NotSupportedError',
      depthFormat: 'float32',
      layer: [256, 128, true],
      renderStatePending: true,
    });
    type Frame = Record<string, unknown> & { planes: [number, number, string, number][]; time: number; predicted: number; now: number };
    const frames = appEvents<Frame>(run.outputs, 'frame');
    expect(frames.length).toBe(run.outputs.length);
    const dt = run.session.model.timing.dt;
    for (const { tick, data } of frames) {
      // Times on the frame clock: the rAF time, predictedDisplayTime and performance.now agree.
      expect(data.time).toBe(tick * dt * 1000);
      expect(data.predicted).toBe(data.time);
      expect(data.now).toBe(data.time);
      expect(data.views).toEqual(['left', 'right']);
      expect(data.projection).toBe(16);
      expect(data.viewports).toEqual([[0, 0, 128, 128], [128, 0, 128, 128]]);
      expect(data.offsetDz).toBeCloseTo(1, 9);
      expect(data.viewerInViewer).toBe(0);
      if (tick > 0) expect(data.stale).toBe('InvalidStateError');
      if (data.fillRadii !== undefined) expect([data.fillRadii, data.fillPoses, data.fillTooSmall]).toEqual([true, true, 'TypeError']);
    }
    // Depth: RangeError outside [0, 1], float32 metres, the in-process reading at the centre.
    const depthFrames = frames.filter((f) => f.data.depth);
    expect(depthFrames.length).toBeGreaterThan(frames.length / 2);
    let lastDepth: TickInput['d'] | undefined;
    for (const { tick, data } of frames) {
      lastDepth = run.inputs.find((i) => i.k === tick)!.d ?? lastDepth;
      if (!data.depth) continue;
      expect(data.rangeErrors).toEqual(['RangeError', 'RangeError', 'none']);
      const d = lastDepth!;
      const inProcess = new CpuDepthInformation(new Uint16Array(Buffer.from(d.mm, 'base64').buffer.slice(0)), d.width, d.height, 'float32', IDENTITY_TRANSFORM);
      expect(data.depth).toEqual({ bytesPerPixel: 4, scale: 1, centre: inProcess.getDepthInMeters(0.5, 0.5) });
    }
    expect(frames.some((f) => f.data.staleDepth === 'InvalidStateError')).toBe(true);
    // Planes: one XRPlane per plane id, kept while it persists; lastChangedTime moves only when the host's plane changed.
    const setTicks = new Map<number, number[]>();
    for (const input of run.inputs) for (const p of input.p?.set ?? []) setTicks.set(p.id, [...(setTicks.get(p.id) ?? []), input.k]);
    expect(setTicks.size).toBeGreaterThan(0);
    const seen = new Map<number, number[]>();
    for (const { data } of frames) for (const [n, changed] of data.planes) if (seen.get(n)?.at(-1) !== changed) seen.set(n, [...(seen.get(n) ?? []), changed]);
    expect(seen.size).toBe(setTicks.size);
    const expected = [...setTicks.values()].map((ticks) => ticks.map((k) => run.inputs.find((i) => i.k === k)!.p!.set!.find((p) => setTicks.get(p.id) === ticks)!.changed));
    expect([...seen.values()]).toEqual(expected);
    // Hit tests from the viewer hit the detected planes, and an anchor created from a result becomes tracked.
    expect(frames.some((f) => (f.data.hits as number) > 0)).toBe(true);
    expect(frames.at(-1)!.data.anchors).toBe(1);
    expect(frames.at(-1)!.data.anchorResolved).toBe(true);
  });
});
