/**
 * `xrsim export`: JSON lines for scripts; an MCAP file read back by `@mcap/core` with every channel and
 * its message count; and an IWER recording replayed by IWER's own ActionPlayer in Chromium (a system test,
 * skipped only with XRSIM_SKIP_SYSTEM=1), whose head and index tips match the stream within a millimetre.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { McapIndexedReader } from '@mcap/core';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeEvents } from '../src/frame/events.js';
import { HAND_JOINT_FLOATS } from '../src/frame/layout.js';
import { StreamReader } from '../src/stream/reader.js';
import { CHROMIUM_FLAGS, chromiumPath } from '../src/view/chromium.js';
import { startLoopbackServer } from '../src/view/loopback-server.js';
import { tempDir, xrsim } from './helpers/cli.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
const INDEX_TIP = 10;
let handsStream: string;
let controllerStream: string;

beforeAll(() => {
  const dir = tempDir();
  handsStream = join(dir, 'hands.xrs');
  controllerStream = join(dir, 'controllers.xrs');
  // Hands, depth and planes; and a controller task.
  const hands = xrsim('run', '--task', 'xr/place-on-detected-plane', '--planes', '--depth', 'headset', '--out', handsStream, '--json');
  expect(hands.json?.stream, hands.stderr).toBe(handsStream);
  const controllers = xrsim('run', '--task', 'physics/cube-move', '--duration', '2', '--out', controllerStream, '--json');
  expect(controllers.json?.stream, controllers.stderr).toBe(controllerStream);
});

/** What a stream holds, counted directly from its frames. */
function census(path: string) {
  const reader = StreamReader.open(path);
  const counts = { frames: reader.frames, tracked: { left: 0, right: 0 }, connected: { left: 0, right: 0 }, depth: 0, events: 0 };
  const channels = new Set(reader.layout.channels.map((c) => c.name));
  for (const frame of reader.framesInOrder()) {
    for (const side of ['left', 'right'] as const) {
      if (frame.channel(`hand-${side}`)?.[26 * HAND_JOINT_FLOATS] === 1) counts.tracked[side]++;
      if (frame.channel(`controller-${side}`)?.[0] === 1) counts.connected[side]++;
    }
    if (frame.depthImage) counts.depth++;
    counts.events += decodeEvents(frame.events, frame.eventWords).filter((e) => e.name !== 'tag-poses').length;
  }
  reader.close();
  return { ...counts, channels };
}

