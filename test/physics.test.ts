/**
 * The physics stage: colliders carry the scene's materials, events are collected in a deterministic
 * order, and only awake bodies are read.
 */
import { describe, expect, it } from 'vitest';
import { EventType } from '../src/frame/events.js';
import { sortEventRecords } from '../src/physics/events.js';
import { createSession, decodeEvents } from '../src/index.js';

describe('physics world', () => {
  it('gives colliders the friction, restitution and density of the scene and task', async () => {
    const session = await createSession({ task: 'physics/material-curling', scene: 'kitchen', seed: 1 });
    const physics = session.state.physics;
    const model = session.model;
    expect(physics.world.colliders.len()).toBe(model.colliders.length);
    model.colliders.forEach((c, index) => {
      const collider = physics.collider(index);
      expect(collider.friction()).toBeCloseTo(c.friction, 6);
      expect(collider.restitution()).toBeCloseTo(c.restitution, 6);
      expect(collider.isSensor()).toBe(c.sensor);
    });
    // Rapier derives mass from density: every body weighs what the files say.
    model.bodies.forEach((b, i) => {
      expect(physics.body(i).mass()).toBeCloseTo(b.mass, 3);
    });
    session.dispose();
  });

  it('reads only awake bodies: a sleeping body’s slot is not rewritten', async () => {
    const session = await createSession({ task: 'physics/stack-settle', seed: 1 });
    while (session.tick < 300) session.step();
    const physics = session.state.physics;
    expect(physics.awakeBodyCount()).toBe(0);
    const poses = new Float32Array(session.frame.bodyPoses.length).fill(123);
    physics.readPoses(poses);
    expect(Array.from(poses).every((v) => v === 123)).toBe(true);
    physics.readPoses(poses, true);
    expect(Array.from(poses)).toEqual(Array.from(session.frame.bodyPoses));
    session.dispose();
  });

  it('reports contacts and sensor entries with collider indices, sorted within each tick', async () => {
    const session = await createSession({ task: 'physics/rolling-ball-checkpoints', seed: 1 });
    const sensors = new Set(session.model.sensors.flatMap((s) => s.colliders));
    let entries = 0;
    let contacts = 0;
    while (!session.done) {
      const frame = session.step();
      const events = decodeEvents(frame.events, frame.eventWords);
      for (let i = 1; i < events.length; i++) {
        const [a0, b0] = events[i - 1].payload;
        const [a1, b1] = events[i].payload;
        expect(a0 < a1 || (a0 === a1 && b0 <= b1)).toBe(true);
      }
      for (const e of events) {
        const [a, b] = e.payload;
        expect(a).toBeLessThan(b);
        if (e.type === EventType.SensorEnter) {
          entries++;
          expect(sensors.has(a) || sensors.has(b)).toBe(true);
        }
        if (e.type === EventType.ContactStart) contacts++;
      }
    }
    expect(entries).toBeGreaterThanOrEqual(5);
    expect(contacts).toBeGreaterThan(0);
    session.dispose();
  });

  it('sorts event records by (a, b, type) in place', () => {
    const rec = (type: number, a: number, b: number) => [(type << 16) | 2, a, b];
    const events = new Uint32Array([...rec(2, 5, 9), ...rec(1, 2, 3), ...rec(1, 5, 9), ...rec(3, 2, 1)]);
    sortEventRecords(events, 0, events.length);
    const order = [];
    for (let i = 0; i < events.length; i += 3) order.push([events[i] >>> 16, events[i + 1], events[i + 2]]);
    expect(order).toEqual([[3, 2, 1], [1, 2, 3], [1, 5, 9], [2, 5, 9]]);
  });
});
