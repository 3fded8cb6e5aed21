/**
 * XR Blocks' own gesture recognizer (the npm package `xrblocks` 0.21.1, as published, unmodified) reads every
 * simulated pose as the gesture it is, on every hand size and both hands:
 *
 * - in Node, its `HeuristicGestureRecognizer` (the package's source, which its build bundles) on the 25 WebXR
 *   joint positions, as its WebXR pose estimator hands them over, at each pose's default wrist placement;
 * - in real Chromium, an XR Blocks page on its built bundle, reading the hands of a running session: after a
 *   reach, each pose starts its gesture and leaves no other one active (skipped only with XRSIM_SKIP_SYSTEM=1).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { HeuristicGestureRecognizer } from '../node_modules/xrblocks/src/input/gestures/gestureRecognizers/HeuristicGestureRecognizer.ts';
import { closeSharedChromium } from '../src/browser/chromium.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { listHandModelIds, loadHandModel } from '../src/hand/hand-model.js';
import { WEBXR_JOINTS } from '../src/hand/joints.js';
import { resolvePose } from '../src/hand/poses.js';
import { createSession, decodeEvents } from '../src/index.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { defaultWristPose, poseHand } from '../src/user/posed-hand.js';
import { FIXTURES, SKIP_SYSTEM } from './helpers/browser.js';
import { benchTask } from './helpers/user.js';

const SIZES = listHandModelIds();
const SIDES = ['left', 'right'] as const;
const GESTURES_SOURCE = join(PACKAGE_ROOT, 'node_modules/xrblocks/src/input/gestures');
/** The confidence at which XR Blocks fires a gesture: its options' default, read from the package. */
const MINIMUM_CONFIDENCE = Number(/minimumConfidence = ([\d.]+);/.exec(readFileSync(join(GESTURES_SOURCE, 'GestureRecognitionOptions.ts'), 'utf8'))![1]);

/** Each pose and the XR Blocks gesture it is. An open hand with its fingers spread is also XR Blocks' `spread`. */
const EXPECTED: [pose: string, gesture: string][] = [
  ['fist', 'fist'],
  ['open', 'open-palm'],
  ['palm-up', 'open-palm'],
  ['point', 'point'],
  ['poke', 'point'],
  ['pinch', 'pinch'],
  ['thumbs-up', 'thumbs-up'],
  ['thumbs-down', 'thumbs-down'],
];
const ALSO_SPREAD = new Set(['open', 'palm-up']);

/** XR Blocks' scores for a library pose at its default wrist placement. */
function xrBlocksScores(size: string, side: 'left' | 'right', pose: string): Record<string, number> {
  const model = loadHandModel(size);
  const resolved = resolvePose(pose, model);
  const hand = poseHand(model, resolved, side, defaultWristPose(model, side, resolved));
  // What its WebXR pose estimator gives the recognizer: each joint's world position (WebXR joint k is OpenXR k + 1).
  const joints = new Map(WEBXR_JOINTS.map((name, k) => [name, new Vector3(hand.positions[(k + 1) * 3], hand.positions[(k + 1) * 3 + 1], hand.positions[(k + 1) * 3 + 2])]));
  const context = { handedness: side === 'left' ? 0 : 1, handLabel: side, joints, getJoint: (name: string) => joints.get(name) };
  const scores = new HeuristicGestureRecognizer().recognize(context as never);
  return Object.fromEntries(Object.entries(scores).map(([name, result]) => [name, result?.confidence ?? 0]));
}