describe('xrsim export --format jsonl', () => {
  it('writes one JSON object per frame with named joints, bodies and events', () => {
    const out = join(tempDir(), 'frames.jsonl');
    const r = xrsim('export', handsStream, '--format', 'jsonl', '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    const reader = StreamReader.open(handsStream);
    try {
      expect(lines.length).toBe(reader.frames);
      expect(r.json.frames).toBe(reader.frames);
      const tick = 300;
      const frame = reader.frameAt(tick);
      const line = lines[tick];
      expect(line.tick).toBe(tick);
      const hand = frame.channel('hand-right')!;
      // Shortest decimals that read back as the same float32: exact.
      expect(line.hands.right.joints['index-tip'].position.map(Math.fround)).toEqual(Array.from(hand.subarray(INDEX_TIP * 8, INDEX_TIP * 8 + 3)));
      expect(Object.keys(line.hands.right.joints)).toHaveLength(26);
      expect(line.head.position.map(Math.fround)).toEqual(Array.from(frame.channel('head')!.subarray(0, 3)));
      expect(Object.keys(line.contacts)).toContain('right:index-tip');
      expect(typeof line.depth === 'boolean' || line.depth === null).toBe(true);
      const events = lines.flatMap((l) => l.events.map((e: { name: string }) => e.name));
      expect(events).toContain('plane-added');
      expect(events).toContain('tag-declared');
      const contact = lines.flatMap((l) => l.events).find((e: { name: string }) => e.name === 'contact-start');
      expect(contact.a).toMatch(/^(scene|task|hand|sensor):/);
    } finally {
      reader.close();
    }
  });
});

describe('xrsim export --format mcap', () => {
  for (const which of ['hands', 'controllers'] as const) {
    it(`is read back by @mcap/core with every channel and message count (${which})`, async () => {
      const stream = which === 'hands' ? handsStream : controllerStream;
      const out = join(tempDir(), 'session.mcap');
      const r = xrsim('export', stream, '--format', 'mcap', '--out', out, '--json');
      expect(r.code, r.stderr).toBe(0);
      const bytes = readFileSync(out);
      const reader = await McapIndexedReader.Initialize({ readable: { size: async () => BigInt(bytes.length), read: async (offset, size) => bytes.subarray(Number(offset), Number(offset + size)) } });
      const topics = new Map([...reader.channelsById.values()].map((c) => [c.id, c.topic]));
      const counted = new Map<string, number>();
      let lastHand: { poses: { position: { x: number } }[] } | null = null;
      for await (const message of reader.readMessages()) {
        const topic = topics.get(message.channelId)!;
        counted.set(topic, (counted.get(topic) ?? 0) + 1);
        if (topic === '/hand/right') lastHand = JSON.parse(new TextDecoder().decode(message.data));
      }
      const c = census(stream);
      const expected: Record<string, number> = { '/scene': 1, '/tf': c.frames, '/head': c.frames, '/events': c.events };
      for (const side of ['left', 'right'] as const) {
        if (c.channels.has(`hand-${side}`)) expected[`/hand/${side}`] = c.tracked[side];
        if (c.channels.has(`controller-${side}`)) expected[`/controller/${side}`] = c.connected[side];
      }
      if (c.channels.has('depth')) Object.assign(expected, { '/depth/image': c.depth, '/depth/calibration': 1 });
      expect(Object.fromEntries(counted)).toEqual(expected);
      expect(r.json.messages).toEqual(expected);
      // Every registered channel has a schema Foxglove or xrsim names, and messages were written.
      for (const channel of reader.channelsById.values()) expect(reader.schemasById.get(channel.schemaId)?.name).toMatch(/^(foxglove|xrsim)\./);
      expect(Number(reader.statistics?.messageCount)).toBe(Object.values(expected).reduce((s, n) => s + n, 0));
      if (which === 'hands') {
        expect(c.depth).toBeGreaterThan(0);
        expect(lastHand!.poses).toHaveLength(26);
      } else {
        expect(c.connected.left + c.connected.right).toBeGreaterThan(0);
      }
    });
  }
});

describe.skipIf(SKIP_SYSTEM)('xrsim export --format iwer (system test: IWER in Chromium)', () => {
  /** Exports `stream`, replays it in IWER and returns the worst head and input distance over some ticks. */
  async function replayInIwer(stream: string, ticks: (frames: number) => number[]): Promise<{ worst: number; inputsSeen: number }> {
    const dir = tempDir();
    const r = xrsim('export', stream, '--format', 'iwer', '--out', join(dir, 'recording.json'), '--json');
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/data/replay.js"></script>`);
    writeFileSync(join(dir, 'replay.js'), IWER_PAGE);
    const iwerBuild = join(dirname(createRequire(import.meta.url).resolve('iwer')), '..', 'build');
    const server = await startLoopbackServer({ mounts: [{ prefix: '/iwer/', root: iwerBuild }, { prefix: '/data/', root: dir }] });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
    const reader = StreamReader.open(stream);
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${server.url}data/index.html`);
      await page.waitForFunction(() => (globalThis as any).replayReady === true || (globalThis as any).replayError);
      expect(await page.evaluate(() => (globalThis as any).replayError ?? null)).toBeNull();
      let worst = 0;
      let inputsSeen = 0;
      const distance = (a: number[], b: ArrayLike<number>, o = 0) => Math.hypot(a[0] - b[o], a[1] - b[o + 1], a[2] - b[o + 2]);
      for (const tick of ticks(reader.frames)) {
        const replayed = await page.evaluate((k) => (globalThis as any).sample(k), tick);
        const frame = reader.frameAt(tick);
        worst = Math.max(worst, distance(replayed.head, frame.channel('head')!));
        for (const side of ['left', 'right'] as const) {
          const hand = frame.channel(`hand-${side}`);
          const controller = frame.channel(`controller-${side}`);
          const present = hand ? hand[26 * HAND_JOINT_FLOATS] === 1 : controller ? controller[0] === 1 : false;
          expect(replayed.inputs[side] !== undefined, `${side} input at tick ${tick}`).toBe(present);
          if (!present) continue;
          inputsSeen++;
          // A hand's index tip (relative to its target ray in the recording); a controller's grip.
          worst = Math.max(worst, hand ? distance(replayed.inputs[side], hand, INDEX_TIP * HAND_JOINT_FLOATS) : distance(replayed.inputs[side], controller!, 1));
        }
      }
      expect(errors).toEqual([]);
      return { worst, inputsSeen };
    } finally {
      reader.close();
      await browser.close();
      await server.close();
    }
  }

  it("is replayed by IWER's own ActionPlayer: head and index tips within 1 mm of the stream", async () => {
    const { worst, inputsSeen } = await replayInIwer(handsStream, (frames) => [1, 60, 200, 300, 420, frames - 1]);
    expect(inputsSeen).toBeGreaterThan(4);
    expect(worst).toBeLessThan(0.001);
  });

  it('replays controllers too: head and grips within 1 mm', async () => {
    const { worst, inputsSeen } = await replayInIwer(controllerStream, (frames) => [1, 45, 90, frames - 1]);
    expect(inputsSeen).toBeGreaterThan(3);
    expect(worst).toBeLessThan(0.001);
  });
});

/** The test page: IWER's emulated Quest 3 replays the recording; `sample(k)` applies frame k and reads it back. */
const IWER_PAGE = `
import { XRDevice, metaQuest3 } from '/iwer/iwer.module.js';
try {
  const device = new XRDevice(metaQuest3);
  // Chromium has a WebXR runtime of its own (which wants a user gesture); IWER's replaces it.
  device.installRuntime({ forceInstall: true });
  const session = await navigator.xr.requestSession('immersive-vr', { requiredFeatures: ['local-floor', 'hand-tracking'] });
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2', { xrCompatible: true });
  session.updateRenderState({ baseLayer: new XRWebGLLayer(session, gl) });
  const refSpace = await session.requestReferenceSpace('local-floor');
  const recording = await (await fetch('/data/recording.json')).json();
  const player = device.createActionPlayer(refSpace, recording);
  const frames = recording.frames;
  const xyz = (pose) => [pose.transform.position.x, pose.transform.position.y, pose.transform.position.z];
  globalThis.sample = (k) => new Promise((resolve, reject) => session.requestAnimationFrame((time, frame) => {
    try {
      // Put the player on frame k - 1, then step exactly one recorded frame (no interpolation).
      player.seek((frames[k - 1][0] + frames[k][0]) / 2 - frames[0][0]);
      player.stepFrames(1);
      const inputs = {};
      for (const source of player.inputSources) {
        inputs[source.handedness] = xyz(source.hand ? frame.getJointPose(source.hand.get('index-finger-tip'), refSpace) : frame.getPose(source.gripSpace, refSpace));
      }
      resolve({ head: xyz(frame.getViewerPose(refSpace)), inputs });
    } catch (err) { reject(err); }
  }));
  globalThis.replayReady = true;
} catch (err) {
  globalThis.replayError = String(err && err.stack || err);
}
`;
