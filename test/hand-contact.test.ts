/**
 * Hands and the physical world: static surfaces stop a hand within the penetration limit, contact is
 * reported continuously, and hands push dynamic props without passing through them.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_PROBE_FLOATS, CONTACT_PROBES_PER_HAND, HAND_JOINT_FLOATS } from '../src/frame/layout.js';
import { J } from '../kernels/hand-fk.js';
import { rotateVec } from '../src/geometry/math.js';
import type { Quat } from '../src/geometry/types.js';
import { loadScene } from '../src/index.js';
import { benchSession, stepFor } from './helpers/user.js';

const INDEX_TIP_PROBE = 1;
const anchor = loadScene('empty-lab').spec.anchors['table-top'].position;
/** A task-frame point (the frame of the bench's top surface) in the world. */
const onBench = (x: number, y: number, z: number): [number, number, number] => [anchor[0] + x, anchor[1] + y, anchor[2] + z];

describe('poking the bench top', () => {
  it('reports penetration rising continuously and never beyond the 3 mm limit', async () => {
    const session = await benchSession({ dominantHand: 'right' });
    const hand = session.user.hand('dominant');
    hand.pose('poke', { duration: 0.2 });
    // Aim the index tip 2 cm into the bench, pointing down and away.
    hand.moveTo({ point: onBench(0, -0.02, 0), with: 'index-tip', palmFacing: [0, 0, -1], fingersToward: [0, -1, -0.3] }, { duration: 1.2 });
    const contacts = session.frame.channel('contacts')!;
    const probe = CONTACT_PROBES_PER_HAND * CONTACT_PROBE_FLOATS + INDEX_TIP_PROBE * CONTACT_PROBE_FLOATS; // right hand
    const depth: number[] = [];
    const tipTravel: number[] = [];
    const surfaces = new Set<number>();
    const tip = () => hand.state.positions.slice(10 * 3, 10 * 3 + 3);
    let last = tip();
    stepFor(session, 1.6, () => {
      depth.push(-contacts[probe]); // penetration = −distance
      if (contacts[probe] <= 0) surfaces.add(contacts[probe + 4]);
      const now = tip();
      tipTravel.push(Math.hypot(now[0] - last[0], now[1] - last[1], now[2] - last[2]));
      last = now;
    });
    const bench = session.model.statics.findIndex((s) => s.id === 'lab-bench');
    const normalY = contacts[probe + 2];

    expect(Math.max(...depth)).toBeGreaterThan(0.0025); // it does press in…
    expect(Math.max(...depth)).toBeLessThanOrEqual(0.003 + 1e-6); // …never beyond the limit
    expect(surfaces).toEqual(new Set([bench])); // the surface touched is the bench…
    const descriptor = session.state.frame.layout.channels.find((c) => c.name === 'contacts')!;
    expect(descriptor.surfaces![bench]).toBe('scene:lab-bench:table'); // …named, with its label, in the stream
    expect(normalY).toBeGreaterThan(0.99); // and its normal points up
    // Continuous: within range of the surface, depth never changes faster than the fingertip moves (no jumps),
    // and it rises monotonically to the limit while the tip drives in.
    for (let i = 1; i < depth.length; i++) {
      if (depth[i] > -0.05 && depth[i - 1] > -0.05) expect(Math.abs(depth[i] - depth[i - 1])).toBeLessThanOrEqual(tipTravel[i] + 1e-6);
    }
    const first = depth.findIndex((d) => d > 0);
    const atLimit = depth.findIndex((d) => d >= 0.003 - 1e-6);
    expect(first).toBeGreaterThan(0);
    expect(atLimit).toBeGreaterThan(first);
    for (let i = first + 1; i <= atLimit; i++) expect(depth[i]).toBeGreaterThanOrEqual(depth[i - 1] - 1e-9);
    session.dispose();
  });

  it('a tighter limit is honoured too', async () => {
    const session = await benchSession({ user: { contact: { maxPenetration: 0.001 } } });
    const hand = session.user.hand('right');
    hand.pose('poke', { duration: 0.2 });
    hand.moveTo({ point: onBench(0, -0.03, 0), with: 'index-tip', palmFacing: [0, 0, -1], fingersToward: [0, -1, -0.3] }, { duration: 1 });
    const contacts = session.frame.channel('contacts')!;
    let deepest = -Infinity;
    stepFor(session, 1.4, () => {
      for (let k = 0; k < 2 * CONTACT_PROBES_PER_HAND; k++) deepest = Math.max(deepest, -contacts[k * CONTACT_PROBE_FLOATS]);
    });
    session.dispose();
    expect(deepest).toBeGreaterThan(0.0005);
    expect(deepest).toBeLessThanOrEqual(0.001 + 1e-6);
  });
});

