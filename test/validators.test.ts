/**
 * Each validator formula on synthetic frames whose answers are known by hand.
 */
import { describe, expect, it } from 'vitest';
import { Frame } from '../src/frame/frame.js';
import { frameLayoutFor } from '../src/frame/layout.js';
import { buildModel, createValidator, EventType, loadScene, loadTask, type TaskSpec, type ValidatorSpec } from '../src/index.js';
import { FrameState } from '../src/validate/frame-state.js';
import { scoreMilestones } from '../src/validate/score.js';

const sphere = { type: 'sphere' as const, radius: 0.05 };
const TASK: TaskSpec = {
  id: 'test/validators',
  title: 'validator fixtures',
  scene: 'empty-lab',
  duration: 1,
  placement: { anchor: 'open-floor', clear: [1, 1] },
  materials: { m: { friction: 0.5, restitution: 0.5 } },
  fixtures: [{ id: 'wall', label: 'wall', material: 'm', position: [0.4, 0.1, 0], shape: { type: 'box', size: [0.02, 0.2, 0.2] } }],
  bodies: [
    { id: 'a', mass: 1, friction: 0.5, restitution: 0.5, position: [0, 0.05, 0], shape: sphere },
    { id: 'b', mass: 1, friction: 0.5, restitution: 0.5, position: [0.2, 0.05, 0], shape: sphere },
  ],
  sensors: ['s1', 's2', 's3'].map((id, i) => ({ id, position: [i * 0.1, 0.1, 0.3] as [number, number, number], shape: sphere })),
  validators: [{ type: 'region', body: 'task:a', min: [-1, -1, -1], max: [1, 1, 1], milestones: [{ id: 'x', threshold: 0 }] }],
};
const model = buildModel(loadScene('empty-lab'), loadTask(TASK));
const anchor = loadScene('empty-lab').spec.anchors['open-floor'].position;
const indexOf = (id: string) => model.bodies.findIndex((b) => b.origin === 'task' && b.id === id);
const colliderOf = (id: string) =>
  (model.bodies.find((b) => b.origin === 'task' && b.id === id) ?? model.sensors.find((s) => s.id === id) ?? model.statics.find((s) => s.id === id))!.colliders[0];

/** Feeds frames built by `fill(frame, tick)` for ticks 0..last into a validator. */
function runValidator(spec: ValidatorSpec, last: number, fill: (frame: Frame, tick: number) => void) {
  const validator = createValidator(spec, { model, dominantHand: 'right', state: new FrameState() });
  const frame = new Frame(frameLayoutFor(model));
  for (let tick = 0; tick <= last; tick++) {
    frame.eventWords = 0;
    frame.setTime(tick, tick * model.timing.dt);
    // Every body at rest at its model pose unless `fill` moves it, quaternions identity.
    model.bodies.forEach((b, i) => frame.bodyPoses.set([...b.pose.position, 0, 0, 0, 1], i * 7));
    fill(frame, tick);
    validator.observe(frame);
  }
  return validator.finish();
}

/** Places task body `id` at task-frame point `p`. */
function place(frame: Frame, id: string, p: [number, number, number]) {
  frame.bodyPoses.set([anchor[0] + p[0], anchor[1] + p[1], anchor[2] + p[2]], indexOf(id) * 7);
}

describe('checkpoints', () => {
  const spec: ValidatorSpec = { type: 'checkpoints', body: 'task:a', sensors: ['task:s1', 'task:s2', 'task:s3'], milestones: [{ id: 'two', threshold: 2 }, { id: 'all', threshold: 3 }] };
  it('counts first entries in order; an early entry into a later checkpoint does not count', () => {
    const entries: Record<number, string> = { 5: 's2', 10: 's1', 15: 's2', 20: 's3' };
    const [two, all] = runValidator(spec, 30, (f, tick) => {
      if (entries[tick]) f.pushEvent2(EventType.SensorEnter, colliderOf('a'), colliderOf(entries[tick]));
    });
    expect(all).toMatchObject({ passed: true, metric: 3, ticks: [10, 15, 20], comparison: 'atLeast' });
    expect(two.passed).toBe(true);
  });
  it('ignores other bodies and entries after `within`', () => {
    const [two] = runValidator({ ...spec, within: 0.1 }, 30, (f, tick) => {
      if (tick === 2) f.pushEvent2(EventType.SensorEnter, colliderOf('b'), colliderOf('s1'));
      if (tick === 5) f.pushEvent2(EventType.SensorEnter, colliderOf('a'), colliderOf('s1'));
      if (tick === 20) f.pushEvent2(EventType.SensorEnter, colliderOf('a'), colliderOf('s2'));
    });
    expect(two).toMatchObject({ passed: false, metric: 1, ticks: [5], score: 0.5 });
  });
});