describe("XR Blocks' recognizer in Node, on the poses at their default wrist placement", () => {
  it('fires at 0.6, its default', () => {
    expect(MINIMUM_CONFIDENCE).toBe(0.6);
  });

  describe.each(SIZES)('%s hand', (size) => {
    it.each(SIDES)('reads fist, open palm, point, pinch, thumbs up and thumbs down, and nothing else (%s)', (side) => {
      for (const [pose, gesture] of EXPECTED) {
        const scores = xrBlocksScores(size, side, pose);
        const message = `${pose}, ${size} ${side}: ${JSON.stringify(Object.fromEntries(Object.entries(scores).map(([g, s]) => [g, Number(s.toFixed(2))])))}`;
        expect(scores[gesture], message).toBeGreaterThanOrEqual(MINIMUM_CONFIDENCE + 0.05);
        for (const [other, score] of Object.entries(scores)) {
          if (other === gesture || (other === 'spread' && ALSO_SPREAD.has(pose))) continue;
          expect(score, `${message}: ${other}`).toBeLessThan(MINIMUM_CONFIDENCE);
        }
      }
    });
  });
});

/** When the test changes the dominant hand's pose (seconds), and the gesture XR Blocks must hold at the next change. */
const SCHEDULE: { at: number; pose: string; gesture: string }[] = [
  { at: 0.9, pose: 'fist', gesture: 'fist' },
  { at: 1.7, pose: 'thumbs-up', gesture: 'thumbs-up' },
  { at: 2.5, pose: 'thumbs-down', gesture: 'thumbs-down' },
  { at: 3.3, pose: 'point', gesture: 'point' },
  { at: 4.1, pose: 'open', gesture: 'open-palm' },
  { at: 4.9, pose: 'pinch', gesture: 'pinch' },
];
const END = 5.7;

describe.skipIf(SKIP_SYSTEM)("XR Blocks' recognizer in Chromium, on a session's hands (system test)", () => {
  afterAll(async () => {
    await closeSharedChromium();
  });

  const cases = [...SIDES.map((side) => ['medium', side] as const), ['small', 'right'] as const, ['large', 'left'] as const];
  it.each(cases)('after a reach, each pose of a %s %s hand starts its gesture and leaves no other active', async (size, side) => {
    const task = benchTask({ id: 'test/xrblocks-gestures', duration: END, apps: { reference: { host: 'browser', dir: join(FIXTURES, 'xrblocks-gestures') } } });
    const session = await createSession({ task, app: 'reference', seed: 1, dominantHand: side, handModel: size });
    const dt = session.model.timing.dt;
    const tickOf = (seconds: number) => Math.round(seconds / dt);
    const hand = session.user.hand('dominant');
    // The set of gestures active on the dominant hand, after each frame's events.
    const active = new Set<string>();
    const seen = new Map<number, string[]>();
    const errors: unknown[] = [];
    await session.run({
      beforeStep: (_, tick) => {
        if (tick === tickOf(0.2)) {
          const palm = hand.pointOf('palm');
          hand.moveTo({ point: [palm[0], palm[1] + 0.08, palm[2] - 0.12], with: 'palm' }, { duration: 0.5 });
        }
        for (const step of SCHEDULE) {
          if (tick !== tickOf(step.at)) continue;
          if (step.pose === 'pinch') hand.pinch(1, { duration: 0.25 });
          else hand.pose(step.pose, { duration: 0.3 });
        }
      },
      onFrame: (frame) => {
        for (const e of decodeEvents(frame.events, frame.eventWords)) {
          if (e.name === 'app-error') errors.push(readJsonPayload(e.payload, 0));
          if (e.name !== 'app-event') continue;
          const { name, data } = readJsonPayload<{ name: string; data: { name: string; hand: string } }>(e.payload, 0);
          if (data.hand !== side) continue;
          if (name === 'gesturestart') active.add(data.name);
          if (name === 'gestureend') active.delete(data.name);
        }
        seen.set(frame.tick, [...active].sort());
      },
    });
    expect(errors).toEqual([]);
    // Just before each change, the pose held since the last one is the one gesture active.
    const held = SCHEDULE.map((step, i) => ({ pose: step.pose, active: seen.get(tickOf(i + 1 < SCHEDULE.length ? SCHEDULE[i + 1].at : END) - 1) }));
    expect(held, `${size} ${side}`).toEqual(SCHEDULE.map((step) => ({ pose: step.pose, active: [step.gesture] })));
  }, 240_000);
});
