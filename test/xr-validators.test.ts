/**
 * The XR validator formulas on synthetic frames: tags published as an app would, head poses and app
 * events set tick by tick, so each formula's metric is known exactly.
 */
import { describe, expect, it } from 'vitest';
import { Frame } from '../src/frame/frame.js';
import { frameLayoutFor } from '../src/frame/layout.js';
import { writeJsonRecord } from '../src/frame/json-record.js';
import { EventType } from '../src/frame/events.js';
import { TagRegistry } from '../src/app/tags.js';
import { buildModel, createValidator, loadScene, loadTask, type Vec3, type ValidatorSpec } from '../src/index.js';
import { FrameState } from '../src/validate/frame-state.js';
import { benchTask } from './helpers/user.js';

const model = buildModel(loadScene('empty-lab'), loadTask(benchTask()));
const anchor = model.taskFrame.position;
/** A task-frame point in the world (the frame is the bench top, unrotated). */
const w = (x: number, y: number, z: number): Vec3 => [anchor[0] + x, anchor[1] + y, anchor[2] + z];

interface Tick {
  tags?: Record<string, Vec3 | { position: Vec3; rotation: [number, number, number, number] } | null>;
  events?: (string | { name: string; data: unknown })[];
  /** Head position (looking along −Z, level). */
  head?: Vec3;
}

/** Runs a validator over ticks described by `at(tick)`, and returns its first milestone. */
function measure(spec: ValidatorSpec, ticks: number, at: (tick: number) => Tick) {
  const state = new FrameState();
  const validator = createValidator(spec, { model, dominantHand: 'right', state });
  const frame = new Frame(frameLayoutFor(model));
  const tags = new TagRegistry();
  const current: Record<string, Tick['tags'] extends infer T ? (T extends Record<string, infer V> ? V : never) : never> = {};
  for (let tick = 0; tick < ticks; tick++) {
    const t = at(tick);
    frame.eventWords = 0;
    frame.setTime(tick, tick * model.timing.dt);
    frame.channel('head')!.set([...(t.head ?? w(0, 0.5, 0.4)), 0, 0, 0, 1]);
    for (const [role, pose] of Object.entries(t.tags ?? {})) {
      if (!(role in current)) tags.tag(role, role, () => current[role] ?? null);
      current[role] = pose;
    }
    tags.publish(frame, () => undefined);
    for (const e of t.events ?? []) writeJsonRecord(frame, EventType.AppEvent, [], typeof e === 'string' ? { name: e } : e);
    state.observe(frame);
    validator.observe(frame);
  }
  return validator.finish()[0];
}

const milestones = [{ id: 'm', threshold: 0 }];

