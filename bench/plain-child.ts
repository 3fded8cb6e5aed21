/**
 * A plain process for the scale benchmark: tiny sessions one after another with `runSession`, no pool, no
 * coordinator, no messages per session. Two of them side by side are what two cores give this machine's
 * sessions with nothing between them, the ceiling any pool of 2 workers is measured against
 * (`pair_efficiency_tiny` in `scale.ts`).
 *
 * Started with `fork` and the task file as its argument; each `{ sessions, firstSeed }` message runs that many
 * sessions (`tiny-serial.ts`: seeds and scenes as the benchmark's sweeps have them) and answers `{ seconds, cpuMs }`.
 */
import { runTinySerially } from './tiny-serial.js';

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

if (process.send) {
  const task = process.argv[2];
  process.on('message', (request: PlainRunRequest) => {
    void runTinySerially(task, request.sessions, request.firstSeed).then((answer: PlainRunAnswer) => process.send!(answer));
  });
  process.on('disconnect', () => process.exit(0));
}
