/**
 * The fixed cost of a session: `runSession` of a 5-tick physics task in the empty lab (loading the task and
 * the scene, building the model, the Rapier world, the user and the validators, five ticks, the
 * milestones), after warm-up, for each physics task of the suite. Seeds change from session to session.
 */
import { listTaskIds, runSession } from '../src/index.js';
import { cpuMs, median, round } from './stats.js';

const TICKS = 5;

/** Wall and CPU ms per 5-tick session of `task`: the medians of 5 trials of `sessions` sessions each. */
async function msPerSession(task: string, sessions: number, seed: { next: number }): Promise<{ wall: number; cpu: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let trial = 0; trial < 5; trial++) {
    const start = performance.now();
    const cpuStart = cpuMs();
    for (let i = 0; i < sessions; i++) {
      const result = await runSession({ task, scene: 'empty-lab', seed: seed.next++, duration: TICKS / 90 });
      if (result.status === 'errored') throw new Error(`${task}: ${result.error?.message}`);
    }
    wall.push((performance.now() - start) / sessions);
    cpu.push((cpuMs() - cpuStart) / sessions);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** Per physics task, and the largest of them (the headline figure), by wall clock and by CPU time. */
export async function sessionOverheadMs(): Promise<{ ms: number; cpuMs: number; perTask: Record<string, number> }> {
  const tasks = listTaskIds().filter((id) => id.startsWith('physics/'));
  const seed = { next: 1 };
  for (const task of tasks) await msPerSession(task, 20, seed);
  const perTask: Record<string, number> = {};
  let cpu = 0;
  for (const task of tasks) {
    const ms = await msPerSession(task, 40, seed);
    perTask[task] = round(ms.wall);
    cpu = Math.max(cpu, ms.cpu);
  }
  return { ms: Math.max(...Object.values(perTask)), cpuMs: round(cpu), perTask };
}
