/**
 * The shim's WebAudio in real Chromium (skipped only with XRSIM_SKIP_SYSTEM=1), on a page that uses
 * three.js's AudioListener and PositionalAudio unmodified and a plain WebAudio graph on a second context:
 * `currentTime` on the frame clock, `start`/`stop` at their `when`, `ended` at a buffer's end and at a
 * stop, panner and listener positions (PannerNode params, ramps and legacy setters; the listener three.js
 * moves every frame), gains, suspend and resume, and the voices the host records, the same in two runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarmChromium } from '../src/browser/chromium.js';
import type { AudioRecord, TickInput, TickOutput } from '../src/browser/protocol.js';
import { rotateVec } from '../src/geometry/math.js';
import type { Quat, Vec3 } from '../src/geometry/types.js';
import { appEvents, pageErrors, runPage, SKIP_SYSTEM, type PageRun } from './helpers/browser.js';

/** The user's head in the world at a tick: the viewer pose the page was given. */
function head(inputs: TickInput[], tick: number): { position: Vec3; rotation: Quat } {
  const input = inputs.find((i) => i.k === tick)!;
  const f = new Float64Array(Buffer.from(input.f, 'base64').buffer.slice(0));
  return { position: [f[0], f[1], f[2]], rotation: [f[3], f[4], f[5], f[6]] };
}

/** Every audio record the page sent, with its tick. */
function audioRecords(outputs: TickOutput[]): (AudioRecord & { tick: number })[] {
  return outputs.flatMap((o) => (o.audio ?? []).map((r) => ({ ...r, tick: o.k })));
}

describe.skipIf(SKIP_SYSTEM)('WebAudio under the shim (system test)', () => {
  const chromium = new WarmChromium();
  let run: PageRun;
  beforeAll(async () => {
    run = await runPage(chromium, 'web-audio', { task: 'xr/chime-button', seed: 1, dominantHand: 'right', duration: 0.7 });
  }, 120_000);
  afterAll(async () => {
    await chromium.close();
  });

  it('runs the page without errors', () => {
    expect(run.started).toBe(true);
    expect(pageErrors(run.outputs)).toEqual([]);
  });

  it('currentTime is seconds on the frame clock since the context was made, frozen while suspended', () => {
    const [made] = appEvents<{ t: number; state: string; now: number }>(run.outputs, 'made');
    expect(made.data).toEqual({ t: 0, state: 'running', now: 0 });
    const clocks = appEvents<{ n: number; t: number; raw: number; now: number }>(run.outputs, 'clock');
    for (const { tick, data } of clocks) {
      expect(data.now).toBeCloseTo(tick * 1000 / 90, 9);
      expect(data.t).toBe((data.now - made.data.now) / 1000);
    }
    // The plain context is suspended at frame 30 and resumed at frame 40: its clock stops for those 10 frames.
    const raw = new Map(clocks.map((c) => [c.data.n, c.data.raw]));
    expect(raw.get(35)).toBe(raw.get(30));
    expect(raw.get(40)).toBe(raw.get(30));
    expect(raw.get(41)! - raw.get(30)!).toBeCloseTo(1 / 90, 12);
    // Only the shim's statechange events reach the page, never the real engine's.
    expect(appEvents(run.outputs, 'states')[0].data).toEqual({ states: ['suspended', 'running'], raw: 'running', three: 'running' });
  });

  it("three.js's PositionalAudio: a delayed start, its name, gain and place where the user hears it, and ended at the buffer's end", () => {
    const [play] = appEvents<{ t: number }>(run.outputs, 'bell-play');
    const records = audioRecords(run.outputs).filter((r) => r.voice === 1);
    // play(0.1): 0.1 s (9 ticks) after the call; the 0.25 s buffer ends 23 ticks later (the first tick at or after its end).
    expect(records.map((r) => [r.type, r.tick])).toEqual([['start', play.tick + 9], ['stop', play.tick + 9 + 23]]);
    const start = records[0] as Extract<AudioRecord, { type: 'start' }>;
    expect(start).toMatchObject({ sound: 'bell', gain: 0.5, loop: false });
    // three's listener rides the camera, which three.js puts at the first view (the left eye): the bell, at
    // (0.5, 1.2, -1) in the scene (the world here), is heard where it is relative to that eye, from the head.
    const clock = appEvents<{ n: number; listener: Vec3 }>(run.outputs, 'clock').find((c) => c.tick === start.tick)!;
    const eye = head(run.inputs, start.tick).position;
    const expected = [0.5, 1.2, -1].map((v, i) => v + eye[i] - clock.data.listener[i]);
    start.position!.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 6));
    expect(Math.hypot(...start.position!.map((v, i) => v - [0.5, 1.2, -1][i]))).toBeCloseTo(0.0315, 4);
    const [ended] = appEvents<{ playing: boolean }>(run.outputs, 'bell-ended');
    expect(ended).toEqual({ tick: records[1].tick, data: expect.objectContaining({ playing: false }) });
  });

  it('a plain graph: start and stop at their when, the panner (setPosition, a ramp) relative to the listener (setPosition), gains multiplied, ended', () => {
    const [started] = appEvents(run.outputs, 'oscillator-start');
    const records = audioRecords(run.outputs).filter((r) => r.voice === 2);
    // Stopped 0.2 s (18 ticks) of context time later, with the context suspended for 10 of the ticks between.
    expect(records.map((r) => [r.type, r.tick])).toEqual([['start', started.tick], ['update', started.tick + 5], ['update', started.tick + 7], ['stop', started.tick + 18 + 10]]);
    const heardAt = (tick: number, panner: Vec3): Vec3 => {
      const h = head(run.inputs, tick);
      const offset = rotateVec(h.rotation, [panner[0] - 0, panner[1] - 1, panner[2] - 0]);
      return [h.position[0] + offset[0], h.position[1] + offset[1], h.position[2] + offset[2]];
    };
    const [start, moved, quieter] = records as [Extract<AudioRecord, { type: 'start' }>, Extract<AudioRecord, { type: 'update' }>, Extract<AudioRecord, { type: 'update' }>];
    expect(start).toMatchObject({ sound: 'oscillator:sine', gain: 0.25, loop: false });
    start.position!.forEach((v, i) => expect(v).toBeCloseTo(heardAt(start.tick, [1, 1, -1])[i], 6));
    // The ramp's target counts at once; the gain set later changes only the gain.
    expect(Object.keys(moved).sort()).toEqual(['position', 'tick', 'type', 'voice']);
    moved.position!.forEach((v, i) => expect(v).toBeCloseTo(heardAt(moved.tick, [1, 1, -2])[i], 6));
    expect(quieter).toEqual({ type: 'update', voice: 2, gain: Math.fround(0.1), tick: started.tick + 7 });
    expect(appEvents(run.outputs, 'oscillator-ended').map((e) => e.tick)).toEqual([records[3].tick]);
  });

  it('two runs of the page give the same events and voices', async () => {
    const again = await runPage(chromium, 'web-audio', { task: 'xr/chime-button', seed: 1, dominantHand: 'right', duration: 0.7 });
    expect(again.outputs.map((o) => [o.events, o.audio ?? null])).toEqual(run.outputs.map((o) => [o.events, o.audio ?? null]));
  }, 120_000);
});
