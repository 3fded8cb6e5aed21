/**
 * A plain process for the scale benchmark: tiny sessions one after another with `runSession`, no pool, no
 * coordinator, no messages per session. Two of them side by side are what two cores give this machine's
 * sessions with nothing between them, the ceiling any pool of 2 workers is measured against
 * (`pair_efficiency_tiny` in `scale.ts`).
 *
 * Started with `fork` and the task file as its argument; each `{ sessions, firstSeed }` message runs that many
 * sessions (seeds and scenes as the benchmark's sweeps have them) and answers `{ seconds, cpuMs }`.
 */
import { runSession } from '../src/index.js';

/** What the benchmark asks of the child. */
export interface PlainRunRequest {
  sessions: number;
  firstSeed: number;
}

/** What the child answers: wall seconds and process CPU ms (all threads) for the request's sessions. */
export interface PlainRunAnswer {
  seconds: number;
  cpuMs: number;
}

/** The scenes the benchmark cycles through (the same as `scale.ts`). */
export const PLAIN_SCENES = ['empty-lab', 'living-room', 'kitchen', 'office'];

if (process.send) {
  const task = process.argv[2];
  process.on('message', (request: PlainRunRequest) => {
    void (async () => {
      const cpuBefore = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < request.sessions; i++) {
        await runSession({ task, seed: request.firstSeed + Math.floor(i / PLAIN_SCENES.length), scene: PLAIN_SCENES[i % PLAIN_SCENES.length], dominantHand: 'right' });
      }
      const seconds = (performance.now() - start) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const answer: PlainRunAnswer = { seconds, cpuMs: (cpu.user + cpu.system) / 1000 };
      process.send!(answer);
    })();
  });
  process.on('disconnect', () => process.exit(0));
}
