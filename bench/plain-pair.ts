/**
 * Plain processes for the scale benchmark (`plain-child.ts`): warm processes that run tiny sessions with no
 * pool and no coordinator, timed alone or side by side. What two of them do at once against one alone is
 * the most two cores give these sessions on this machine: two workers of any pool can do no better.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PlainRunAnswer, PlainRunRequest } from './plain-child.js';

const CHILD = fileURLToPath(new URL('./plain-child.js', import.meta.url));

/** Sessions per second of one plain process alone, and of two side by side (sessions of both ÷ the longer wall time). */
export interface PlainRates {
  alone: number;
  pair: number;
}

/** Two warm plain processes. */
export class PlainPair {
  private readonly children: ChildProcess[];

  constructor(taskFile: string) {
    this.children = [0, 1].map(() => fork(CHILD, [taskFile], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  }

  /** Runs `sessions` sessions in each process at once (untimed warm-up). */
  async warm(sessions: number, firstSeed: number): Promise<void> {
    await Promise.all(this.children.map((child) => ask(child, { sessions, firstSeed })));
  }

  /** `sessions` sessions in the first process alone, then `sessions` in each of the two at once. */
  async rates(sessions: number, firstSeed: number): Promise<PlainRates> {
    const alone = await ask(this.children[0], { sessions, firstSeed });
    const pair = await Promise.all(this.children.map((child) => ask(child, { sessions, firstSeed })));
    return { alone: sessions / alone.seconds, pair: (2 * sessions) / Math.max(pair[0].seconds, pair[1].seconds) };
  }

  close(): void {
    for (const child of this.children) if (child.connected) child.disconnect();
  }
}

function ask(child: ChildProcess, request: PlainRunRequest): Promise<PlainRunAnswer> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a plain benchmark process exited (code ${code}) before it answered`));
    child.once('exit', onExit);
    child.once('message', (answer) => {
      child.off('exit', onExit);
      resolve(answer as PlainRunAnswer);
    });
    child.send(request);
  });
}