describe('settle', () => {
  const spec: ValidatorSpec = { type: 'settle', bodies: ['task:a'], linearSpeedBelow: 0.01, holdFor: 0.2, milestones: [{ id: 'settles', threshold: 0.5 }] };
  it('is the time of the last frame that moved faster than the threshold', () => {
    const [m] = runValidator(spec, 90, (f, tick) => place(f, 'a', [Math.min(tick, 30) * 0.001, 0.05, 0]));
    expect(m.metric).toBeCloseTo(30 / 90, 9);
    expect(m.passed).toBe(true);
  });
  it('has not settled if it moves within holdFor of the end', () => {
    const [m] = runValidator(spec, 90, (f, tick) => place(f, 'a', [Math.min(tick, 85) * 0.001, 0.05, 0]));
    expect(m).toMatchObject({ passed: false, metric: null, score: 0 });
  });
  it('counts spinning as moving when angularSpeedBelow is set', () => {
    const spinning = { ...spec, angularSpeedBelow: 0.1 } as ValidatorSpec;
    const [m] = runValidator(spinning, 90, (f, tick) => {
      const angle = Math.min(tick, 45) * 0.01; // 0.9 rad/s until tick 45
      f.bodyPoses.set([0, Math.sin(angle / 2), 0, Math.cos(angle / 2)], indexOf('a') * 7 + 3);
    });
    expect(m.metric).toBeCloseTo(45 / 90, 9);
  });
});

describe('drift', () => {
  it('is the largest displacement from the pose at `from`, over the chosen axes', () => {
    const spec: ValidatorSpec = { type: 'drift', bodies: ['task:a', 'task:b'], from: 0.5, axes: 'xz', milestones: [{ id: 'd', threshold: 0.002 }] };
    const [m] = runValidator(spec, 90, (f, tick) => {
      place(f, 'a', [0, tick * 0.01, 0]); // vertical motion does not count with axes xz
      place(f, 'b', [0.2 + (tick === 60 ? 0.003 : tick > 45 ? 0.001 : 0), 0.05, 0.004 * Number(tick < 45)]);
    });
    expect(m.metric).toBeCloseTo(0.003, 6);
    expect(m.ticks).toEqual([45, 60]);
    expect(m.passed).toBe(false);
    expect(m.score).toBeCloseTo(2 / 3, 4); // positions are float32
  });
});

describe('final-distance', () => {
  it('measures the last frame only, atMost or atLeast', () => {
    const near: ValidatorSpec = { type: 'final-distance', body: 'task:a', target: [0.3, 0, 0.4], axes: 'xz', milestones: [{ id: 'near', threshold: 0.1 }] };
    const far: ValidatorSpec = { ...near, pass: 'atLeast', milestones: [{ id: 'far', threshold: 0.4 }] } as ValidatorSpec;
    const fill = (f: Frame, tick: number) => place(f, 'a', tick < 10 ? [5, 5, 5] : [0, 3, 0]);
    expect(runValidator(near, 10, fill)[0]).toMatchObject({ passed: false, metric: 0.5, ticks: [10] });
    expect(runValidator(far, 10, fill)[0]).toMatchObject({ passed: true, metric: 0.5, comparison: 'atLeast' });
  });
});

describe('contact', () => {
  const spec: ValidatorSpec = { type: 'contact', a: 'task:a', b: 'task:wall', milestones: [{ id: 'hit', threshold: 0.5 }] };
  it('is the time of the first contact-start between the two objects', () => {
    const [m] = runValidator(spec, 90, (f, tick) => {
      if (tick === 20) f.pushEvent2(EventType.ContactStart, colliderOf('b'), colliderOf('wall'));
      if (tick === 30) f.pushEvent2(EventType.ContactStop, colliderOf('a'), colliderOf('wall'));
      if (tick === 36 || tick === 60) f.pushEvent2(EventType.ContactStart, colliderOf('wall'), colliderOf('a'));
    });
    expect(m).toMatchObject({ passed: true, ticks: [36] });
    expect(m.metric).toBeCloseTo(0.4, 9);
  });
  it('is null with no credit when they never touch', () => {
    expect(runValidator(spec, 90, () => {})[0]).toMatchObject({ passed: false, metric: null, score: 0, ticks: [] });
  });
});

describe('region', () => {
  it('is the worst distance outside the box', () => {
    const spec: ValidatorSpec = { type: 'region', body: 'task:a', min: [-0.1, 0, -0.1], max: [0.1, 1, 0.1], milestones: [{ id: 'in', threshold: 0.01 }] };
    const [m] = runValidator(spec, 20, (f, tick) => place(f, 'a', tick === 12 ? [0.13, 0.5, -0.14] : [0, 0.5, 0]));
    expect(m.metric).toBeCloseTo(0.05, 6);
    expect(m).toMatchObject({ passed: false, ticks: [12] });
  });
});

describe('scoring', () => {
  it('gives full credit when passed and ratio credit, below 1, otherwise', () => {
    const specs = [{ id: 'strict', threshold: 1 }, { id: 'loose', threshold: 4 }];
    const [strict, loose] = scoreMilestones('x', specs, 2, 'atMost', [7]);
    expect(strict).toMatchObject({ passed: false, score: 0.5, metric: 2, threshold: 1, ticks: [7] });
    expect(loose).toMatchObject({ passed: true, score: 1 });
    expect(scoreMilestones('x', [{ id: 'y', threshold: 1 }], 0.999, 'atLeast', [])[0].score).toBe(0.99);
  });
});