describe('XR validator formulas', () => {
  it('presses: counts penetrations past the enter depth once each, with hysteresis at the exit depth', () => {
    // The button faces +Z at the origin; the finger goes in 10 mm, wobbles to 6 mm (not out), leaves, comes back.
    const depths = [0, 0.004, 0.01, 0.006, 0.01, 0.002, 0, 0.009, 0.001];
    const m = measure({ type: 'presses', finger: 'tag:finger', target: 'tag:button', enterDepth: 0.008, exitDepth: 0.003, radius: 0.03, milestones: [{ id: 'two', threshold: 2 }] }, depths.length, (i) => ({
      tags: { button: { position: w(0, 0.2, 0), rotation: [0, 0, 0, 1] }, finger: w(0.01, 0.2, -depths[i]) },
    }));
    expect(m.metric).toBe(2);
    expect(m.passed).toBe(true);
    expect(m.ticks).toEqual([2, 7]);
  });

  it('presses: a finger beside the button does not press it', () => {
    const m = measure({ type: 'presses', finger: 'tag:finger', target: 'tag:button', enterDepth: 0.008, exitDepth: 0.003, radius: 0.03, milestones }, 3, () => ({
      tags: { button: { position: w(0, 0.2, 0), rotation: [0, 0, 0, 1] }, finger: w(0.05, 0.2, -0.02) },
    }));
    expect(m.metric).toBe(0);
  });

  it('event-order: counts steps met in order within their timing bounds', () => {
    const dt = model.timing.dt;
    const events: Record<number, string> = { 10: 'app:a', 20: 'app:c', 30: 'app:b', 120: 'app:c' };
    const spec = (within: number): ValidatorSpec => ({ type: 'event-order', steps: [{ event: 'app:a' }, { event: 'app:b', within: 0.5 }, { event: 'app:c', within: within }], milestones: [{ id: 'all', threshold: 3 }] });
    const run = (within: number) => measure(spec(within), 200, (i) => ({ events: events[i] ? [events[i].slice(4)] : [] }));
    // a at 10, b at 30 (0.22 s later), c at 120 (1.0 s after b): met with within 1.5, not with 0.5.
    expect(run(1.5).metric).toBe(3);
    expect(run(0.5).metric).toBe(2);
    expect(dt).toBeCloseTo(1 / 90);
  });

  it('follow: the worst distance between events, or the change of offset', () => {
    const spec = (offset: 'none' | 'initial'): ValidatorSpec => ({ type: 'follow', subject: 'tag:ball', leader: 'tag:hand', between: ['app:grab', 'app:drop'], offset, milestones });
    const at = (i: number): Tick => ({
      tags: { hand: w(0.01 * i, 0.3, 0), ball: w(0.01 * i + 0.05 + (i === 5 ? 0.02 : 0), 0.3, 0) },
      events: i === 2 ? ['grab'] : i === 7 ? ['drop'] : [],
    });
    expect(measure(spec('none'), 12, at).metric).toBeCloseTo(0.07, 6);
    expect(measure(spec('initial'), 12, at).metric).toBeCloseTo(0.02, 6);
  });

  it('overlap: IoU in the view of the reported rectangle and the one two subjects span', () => {
    const corners = [w(-0.1, 0.6, 0), w(0.1, 0.4, 0)];
    const spec: ValidatorSpec = { type: 'overlap', event: 'app:photo', corners: ['tag:a', 'tag:b'], milestones };
    const same = measure(spec, 3, (i) => ({ tags: { a: corners[0], b: corners[1] }, events: i === 1 ? [{ name: 'photo', data: { corners } }] : [] }));
    expect(same.metric).toBeCloseTo(1, 4);
    // Half of it, shifted right by half its width: intersection 1/2, union 3/2.
    const shifted = [w(0, 0.6, 0), w(0.2, 0.4, 0)];
    const half = measure(spec, 3, (i) => ({ tags: { a: corners[0], b: corners[1] }, events: i === 1 ? [{ name: 'photo', data: { corners: shifted } }] : [] }));
    expect(half.metric).toBeCloseTo(1 / 3, 4);
  });

  it('coverage: the fraction of points the path came near', () => {
    const path = [w(0, 0.3, 0), w(0.1, 0.3, 0), w(0.2, 0.3, 0)];
    const m = measure({ type: 'coverage', subject: 'tag:pen', points: [[0, 0.3, 0], [0.2, 0.31, 0], [0.5, 0.3, 0], [0.1, 0.5, 0]], radius: 0.02, milestones }, 3, (i) => ({ tags: { pen: path[i] } }));
    expect(m.metric).toBe(0.5);
  });

  it('reachability: hops through nodes within the step, blocked by static surfaces', () => {
    // Along the bench top: 0.3 m steps reach the far node in 2 hops; a 0.2 m limit never does.
    const nodes: Vec3[] = [[0, 0.05, 0], [0.3, 0.05, 0], [0.6, 0.05, 0]];
    const spec = (maxStep: number): ValidatorSpec => ({ type: 'reachability', nodes, from: 0, to: 2, maxStep, milestones: [{ id: 'm', threshold: 2 }] });
    expect(measure(spec(0.31), 1, () => ({})).metric).toBe(2);
    expect(measure(spec(0.2), 1, () => ({})).metric).toBeNull();
    // Through the bench top (from above it to below it) nothing links, however long the step.
    const through: ValidatorSpec = { type: 'reachability', nodes: [[0, 0.1, 0], [0, -0.1, 0]], from: 0, to: 1, maxStep: 1, milestones };
    expect(measure(through, 1, () => ({})).metric).toBeNull();
  });

  it('visible: in the field of view and not hidden by the bench', () => {
    const spec: ValidatorSpec = { type: "visible", subject: "tag:x", milestones: [{ id: "m", threshold: 1 }] };
    const seen = (p: Vec3) => measure(spec, 2, () => ({ tags: { x: p }, head: w(0, 0.5, 0.4) })).metric;
    expect(seen(w(0, 0.3, -0.2))).toBe(1); // in front, above the bench
    expect(seen(w(0, -0.2, -0.2))).toBe(0); // under the bench top: hidden
    expect(seen(w(0, 0.5, 1.5))).toBe(0); // behind the head
  });

  it('distance-at, speed, presence and signed displacement', () => {
    const p = (i: number) => w(0.01 * i, 0.3, 0);
    expect(measure({ type: 'distance-at', a: 'tag:x', b: [0, 0.3, 0], at: 'app:go', milestones }, 10, (i) => ({ tags: { x: p(i) }, events: i === 4 ? ['go'] : [] })).metric).toBeCloseTo(0.04, 6);
    // With the max norm, the largest offset along the axes: a box, as a basket is (a corner is inside it).
    const corner = w(0.2, 0.3, 0.2);
    expect(measure({ type: 'distance-at', a: 'tag:x', b: [0, 0.3, 0], at: 0, norm: 'max', axes: 'xz', milestones }, 1, () => ({ tags: { x: corner } })).metric).toBeCloseTo(0.2, 6);
    expect(measure({ type: 'distance-at', a: 'tag:x', b: [0, 0.3, 0], at: 0, axes: 'xz', milestones }, 1, () => ({ tags: { x: corner } })).metric).toBeCloseTo(0.2 * Math.SQRT2, 6);
    expect(measure({ type: 'speed', subject: 'tag:x', at: 0, afterSeconds: 0.1, milestones }, 20, (i) => ({ tags: { x: p(i) } })).metric).toBeCloseTo(0.9, 1);
    expect(measure({ type: 'presence', subject: 'tag:x', milestones }, 10, (i) => ({ tags: { x: i < 3 ? p(i) : null } })).metric).toBeCloseTo(0.3, 6);
    expect(measure({ type: 'displacement', subject: 'tag:x', from: 0, to: 0.05, along: [-1, 0, 0], milestones }, 10, (i) => ({ tags: { x: p(i) } })).metric).toBeCloseTo(-0.05, 6);
  });
});
