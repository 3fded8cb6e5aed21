/**
 * The simulated-user benchmark (issue 3): forward kinematics per hand, and the whole user stage (two moving
 * hands, the head, contact queries, kinematic updates) against the physics step of the same 10-body
 * session, measured tick by tick in the same run.
 */
import { createFkScratch, handLocalPoses, handWorldPoses } from '../kernels/hand-fk.js';
import { buildModel, loadScene, loadTask, Session, type TaskSpec } from '../src/index.js';
import { loadHandModel } from '../src/hand/hand-model.js';
import { resolvePose } from '../src/hand/poses.js';
import { median, round, seconds } from './stats.js';

/** FK of one hand (local and world poses), µs, on poses that change every call. */
async function fkCost(): Promise<number> {
  const model = loadHandModel('medium');
  const a = resolvePose('open', model).angles;
  const b = resolvePose('fist', model).angles;
  const angles = new Float64Array(a.length);
  const local = createFkScratch();
  const positions = new Float32Array(78);
  const orientations = new Float32Array(104);
  const wrist = [0.2, 1.1, -0.3, 0, 0, 0, 1];
  const calls = 200_000;
  const runs: number[] = [];
  for (let trial = 0; trial < 7; trial++) {
    runs.push(
      await seconds(() => {
        for (let i = 0; i < calls; i++) {
          const s = (i % 100) / 100;
          for (let k = 0; k < angles.length; k++) angles[k] = a[k] + s * (b[k] - a[k]);
          handLocalPoses(model.skeleton, angles, local);
          wrist[0] = 0.2 + s * 0.01;
          handWorldPoses(local, (i & 1) === 1, wrist, positions, orientations);
        }
      }),
    );
  }
  // Subtract the angle interpolation, which is the caller's work, not FK's.
  const blendOnly = await seconds(() => {
    for (let i = 0; i < calls; i++) {
      const s = (i % 100) / 100;
      for (let k = 0; k < angles.length; k++) angles[k] = a[k] + s * (b[k] - a[k]);
    }
  });
  return ((median(runs.slice(2)) - blendOnly) / calls) * 1e6;
}

/** Ten blocks falling onto the lab bench beside a seated user whose hands keep moving. */
function busyBenchModel() {
  const task: TaskSpec = {
    id: 'bench/user-stage',
    title: 'a seated user working at the bench while blocks fall beside them',
    scene: 'empty-lab',
    duration: 10,
    placement: { anchor: 'table-top', clear: [0.5, 0.35] },
    user: { posture: 'seated', start: { position: [0, 0, 0.35], yawDeg: 0 } },
    bodies: Array.from({ length: 10 }, (_, i) => ({
      id: `block-${i}`,
      mass: 0.1,
      friction: 0.5,
      restitution: 0.2,
      position: [0.25 + 0.06 * (i % 2), 0.05 + 0.06 * i, -0.12] as [number, number, number],
      shape: { type: 'box' as const, size: [0.04, 0.04, 0.04] as [number, number, number] },
    })),
    validators: [{ type: 'settle', bodies: ['task:block-0'], linearSpeedBelow: 0.01, milestones: [{ id: 'settles', threshold: 10 }] }],
  };
  const empty = loadScene('empty-lab');
  return buildModel({ spec: { ...empty.spec, props: [] }, file: '<bench scene>' }, loadTask(task));
}

/** Per-tick time of the user stage and of the physics step, in one session, µs. */
async function userStageVsPhysics() {
  const model = busyBenchModel();
  const anchor = loadScene('empty-lab').spec.anchors['table-top'].position;
  const overhead = timerOverhead();
  const trials: { user: number; physics: number }[] = [];
  for (let trial = 0; trial < 12; trial++) {
    const session = await Session.create(model, { seed: trial });
    const state = session.state;
    const dt = model.timing.dt;
    const left = session.user.hand('left');
    const right = session.user.hand('right');
    let user = 0;
    let physics = 0;
    while (!session.done) {
      const tick = state.tick + 1;
      // Keep both hands busy: new targets every half second, alternating poses, some touching the bench.
      if (tick % 45 === 1) {
        const phase = Math.floor(tick / 45) % 4; // 0..3: a whole number, so `phase % 2` is a pinch amount of 0 or 1
        right.moveTo({ point: [anchor[0] + 0.05 * phase, anchor[1] + (phase === 2 ? -0.01 : 0.08), anchor[2] + 0.05], with: 'index-tip' }, { duration: 0.45 });
        left.moveTo({ point: [anchor[0] - 0.15, anchor[1] + 0.1 + 0.03 * phase, anchor[2] + 0.02] }, { duration: 0.45 });
        right.pose(phase % 2 ? 'point' : 'poke', { duration: 0.3 });
        left.pinch(phase % 2, { duration: 0.3 });
        session.user.head.lookAt([anchor[0] + 0.1 * Math.sin(tick), anchor[1], anchor[2]]);
      }
      state.tick = tick;
      state.frame.eventWords = 0;
      // performance.now(): allocation-free (hrtime.bigint allocates a BigInt per call, which would add its
      // own garbage to the stage being measured).
      let t0 = performance.now();
      state.updateUser(tick * dt);
      let t1 = performance.now();
      user += t1 - t0;
      t0 = performance.now();
      state.physics.step(state.frame);
      t1 = performance.now();
      physics += t1 - t0;
      state.physics.readPoses(state.frame.bodyPoses);
      state.writeUserChannels();
      state.frame.setTime(tick, tick * dt);
      state.hashFrame();
    }
    const ticks = model.timing.durationTicks;
    if (trial >= 2) trials.push({ user: (user / ticks) * 1000 - overhead, physics: (physics / ticks) * 1000 - overhead });
    session.dispose();
  }
  const user = median(trials.map((t) => t.user));
  const physics = median(trials.map((t) => t.physics));
  return { userUs: round(user), physicsUs: round(physics), ratio: round(median(trials.map((t) => t.user / t.physics))) };
}

/** Cost of a pair of performance.now() calls, µs, subtracted from per-tick timings. */
function timerOverhead(): number {
  const n = 200_000;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    const b = performance.now();
    total += b - a;
  }
  return (total / n) * 1000;
}

/** Runs the hands suite. */
export async function handsBenchmark(progress: (line: string) => void) {
  progress('forward kinematics …');
  const fk = await fkCost();
  progress('user stage against the physics step of a 10-body session …');
  const stage = await userStageVsPhysics();
  return {
    details: { fkUsPerHand: round(fk), userStage: stage },
    summary: { fk_us_per_hand: round(fk), user_stage_vs_physics_10: stage.ratio },
  };
}
