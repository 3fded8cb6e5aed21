/**
 * The simulated user over time: tracking follows the headset's volume, unreachable targets are events,
 * the head moves smoothly, and controllers report xr-standard state alongside hands.
 */
import { describe, expect, it } from 'vitest';
import { J } from '../kernels/hand-fk.js';
import { decodeEvents, EventType, type Session } from '../src/index.js';
import { benchSession, stepFor } from './helpers/user.js';

/** Every event of the given type during `seconds` of stepping, with its tick. */
function eventsDuring(session: Session, seconds: number, type: number) {
  const found: { tick: number; payload: number[] }[] = [];
  stepFor(session, seconds, (tick) => {
    for (const e of decodeEvents(session.frame.events, session.frame.eventWords)) if (e.type === type) found.push({ tick, payload: e.payload });
  });
  return found;
}

describe('hand tracking', () => {
  it('is lost when the head looks away and regained when it looks back, as events, all or nothing per hand', async () => {
    const session = await benchSession();
    stepFor(session, 0.2);
    expect(session.frame.channel('hand-left')![26 * 8]).toBe(1);
    // The body turns with the head's yaw, so resting hands stay in view however the head turns; looking up
    // at the ceiling takes them out of the downward-tilted tracking cone.
    session.user.head.turnTo(0, 80);
    const lost = eventsDuring(session, 1.5, EventType.TrackingLost);
    expect(lost.map((e) => e.payload[0]).sort()).toEqual([0, 1]);
    expect(session.frame.channel('hand-left')![26 * 8]).toBe(0);
    expect(session.frame.channel('hand-right')![26 * 8]).toBe(0);
    session.user.head.turnTo(0, 0);
    const regained = eventsDuring(session, 1.5, EventType.TrackingRegained);
    expect(regained.map((e) => e.payload[0]).sort()).toEqual([0, 1]);
    session.dispose();
  });

  it('can be switched off for one hand by a script', async () => {
    const session = await benchSession({ dominantHand: 'left' });
    session.user.hand('dominant').setTracking(false);
    const lost = eventsDuring(session, 0.1, EventType.TrackingLost);
    expect(lost).toEqual([{ tick: 1, payload: [0] }]);
    expect(session.frame.channel('hand-right')![26 * 8]).toBe(1);
    session.dispose();
  });
});

describe('reach', () => {
  it('reports an unreachable target as an event and stops the hand at the edge of reach, never teleporting', async () => {
    const session = await benchSession();
    const hand = session.user.hand('right');
    const head = session.user.head.state;
    hand.moveTo({ point: [head.position[0] + 0.4, head.position[1], head.position[2] - 1.5] }, { duration: 1 });
    const wristTrack: number[][] = [];
    const events = eventsDuring(session, 1.2, EventType.TargetUnreachable);
    expect(events).toHaveLength(1);
    const f32 = new Float32Array(new Uint32Array(events[0].payload.slice(1)).buffer);
    expect(events[0].payload[0]).toBe(1); // right hand
    expect(f32[0]).toBeGreaterThan(f32[1]); // distance > reach
    expect(f32[1]).toBeCloseTo(session.model.user.armLength, 6);
    // Continuous motion to the edge of reach.
    stepFor(session, 0.01, () => wristTrack.push(Array.from(hand.state.wrist.subarray(0, 3))));
    const shoulder = new Float64Array(3);
    head.bodyPoint(session.model.user.shoulderOffset, false, shoulder);
    const w = hand.state.wrist;
    expect(Math.hypot(w[0] - shoulder[0], w[1] - shoulder[1], w[2] - shoulder[2])).toBeCloseTo(session.model.user.armLength, 4);
    session.dispose();
  });

  it('moves without jumps: the wrist never travels more than its peak minimum-jerk speed allows per tick', async () => {
    const session = await benchSession();
    const hand = session.user.hand('left');
    const start = Array.from(hand.state.wrist.subarray(0, 3));
    const target: [number, number, number] = [start[0] + 0.1, start[1] + 0.2, start[2] - 0.1];
    hand.moveTo({ point: target }, { duration: 0.5 });
    const steps: number[] = [];
    let last = start;
    stepFor(session, 0.7, () => {
      const now = Array.from(hand.state.wrist.subarray(0, 3));
      steps.push(Math.hypot(now[0] - last[0], now[1] - last[1], now[2] - last[2]));
      last = now;
    });
    const distance = Math.hypot(0.1, 0.2, 0.1);
    const peakPerTick = (1.875 * distance * session.model.timing.dt) / 0.5;
    expect(Math.max(...steps)).toBeLessThanOrEqual(peakPerTick * 1.01);
    expect(Math.max(...steps)).toBeGreaterThan(peakPerTick * 0.95);
    expect(steps[0]).toBeLessThan(peakPerTick * 0.05); // starts gently…
    expect(last.map((v, i) => v - target[i]).every((d) => Math.abs(d) < 1e-9)).toBe(true); // …and arrives exactly
    session.dispose();
  });
});

