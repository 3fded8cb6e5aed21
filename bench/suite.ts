/**
 * The suite benchmark (issues 5 and 12): what users run. The whole 112-session matrix of the default sweep
 * (every task in each of its rooms, reference apps, seed 1, both hands), one session after another on one
 * core, with sensing on where the tasks ask for it. From the same passes: the real-time factor of the whole
 * matrix, of the slowest task in its slowest room, and the validators' share of session time. Then the
 * fixed cost of a short session, and the cost of one full depth frame.
 */
import { createSession, expandMatrix, runSession, type Session, type SweepEntry, type Validator } from '../src/index.js';
import { depthFrameMs } from './depth-frame.js';
import { sessionOverheadMs } from './session-overhead.js';
import { cpuMs, median, round } from './stats.js';

/** One pass's wall and validator time per session of the matrix. */
interface Pass {
  wall: number[];
  cpu: number[];
  validators: number[];
  simulated: number[];
}

/** Times the session's validator set from outside, adding to `spent` (ms). */
function timeValidators(session: Session, spent: { ms: number }): void {
  const holder = session as unknown as { validators: Validator };
  const inner = holder.validators;
  holder.validators = {
    observe(frame) {
      const t0 = performance.now();
      inner.observe(frame);
      spent.ms += performance.now() - t0;
    },
    finish() {
      const t0 = performance.now();
      const milestones = inner.finish();
      spent.ms += performance.now() - t0;
      return milestones;
    },
  };
}

/** Runs every session of the matrix once, in order, in this thread. */
async function runMatrix(entries: SweepEntry[]): Promise<Pass> {
  const pass: Pass = { wall: [], cpu: [], validators: [], simulated: [] };
  for (const { spec } of entries) {
    const spent = { ms: 0 };
    const start = performance.now();
    const cpuStart = cpuMs();
    const session = await createSession(spec);
    timeValidators(session, spent);
    const result = await session.run();
    pass.wall.push(performance.now() - start);
    pass.cpu.push(cpuMs() - cpuStart);
    pass.validators.push(spent.ms);
    pass.simulated.push(result.ticks * session.model.timing.dt);
    if (result.status !== 'passed') throw new Error(`${spec.task} in ${spec.scene} (${spec.dominantHand}) did not pass: ${result.status}`);
  }
  return pass;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Runs the suite benchmark: a warm-up pass over the matrix, then three timed passes. */
export async function suiteBenchmark(progress: (line: string) => void) {
  const entries = expandMatrix({ seeds: [1] });
  progress(`warm-up pass over the ${entries.length}-session matrix …`);
  await runSession(entries[0].spec);
  await runMatrix(entries);
  const passes: Pass[] = [];
  for (let i = 0; i < 3; i++) {
    progress(`pass ${i + 1} of 3 …`);
    passes.push(await runMatrix(entries));
  }
  const simulated = sum(passes[0].simulated);
  const walls = passes.map((p) => sum(p.wall) / 1000);
  const middle = passes[walls.indexOf(median(walls))];
  const cpus = passes.map((p) => sum(p.cpu) / 1000);
  // Per task and room: simulated over wall (and CPU) seconds of both hands, the median over passes.
  const rooms = new Map<string, { simulated: number; wall: number[]; cpu: number[] }>();
  entries.forEach(({ spec }, i) => {
    const key = `${spec.task} @ ${spec.scene}`;
    const room = rooms.get(key) ?? { simulated: 0, wall: passes.map(() => 0), cpu: passes.map(() => 0) };
    room.simulated += passes[0].simulated[i];
    passes.forEach((p, k) => {
      room.wall[k] += p.wall[i] / 1000;
      room.cpu[k] += p.cpu[i] / 1000;
    });
    rooms.set(key, room);
  });
  const factors = [...rooms].map(([key, r]) => ({ key, factor: r.simulated / median(r.wall), cpuFactor: r.simulated / median(r.cpu) })).sort((a, b) => a.factor - b.factor);
  const slowestByCpu = [...factors].sort((a, b) => a.cpuFactor - b.cpuFactor)[0];
  progress('session overhead (5-tick physics sessions in the empty lab) …');
  const overhead = await sessionOverheadMs();
  progress('one depth frame (render and headset noise) in the living room …');
  const depth = await depthFrameMs();
  return {
    details: {
      sessions: entries.length,
      simulatedSeconds: round(simulated, 4),
      wallSeconds: walls.map((w) => round(w)),
      cpuSeconds: cpus.map((c) => round(c)),
      // The same figures from CPU time: what a quiet machine's wall clock would show.
      byCpuTime: {
        min_task_realtime_factor: round(slowestByCpu.cpuFactor),
        slowestRoom: slowestByCpu.key,
        suite_realtime_factor: round(simulated / median(cpus)),
        session_overhead_ms: overhead.cpuMs,
        depth_frame_ms_160x120: depth.cpuTotalMs,
      },
      validatorSeconds: round(sum(middle.validators) / 1000),
      slowestRooms: factors.slice(0, 8).map(({ key, factor }) => `${key}: ${round(factor)}×`),
      sessionOverheadMs: overhead.perTask,
      depthFrameMs: depth,
    },
    summary: {
      min_task_realtime_factor: round(factors[0].factor),
      suite_realtime_factor: round(simulated / median(walls)),
      session_overhead_ms: overhead.ms,
      depth_frame_ms_160x120: depth.totalMs,
      validator_share: round(sum(middle.validators) / sum(middle.wall)),
    },
  };
}
