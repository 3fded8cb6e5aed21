/**
 * Determinism is the product: the same spec gives a bit-identical session hash in one process, across
 * processes and in worker threads; another seed gives another hash when initial conditions are randomised.
 */
import { join } from 'node:path';
import { createSessionPool } from '../src/session/pool.js';
import { describe, expect, it } from 'vitest';
import { createSession, runSession, type SessionSpec } from '../src/index.js';
import { ROOT, xrsim } from './helpers/cli.js';

const TASKS = ['physics/stack-settle', 'physics/rolling-ball-checkpoints', 'physics/material-curling'];

describe('session hash bit-identity', () => {
  it.each(TASKS)('%s: two runs in one process give the same hash', async (task) => {
    const spec: SessionSpec = { task, seed: 7 };
    const a = await runSession(spec);
    const b = await runSession(spec);
    expect(a.status).not.toBe('errored');
    expect(a.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(b.hash).toBe(a.hash);
    expect(b.milestones).toEqual(a.milestones);
  });

  it('two sessions stepped alternately in one thread match sessions run alone', async () => {
    const spec: SessionSpec = { task: 'physics/rolling-ball-checkpoints', seed: 3 };
    const alone = await runSession(spec);
    const a = await createSession(spec);
    const b = await createSession({ ...spec, scene: 'kitchen' });
    while (!a.done || !b.done) {
      if (!a.done) a.step();
      if (!b.done) b.step();
    }
    expect(a.finish().hash).toBe(alone.hash);
    expect(b.finish().hash).toBe((await runSession({ ...spec, scene: 'kitchen' })).hash);
  });

  it('reads no clock while it steps: neither the kernel nor Rapier (whose profiler clock is stopped)', async () => {
    const session = await createSession({ task: 'xr/poke-button', seed: 2, scene: 'office' });
    const reads = { performance: 0, date: 0 };
    const now = performance.now;
    const dateNow = Date.now;
    performance.now = () => (reads.performance++, now.call(performance));
    Date.now = () => (reads.date++, dateNow());
    try {
      for (let i = 0; i < 120 && !session.done; i++) session.step();
    } finally {
      performance.now = now;
      Date.now = dateNow;
    }
    session.dispose();
    // Rapier asked the time 36 times per step before its clock was stopped.
    expect(reads).toEqual({ performance: 0, date: 0 });
  });

  it('two child processes give the same hash as this process', async () => {
    const inProcess = await runSession({ task: 'physics/material-curling', seed: 11, dominantHand: 'left' });
    const args = ['run', '--task', 'physics/material-curling', '--seed', '11', '--hand', 'left', '--json'];
    const first = xrsim(...args);
    const second = xrsim(...args);
    expect(first.code).toBe(0);
    expect(first.json.hash).toBe(second.json.hash);
    expect(first.json.hash).toBe(inProcess.hash);
  });

  it('a session worker process gives the same hash as this process', async () => {
    const specs: SessionSpec[] = TASKS.map((task, i) => ({ task, seed: 20 + i }));
    const expected = await Promise.all(specs.map((spec) => runSession(spec)));
    const pool = createSessionPool({ workers: 1 });
    try {
      const fromWorker = (await Promise.all(specs.map((spec) => pool.run(spec)))).map((run) => run.result);
      expect(fromWorker.map((r) => r.hash)).toEqual(expected.map((r) => r.hash));
      expect(fromWorker.map((r) => r.status)).toEqual(expected.map((r) => r.status));
    } finally {
      await pool.close();
    }
  });
});

describe('seeds', () => {
  it.each(TASKS)('%s: a different seed changes the hash (randomised initial conditions)', async (task) => {
    const a = await runSession({ task, seed: 1 });
    const b = await runSession({ task, seed: 2 });
    expect(a.hash).not.toBe(b.hash);
    expect(a.modelHash).toBe(b.modelHash);
  });

  it('the seed does not change a task without randomisation', async () => {
    const { loadTask } = await import('../src/index.js');
    const task = structuredClone(loadTask('physics/stack-settle').spec);
    delete task.randomize;
    const a = await runSession({ task, seed: 1 });
    const b = await runSession({ task, seed: 2 });
    expect(a.hash).toBe(b.hash);
  });

  it('substeps change the model hash and the session hash', async () => {
    const a = await runSession({ task: 'physics/stack-settle', seed: 1 });
    const b = await runSession({ task: 'physics/stack-settle', seed: 1, substeps: 2 });
    expect(b.modelHash).not.toBe(a.modelHash);
    expect(b.hash).not.toBe(a.hash);
  });
});
