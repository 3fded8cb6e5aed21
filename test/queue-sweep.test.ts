/**
 * Queue sweeps on a real Redis (issue 14's acceptance; skipped only with XRSIM_SKIP_SYSTEM=1):
 * - equivalence: two worker processes give the same sorted results as a local sweep of the same matrix;
 * - a worker stopped with SIGTERM finishes the jobs it holds and exits 0;
 * - a worker SIGKILLed mid-sweep: BullMQ's stalled-job check returns its job and the other worker finishes
 *   it; every session is in results.jsonl exactly once;
 * - a coordinator SIGKILLed and restarted with the same --out collects what finished meanwhile: no loss, no
 *   duplicates, and no job is left in Redis;
 * - a poison job (its app kills the session worker) is errored after its attempts with every attempt's
 *   reason, and the sweep finishes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTask } from '../src/index.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';
import { comparable, resultLines, SKIP_SYSTEM, startRedis, startWorker, startXrsim, waitUntil, type RedisServer, type Running } from './helpers/redis.js';

const MATRIX = ['physics/{cube-move,stack-settle}', 'xr/poke-button', '--apps', 'process', '--seeds', '1..2', '--hands', 'right', '--scenes', 'office'];
const SESSIONS = 16;

/** Job keys (not BullMQ's own keys) left in a queue. */
const jobKeys = (redis: RedisServer, queue: string) => redis.cli('--scan', '--pattern', `bull:${queue}:*`).split('\n').filter((k) => /:s-[0-9a-f]{16}$/.test(k));