describe('the physical hand', () => {
  it('has a capsule on every phalanx, end to end, and a palm box from the wrist to the knuckles', async () => {
    const session = await benchSession();
    const hand = session.user.hand('left');
    hand.pose('pinch', { duration: 0 });
    hand.moveTo({ point: onBench(-0.1, 0.15, 0), palmFacing: [0.3, -1, 0.2] }, { duration: 0.3 });
    stepFor(session, 0.4);
    const physics = session.state.physics;
    const joints = hand.state.positions;
    const at = (j: number) => [joints[j * 3], joints[j * 3 + 1], joints[j * 3 + 2]];
    let bones = 0;
    for (const part of session.model.handParts.filter((p) => p.hand === 0)) {
      const collider = physics.collider(part.collider);
      const c = collider.translation();
      const axis = rotateVec(quat(collider.rotation()), [0, 1, 0]);
      if (part.kind === 'palm') {
        const mid = at(J.Wrist).map((v, i) => (v + at(J.MiddleProximal)[i]) / 2);
        expect(Math.hypot(c.x - mid[0], c.y - mid[1], c.z - mid[2])).toBeLessThan(0.01);
        continue;
      }
      bones++;
      // The capsule runs from its joint to the next one: centre ± half length along its axis.
      const h = part.halfLength;
      const ends = [-1, 1].map((sign) => [c.x + sign * h * axis[0], c.y + sign * h * axis[1], c.z + sign * h * axis[2]]);
      const [from, to] = [at(part.joint), at(part.joint + 1)];
      const gap = (p: number[], q: number[]) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
      expect(Math.min(gap(ends[0], to) + gap(ends[1], from), gap(ends[0], from) + gap(ends[1], to))).toBeLessThan(1e-5);
    }
    expect(bones).toBe(15);
    session.dispose();
  });
});

describe('pushing a resting cube', () => {
  it('moves it, and the hand never passes through it', async () => {
    const half = 0.03;
    const session = await benchSession(
      {},
      { bodies: [{ id: 'cube', mass: 0.15, friction: 0.5, restitution: 0.1, position: [0, half + 0.0005, 0], shape: { type: 'box', size: [2 * half, 2 * half, 2 * half] } }] },
    );
    // The left hand, palm facing right (+X), fingers pointing away, thumb up: lift it from its rest beside
    // the cube, come down to the cube's left with its lower edge just above the bench, then sweep through
    // it, so the hand meets the cube's side. (A kinematic hand pressing a prop down into the bench would
    // crush it: hands are not stopped by dynamic bodies. See docs/ARCHITECTURE.md.)
    const hand = session.user.hand('left');
    hand.pose('open', { duration: 0.1 });
    // The right hand rests on the bench where the cube will go: lift it clear first (two kinematic hands
    // squeezing a prop between them is a vice no solver can resolve).
    session.user.hand('right').moveTo({ point: onBench(0.3, 0.3, 0.1) }, { duration: 0.5 });
    const through = { with: 'palm' as const, palmFacing: [1, 0, 0] as [number, number, number], fingersToward: [0, 0, -1] as [number, number, number] };
    hand.moveTo({ point: onBench(-0.16, 0.25, 0), ...through }, { duration: 0.6 });
    stepFor(session, 0.7);
    hand.moveTo({ point: onBench(-0.14, 0.045, -0.02), ...through }, { duration: 0.5 });
    stepFor(session, 0.6);
    const cubeIndex = session.model.bodies.findIndex((b) => b.id === 'cube');
    const start = Array.from(session.frame.bodyPoses.subarray(cubeIndex * 7, cubeIndex * 7 + 3));
    hand.moveTo({ point: onBench(0.12, 0.045, -0.02), ...through }, { duration: 1.2 });
    let worst = Infinity;
    stepFor(session, 1.6, () => {
      const pose = session.frame.bodyPoses.subarray(cubeIndex * 7, cubeIndex * 7 + 7);
      const joints = session.frame.channel('hand-left')!;
      for (let j = 0; j < 26; j++) {
        const o = j * HAND_JOINT_FLOATS;
        const gap = boxDistance([joints[o], joints[o + 1], joints[o + 2]], pose, half) - joints[o + 7];
        worst = Math.min(worst, gap);
      }
    });
    const end = Array.from(session.frame.bodyPoses.subarray(cubeIndex * 7, cubeIndex * 7 + 3));
    session.dispose();
    expect(start[0]).toBeCloseTo(anchor[0], 3); // untouched until the push
    expect(end[0] - start[0]).toBeGreaterThan(0.05); // pushed along +X
    expect(worst).toBeGreaterThan(-0.006); // no joint sphere sinks more than 6 mm into the cube
  });
});

const quat = (q: { x: number; y: number; z: number; w: number }): Quat => [q.x, q.y, q.z, q.w];

/** Signed distance from a point to a cube of half size `half` at a pose (position, quaternion). */
function boxDistance(p: number[], pose: ArrayLike<number>, half: number): number {
  const d = [p[0] - pose[0], p[1] - pose[1], p[2] - pose[2]];
  const [x, y, z, w] = [-pose[3], -pose[4], -pose[5], pose[6]]; // inverse rotation
  const t = [2 * (y * d[2] - z * d[1]), 2 * (z * d[0] - x * d[2]), 2 * (x * d[1] - y * d[0])];
  const local = [d[0] + w * t[0] + (y * t[2] - z * t[1]), d[1] + w * t[1] + (z * t[0] - x * t[2]), d[2] + w * t[2] + (x * t[1] - y * t[0])];
  const q = local.map((v) => Math.abs(v) - half);
  const outside = Math.hypot(...q.map((v) => Math.max(v, 0)));
  return outside + Math.min(Math.max(q[0], q[1], q[2]), 0);
}
