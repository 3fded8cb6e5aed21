/**
 * The suite benchmark (issue 5): the whole default suite with reference apps, one seed, both hands, each
 * task in its default scene, run one after another on one core; and the share of session time spent in
 * validators (timed around their `observe` and `finish`).
 */
import { createSession, listTaskIds, loadTask, type Validator } from '../src/index.js';
import { round } from './stats.js';

/** Runs the suite once; returns simulated and wall seconds, and validator seconds. */
async function runSuite(): Promise<{ simulated: number; wall: number; validators: number; sessions: number }> {
  let simulated = 0;
  let wall = 0;
  let validators = 0;
  let sessions = 0;
  for (const task of listTaskIds()) {
    for (const hand of ['right', 'left'] as const) {
      const start = performance.now();
      const session = await createSession({ task, seed: 1, dominantHand: hand });
      // Time the validators from outside: wrap the session's validator set.
      const inner = (session as unknown as { validators: Validator }).validators;
      (session as unknown as { validators: Validator }).validators = {
        observe(frame) {
          const t0 = performance.now();
          inner.observe(frame);
          validators += performance.now() - t0;
        },
        finish() {
          const t0 = performance.now();
          const milestones = inner.finish();
          validators += performance.now() - t0;
          return milestones;
        },
      };
      const result = await session.run();
      wall += performance.now() - start;
      simulated += result.ticks * session.model.timing.dt;
      sessions++;
      if (result.status !== 'passed') throw new Error(`${task} (${hand}) did not pass: ${result.status}`);
    }
  }
  return { simulated, wall: wall / 1000, validators: validators / 1000, sessions };
}

/** Runs the suite benchmark: a warm-up pass, then the median of three. */
export async function suiteBenchmark(progress: (line: string) => void) {
  progress('warm-up pass over the suite …');
  await runSuite();
  const runs = [];
  for (let i = 0; i < 3; i++) {
    progress(`pass ${i + 1} of 3 …`);
    runs.push(await runSuite());
  }
  runs.sort((a, b) => a.wall - b.wall);
  const median = runs[1];
  return {
    details: {
      tasks: listTaskIds().length,
      sessions: median.sessions,
      simulatedSeconds: round(median.simulated, 4),
      wallSeconds: round(median.wall),
      validatorSeconds: round(median.validators),
      tasksWithApps: listTaskIds().filter((id) => loadTask(id).spec.apps).length,
    },
    summary: {
      suite_realtime_factor: round(median.simulated / median.wall),
      validator_share: round(median.validators / median.wall),
    },
  };
}