describe.skipIf(SKIP_SYSTEM)('queue sweeps on a real Redis', () => {
  let redis: RedisServer;
  let local: string;
  const running: Running[] = [];
  const worker = (queue: string, extra: string[] = []) => {
    const w = startWorker(redis.url, ['--queue-name', queue, ...extra]);
    running.push(w);
    return w;
  };

  beforeAll(async () => {
    redis = await startRedis();
    local = join(tempDir(), 'local');
    const r = xrsim('sweep', ...MATRIX, '--keep-streams', 'none', '--workers', '2', '--out', local);
    expect(r.code, r.stderr).toBe(0); // the adversarial apps fail, as expected
  });

  afterAll(async () => {
    for (const r of running) r.child.kill('SIGKILL');
    await redis?.stop();
  });

  it('two worker processes give the same sorted results as a local sweep of the same matrix', async () => {
    const workers = [worker('equivalence'), worker('equivalence')];
    const out = join(tempDir(), 'queued');
    const r = xrsim('sweep', ...MATRIX, '--queue', redis.url, '--queue-name', 'equivalence', '--out', out, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ sessions: SESSIONS, failed: 10, failedAsExpected: 10, unexpected: 0, errored: 0 });
    expect(comparable(resultLines(out))).toEqual(comparable(resultLines(local)));
    // Both workers took jobs, and the collected jobs are gone from Redis.
    for (const w of workers) w.child.kill('SIGTERM');
    const codes = await Promise.all(workers.map((w) => w.exited));
    expect(codes).toEqual([0, 0]);
    for (const w of workers) expect(w.stderr()).toMatch(/stopped \(closed\): [1-9]\d* jobs taken/);
    expect(jobKeys(redis, 'equivalence')).toEqual([]);
  });

  it('a worker stopped with SIGTERM finishes the jobs it holds, takes no new one and exits 0', async () => {
    // Long locks: this test is about draining, not stalls, and a loaded machine can starve a 2 s lock's renewal.
    const first = worker('drain', ['--json', '--lock-seconds', '30']);
    const out = join(tempDir(), 'drain');
    const sweep = startXrsim(['sweep', 'physics/stack-settle', '--seeds', '1..6', '--hands', 'right', '--scenes', 'office', '--queue', redis.url, '--queue-name', 'drain', '--out', out]);
    running.push(sweep);
    await waitUntil(() => resultLines(out).length >= 1, 90, 'the first result');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const done = JSON.parse(first.stdout().trim().split('\n').pop()!);
    expect(first.stderr()).toMatch(/stopping: taking no new jobs; finishing the 2 jobs it holds/); // one running, one ready
    // Its last job was finished and collected, not abandoned: the results hold every job it completed.
    await waitUntil(() => resultLines(out).length >= done.completed, 30, 'its last result');
    expect(done).toMatchObject({ reason: 'closed', crashed: 0 });
    expect(done.completed).toBeLessThan(6);
    // Another worker finishes the rest; nothing ever stalled.
    worker('drain', ['--idle-exit', '2', '--lock-seconds', '30']);
    expect(await sweep.exited).toBe(0);
    expect(resultLines(out)).toHaveLength(6);
    expect(sweep.stderr()).not.toMatch(/stalled/);
  });

  it('SIGKILL one of two workers mid-sweep: its job comes back and every session completes exactly once', async () => {
    const [victim] = [worker('crash'), worker('crash')];
    const out = join(tempDir(), 'crash');
    const sweep = startXrsim(['sweep', ...MATRIX, '--queue', redis.url, '--queue-name', 'crash', '--out', out]);
    running.push(sweep);
    await waitUntil(() => resultLines(out).length >= 2, 90, 'two results');
    victim.child.kill('SIGKILL'); // it holds a job: the queue is not empty and a worker always takes the next at once
    expect(await sweep.exited).toBe(0); // every session as expected (the adversarial apps fail theirs)
    expect(sweep.stderr()).toMatch(/its worker stopped while running it .* put it back in the queue for another worker/);
    const lines = resultLines(out);
    expect(lines).toHaveLength(SESSIONS);
    expect(new Set(lines.map((l) => l.key)).size).toBe(SESSIONS);
    expect(comparable(lines)).toEqual(comparable(resultLines(local)));
  });

  it('SIGKILL the coordinator and restart it: it collects what finished meanwhile, with no loss and no duplicates', async () => {
    worker('coordinator');
    worker('coordinator');
    const out = join(tempDir(), 'coordinator');
    const args = ['sweep', ...MATRIX, '--queue', redis.url, '--queue-name', 'coordinator', '--out', out];
    const first = startXrsim(args);
    await waitUntil(() => resultLines(out).length >= 3, 90, 'three results');
    first.child.kill('SIGKILL');
    await first.exited;
    const before = resultLines(out).length;
    // The workers go on with the jobs in Redis while no coordinator listens.
    await waitUntil(() => Number(redis.cli('zcard', 'bull:coordinator:completed')) >= 2, 60, 'jobs finished while the coordinator was down');
    const second = xrsim(...args, '--json');
    expect(second.code, second.stderr).toBe(0);
    expect(second.json).toMatchObject({ sessions: SESSIONS, errored: 0, unexpected: 0 });
    const lines = resultLines(out);
    expect(lines.length).toBeGreaterThan(before);
    expect(lines).toHaveLength(SESSIONS);
    expect(new Set(lines.map((l) => l.key)).size).toBe(SESSIONS);
    expect(comparable(lines)).toEqual(comparable(resultLines(local)));
    expect(jobKeys(redis, 'coordinator')).toEqual([]);
  });

  it('a job that always crashes its session worker is errored after its attempts, with every reason, and the sweep finishes', async () => {
    const dir = tempDir();
    const { spec } = loadTask('xr/poke-button');
    const base = join(ROOT, 'tasks/xr/poke-button');
    const poison = join(dir, 'poison.json');
    const exits = join(ROOT, 'test/fixtures/apps/exits.mjs');
    writeFileSync(poison, JSON.stringify({ ...spec, id: 'test/poison', actors: join(base, spec.actors!), apps: { reference: { module: exits, description: 'calls process.exit' } } }));
    worker('poison', ['--task-root', dir, '--task-root', join(ROOT, 'test/fixtures')]);
    const out = join(tempDir(), 'poison');
    const r = xrsim('sweep', poison, 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--queue', redis.url, '--queue-name', 'poison', '--queue-attempts', '2', '--out', out, '--json');
    expect(r.code, r.stderr).toBe(1);
    expect(r.json).toMatchObject({ sessions: 2, passed: 1, errored: 1 });
    const errored = resultLines(out).find((l) => l.status === 'errored');
    expect(errored.error.kind).toBe('crash');
    expect(errored.error.message).toMatch(/failed on the queue's workers after 2 attempts: attempt 1: \S+: the session's worker process exited with code 3.*; attempt 2: \S+: the session's worker process exited with code 3/);
    expect(errored.spec.task).toBe(poison);
  });
});