describe('head', () => {
  it('looks at a point by smooth pursuit: no jumps, and it ends up facing the point', async () => {
    const session = await benchSession();
    const head = session.user.head;
    const target: [number, number, number] = [head.state.position[0] + 1, head.state.position[1] + 0.3, head.state.position[2]];
    head.lookAt(target);
    let lastYaw = head.state.yaw;
    let fastest = 0;
    stepFor(session, 1.5, () => {
      fastest = Math.max(fastest, Math.abs(head.state.yaw - lastYaw));
      lastYaw = head.state.yaw;
    });
    // A critically damped turn peaks at θω/e: about 330°/s for this 90° turn, within the 300–400°/s peaks of
    // human head turns, and never a snap.
    expect(fastest * 90).toBeLessThan(7);
    const pose = session.frame.channel('head')!;
    // The head's −Z axis points at the target.
    const [x, y, z, w] = [pose[3], pose[4], pose[5], pose[6]];
    const forward = [-2 * (x * z + w * y), -2 * (y * z - w * x), -(1 - 2 * (x * x + y * y))];
    const to = target.map((v, i) => v - pose[i]);
    const cos = (forward[0] * to[0] + forward[1] * to[1] + forward[2] * to[2]) / Math.hypot(...to);
    expect(cos).toBeGreaterThan(0.9999);
    session.dispose();
  });

  it('walks a path at walking speed, starting and stopping smoothly, with the hands coming along', async () => {
    const session = await benchSession({ user: { posture: 'standing' } });
    const head = session.user.head;
    const start = Array.from(head.state.position);
    const wristStart = Array.from(session.user.hand('right').state.wrist.subarray(0, 3));
    const duration = head.walk([[start[0] - 1.5, 0, start[2] + 1], [start[0] - 1.5, 0, start[2] + 2]], { speed: 1.2 });
    let peak = 0;
    let last = start;
    stepFor(session, duration + 0.1, () => {
      const now = Array.from(head.state.position);
      peak = Math.max(peak, Math.hypot(now[0] - last[0], now[2] - last[2]) * 90);
      last = now;
    });
    expect(peak).toBeLessThanOrEqual(1.2 * 1.01);
    expect(peak).toBeGreaterThan(1.2 * 0.9);
    expect(head.state.position[0]).toBeCloseTo(start[0] - 1.5, 9);
    expect(head.state.position[2]).toBeCloseTo(start[2] + 2, 9);
    expect(head.state.position[1]).toBeCloseTo(start[1], 9); // eye height kept
    const wrist = session.user.hand('right').state.wrist;
    expect(Math.hypot(wrist[0] - wristStart[0], wrist[2] - wristStart[2])).toBeGreaterThan(1.5); // hands at rest follow the body
    session.dispose();
  });

  it('places two eyes an IPD apart across the head, however it turns', async () => {
    const session = await benchSession({ user: { ipd: 0.064 } });
    session.user.head.turnTo(35, 20);
    stepFor(session, 1);
    const eyes = new Float64Array(6);
    session.user.head.state.writeEyePositions(session.model.user.ipd, eyes);
    const head = session.frame.channel('head')!;
    expect(Math.hypot(eyes[0] - eyes[3], eyes[1] - eyes[4], eyes[2] - eyes[5])).toBeCloseTo(0.064, 9);
    // Midway between them is the eye centre, and the left eye is on the head's −X side.
    for (let i = 0; i < 3; i++) expect((eyes[i] + eyes[3 + i]) / 2).toBeCloseTo(head[i], 6);
    const [x, y, z, w] = [head[3], head[4], head[5], head[6]];
    const right = [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)];
    expect((eyes[3] - eyes[0]) * right[0] + (eyes[4] - eyes[1]) * right[1] + (eyes[5] - eyes[2]) * right[2]).toBeCloseTo(0.064, 6);
    session.dispose();
  });

  it('has eye heights from the body model: standing and seated, scaled with hand size', async () => {
    for (const [size, low, high] of [['small', 1.35, 1.45], ['medium', 1.55, 1.65], ['large', 1.72, 1.82]] as const) {
      const session = await benchSession({ handModel: size, user: { posture: 'standing' } });
      expect(session.frame.channel('head')![1]).toBeGreaterThan(low);
      expect(session.frame.channel('head')![1]).toBeLessThan(high);
      session.dispose();
    }
    const seated = await benchSession();
    expect(seated.frame.channel('head')![1]).toBeCloseTo(1.24, 2);
    seated.dispose();
  });
});

