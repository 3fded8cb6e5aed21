/**
 * The seam between the sweep coordinator and what runs its sessions: the local pool or a queue of
 * machines (`src/queue/`). In its own file so that the queue can implement it without importing the
 * coordinator that loads the queue.
 */
import type { SweepEntry } from './matrix.js';
import type { SweepResultLine } from './results.js';

/** What runs a sweep's entries to result lines: the local pool (or a given executor), or a queue. */
export interface EntryRunner {
  /** Entries in flight at most (read again as entries finish: it may change as the runner learns the sessions' sizes). */
  readonly capacity: number;
  run(entry: SweepEntry): Promise<RunLine>;
  /** Called once the entry's line is in `results.jsonl` (a queue then forgets the job). */
  written?(line: SweepResultLine): void;
  close(): Promise<void>;
}

/** An entry's result line, and its JSON text when the runner has it exactly (else the folder writes `JSON.stringify(line)`). */
export interface RunLine {
  line: SweepResultLine;
  text: string | null;
}
