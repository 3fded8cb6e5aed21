/**
 * The tick protocol without a browser: what the shim decodes from a tick input is bit for bit what the
 * in-process host gave an in-process app that tick (viewer, views, hands with 25 joints, controllers,
 * input events, planes with their change times, depth), and planes, depth and anchors travel only when
 * they change.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it, beforeAll } from 'vitest';
import { createSession } from '../src/session/session.js';
import { WEBXR_JOINTS } from '../src/hand/joints.js';
import { HAND_JOINTS } from '../src/browser/shim/input.js';
import { DeviceState } from '../src/browser/shim/device.js';
import { INPUT_EVENT_TYPES, SourceId } from '../src/browser/protocol.js';
import type { TickInput } from '../src/browser/protocol.js';

const CAPTURE_APP = fileURLToPath(new URL('./fixtures/apps/capture-xr.mjs', import.meta.url));
const KEY = Symbol.for('xrsim.test.capture');

interface Captured {
  tick: number;
  time: number;
  viewer: number[];
  views: number[][];
  sources: { hand: boolean; handedness: string; grip: number[]; ray: number[]; joints: number[][] | null; buttons: number[] | null }[];
  events: [string, string, boolean][];
  planes: { id: number; label: string; orientation: string | null; changed: number; pose: number[]; polygon: number[][] }[];
  depth: { width: number; height: number; centre: number; data: number[] } | null;
  input: TickInput;
}

async function capture(task: string, options: { duration: number; sensing?: object; user?: object; handModel?: string }): Promise<{ ticks: Captured[]; dt: number; shoulderOffset: number[] }> {
  const registry = ((globalThis as Record<symbol, unknown>)[KEY] ??= []) as Captured[][];
  registry.length = 0;
  const session = await createSession({ task, seed: 3, app: CAPTURE_APP, ...options });
  await session.run();
  return { ticks: registry[0], dt: session.model.timing.dt, shoulderOffset: [...session.model.user.shoulderOffset] };
}

beforeAll(() => {
  // The shim builds DOMPointReadOnly values; Node has none.
  (globalThis as Record<string, unknown>).DOMPointReadOnly ??= class {
    constructor(readonly x = 0, readonly y = 0, readonly z = 0, readonly w = 1) {}
  };
});

describe('the tick protocol', () => {
  it("the shim's XRHand joints are WebXR's 25, in the spec's order, as the in-process host names them", () => {
    expect([...HAND_JOINTS]).toEqual(WEBXR_JOINTS);
    expect(HAND_JOINTS).toHaveLength(25);
    expect([HAND_JOINTS[0], HAND_JOINTS[4], HAND_JOINTS[9], HAND_JOINTS[24]]).toEqual(['wrist', 'thumb-tip', 'index-finger-tip', 'pinky-finger-tip']);
  });

  it('decodes to exactly what the in-process host gave the app: poses, 25-joint hands, input events', async () => {
    const { ticks } = await capture('xr/pinch-spawn-ball', { duration: 2.5 });
    const device = new DeviceState();
    let handTicks = 0;
    let selects = 0;
    for (const t of ticks) {
      device.apply(t.input);
      expect(device.tick).toBe(t.tick);
      expect(device.timeMs).toBe(t.time * 1000);
      expect(device.viewer).toEqual(t.viewer);
      expect(device.views).toEqual(t.views);
      expect([...device.sources.keys()]).toEqual(t.sources.map((s) => (s.hand ? 0 : 2) + (s.handedness === 'right' ? 1 : 0)));
      t.sources.forEach((s, i) => {
        const floats = [...device.sources.values()][i];
        expect(Array.from(floats.subarray(0, 7))).toEqual(s.grip);
        expect(Array.from(floats.subarray(7, 14))).toEqual(s.ray);
        if (s.joints) {
          handTicks++;
          expect(s.joints).toHaveLength(25);
          s.joints.forEach((joint, k) => expect(Array.from(floats.subarray(14 + k * 8, 22 + k * 8))).toEqual(joint));
        }
      });
      expect(device.events).toEqual(t.events.map(([type, side, hand]) => [type, (hand ? SourceId.LeftHand : SourceId.LeftController) + (side === 'right' ? 1 : 0)]));
      selects += t.events.filter(([type]) => type === 'selectstart').length;
    }
    expect(handTicks).toBeGreaterThan(ticks.length);
    expect(selects).toBeGreaterThan(0);
    expect(INPUT_EVENT_TYPES).toContain('select');
  });

  it('carries planes (same id, change time only on change) and depth frames only when they change', async () => {
    const { ticks, dt } = await capture('xr/place-on-detected-plane', { duration: 3, sensing: { planes: true, depth: true } });
    const device = new DeviceState();
    let planeSends = 0;
    let depthSends = 0;
    let planeTicks = 0;
    const objects = new Map<number, unknown>();
    for (const t of ticks) {
      device.apply(t.input);
      planeSends += t.input.p?.set?.length ?? 0;
      if (t.input.d) depthSends++;
      expect([...device.planes.keys()]).toEqual(t.planes.map((p) => p.id));
      for (const p of t.planes) {
        planeTicks++;
        const plane = device.planes.get(p.id)!;
        // The same object while the plane persists.
        if (objects.has(p.id)) expect(plane).toBe(objects.get(p.id));
        objects.set(p.id, plane);
        expect(plane.semanticLabel).toBe(p.label);
        expect(plane.orientation).toBe(p.orientation);
        expect(plane.lastChangedTime).toBe(p.changed * dt * 1000);
        expect(plane.polygon.map((q) => [q.x, q.z])).toEqual(p.polygon);
      }
      if (t.depth) {
        expect(device.depth!.width).toBe(t.depth.width);
        expect(Array.from(device.depth!.mm)).toEqual(t.depth.data);
      }
    }
    expect(planeTicks).toBeGreaterThan(0);
    // Sent when they appear or change, not every tick.
    expect(planeSends).toBeLessThan(planeTicks / 4);
    expect(depthSends).toBeGreaterThan(0);
    expect(depthSends).toBeLessThan(ticks.length / 2);
  });
});

describe('hand target rays', () => {
  it.each(['small', 'medium', 'large'])("come from the hand's shoulder: the user model's shoulderOffset from the eyes, turned with the head's yaw, mirrored for the left hand (%s hand)", async (size) => {
    const { ticks, shoulderOffset } = await capture('xr/pinch-spawn-ball', { duration: 2.5, handModel: size });
    const [sx, sy, sz] = shoulderOffset;
    const rays = { left: 0, right: 0 };
    for (const t of ticks) {
      const [ex, ey, ez, qx, qy, qz, qw] = t.viewer;
      // The body frame turns with the head's yaw: its forward is the view's forward, level.
      const fx = -2 * (qx * qz + qw * qy);
      const fz = -(1 - 2 * (qx * qx + qy * qy));
      const level = Math.hypot(fx, fz);
      const [s, c] = [-fx / level, -fz / level];
      for (const source of t.sources.filter((src) => src.hand)) {
        const mirror = source.handedness === 'left' ? -1 : 1;
        const shoulder = [ex + c * mirror * sx + s * sz, ey + sy, ez - s * mirror * sx + c * sz];
        const [ox, oy, oz, rx, ry, rz, rw] = source.ray;
        // The ray looks along its −Z axis.
        const d = [-2 * (rx * rz + rw * ry), -2 * (ry * rz - rw * rx), -(1 - 2 * (rx * rx + ry * ry))];
        const back = [shoulder[0] - ox, shoulder[1] - oy, shoulder[2] - oz];
        const along = back[0] * d[0] + back[1] * d[1] + back[2] * d[2];
        const off = Math.hypot(back[0] - along * d[0], back[1] - along * d[1], back[2] - along * d[2]);
        expect(off, `tick ${t.tick}, ${source.handedness} ray: the shoulder's distance from its line`).toBeLessThan(1e-5);
        expect(along, `tick ${t.tick}, ${source.handedness} ray: the shoulder is behind it`).toBeLessThan(-0.1);
        rays[source.handedness as 'left' | 'right']++;
      }
    }
    expect(rays.left).toBeGreaterThan(0);
    expect(rays.right).toBeGreaterThan(0);
  });
});