describe('controllers', () => {
  it('are present with hands in one session and report xr-standard buttons and axes over time', async () => {
    const session = await benchSession({ user: { inputs: { hands: true, controllers: true }, posture: 'seated' } });
    expect(session.frame.channel('hand-right')).toBeDefined();
    const channel = session.frame.channel('controller-right')!;
    expect(channel[0]).toBe(1); // connected
    const right = session.user.controller('right');
    right.press('trigger', 1, { duration: 0.1 });
    right.thumbstick(0.5, -1, { duration: 0.1 });
    stepFor(session, 0.05);
    expect(channel[15]).toBeGreaterThan(0.2); // trigger part-way
    expect(channel[15]).toBeLessThan(0.8);
    stepFor(session, 0.1);
    expect(channel[15]).toBe(1);
    expect([channel[23], channel[24]]).toEqual([0.5, -1]);
    right.release('trigger');
    session.user.controller('left').press('x', 0.7, { duration: 0 });
    stepFor(session, 0.1);
    expect(channel[15]).toBe(0);
    expect(session.frame.channel('controller-left')![15 + 4]).toBeCloseTo(0.7, 6); // X is button 4 on the left
    session.dispose();
  });

  it('aims the target ray at a point', async () => {
    const session = await benchSession({ user: { inputs: { hands: false, controllers: true } } });
    expect(session.frame.channel('hand-right')).toBeUndefined();
    const target: [number, number, number] = [0.55, 0.74, -2.6];
    session.user.controller('right').aim(target, { duration: 0.3 });
    stepFor(session, 0.4);
    const c = session.frame.channel('controller-right')!;
    const [x, y, z, w] = [c[11], c[12], c[13], c[14]];
    const forward = [-2 * (x * z + w * y), -2 * (y * z - w * x), -(1 - 2 * (x * x + y * y))];
    const to = target.map((v, i) => v - c[8 + i]);
    expect((forward[0] * to[0] + forward[1] * to[1] + forward[2] * to[2]) / Math.hypot(...to)).toBeGreaterThan(0.99);
    session.dispose();
  });
});

describe('dominant and other hand', () => {
  it('map to right and left by dominantHand, so a session replays with the other hand by changing only that', async () => {
    for (const dominant of ['right', 'left'] as const) {
      const session = await benchSession({ dominantHand: dominant });
      session.user.hand('dominant').pinch(1, { duration: 0.1 });
      stepFor(session, 0.3);
      const pinching = session.frame.channel(`hand-${dominant}`)!;
      const other = session.frame.channel(`hand-${dominant === 'right' ? 'left' : 'right'}`)!;
      const gap = (c: Float32Array) => Math.hypot(...[0, 1, 2].map((k) => c[J.ThumbTip * 8 + k] - c[J.IndexTip * 8 + k]));
      expect(gap(pinching)).toBeLessThan(0.005);
      expect(gap(other)).toBeGreaterThan(0.05);
      session.dispose();
    }
  });
});

describe('hand orientation requests', () => {
  it('a palm facing straight ahead, where the fingers would point by default, still gives a finite, correct hand', async () => {
    const session = await benchSession();
    const hand = session.user.hand('right');
    const ahead: [number, number, number] = [-Math.sin(session.user.head.state.yaw), 0, -Math.cos(session.user.head.state.yaw)];
    hand.moveTo({ point: session.user.hand('right').pointOf('palm'), with: 'palm', palmFacing: ahead }, { duration: 0.3 });
    stepFor(session, 0.5);
    const positions = Array.from(hand.state.positions);
    expect(positions.every(Number.isFinite)).toBe(true);
    // The palm normal (−Y of the palm joint) faces ahead; the fingers point up instead.
    const [x, y, z, w] = Array.from(hand.state.orientations.slice(J.Palm * 4, J.Palm * 4 + 4));
    const normal = [-2 * (x * y - w * z), -(1 - 2 * (x * x + z * z)), -2 * (y * z + w * x)];
    expect(normal[0] * ahead[0] + normal[2] * ahead[2]).toBeGreaterThan(0.99);
  });

  it('hands the headset finds late (tracking.handsFrom) are untracked until then', async () => {
    const session = await benchSession({}, { user: { posture: 'seated', start: { position: [0, 0, 0.35], yawDeg: 0 }, tracking: { handsFrom: 1 } } });
    expect(session.frame.channel('hand-right')![26 * 8]).toBe(0);
    const regained = eventsDuring(session, 1.2, EventType.TrackingRegained);
    expect(regained.map((e) => e.payload[0]).sort()).toEqual([0, 1]);
    expect(regained[0].tick).toBe(90);
  });
});
