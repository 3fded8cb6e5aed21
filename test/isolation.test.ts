/**
 * Sessions cannot leak into each other (issue 10, item 7). Sessions share worker processes; whatever an app
 * does to globals, built-in prototypes, timers, the process or its own module state, the next session on
 * the same worker must give the hash a fresh worker gives. Each probe runs with `--workers 1`, followed by
 * a session that is checked against a fresh worker's run of it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionPool, loadTask, runSessionIsolated, type SessionPool, type SessionSpec } from '../src/index.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const probe = (name: string) => join(ROOT, 'test/fixtures/apps/pollution', `${name}.mjs`);
const base: SessionSpec = { task: 'xr/poke-button', seed: 1, dominantHand: 'right', scene: 'office' };

/** Each probe, whether its worker must retire (a changed realm or process) and the session that follows it. */
const PROBES: { name: string; retires: boolean; next: SessionSpec }[] = [
  { name: 'wraps-math-sin', retires: true, next: base },
  { name: 'replaces-array-map', retires: true, next: base },
  { name: 'late-timer', retires: false, next: base },
  { name: 'object-prototype', retires: true, next: base },
  { name: 'through-host-objects', retires: true, next: base },
  // The context's shared prototype is frozen: nothing changes, nothing retires.
  { name: 'context-prototype', retires: false, next: { ...base, app: probe('reads-time') } },
  // Module state: the same app again, whose second session in a process would behave differently.
  { name: 'module-state', retires: false, next: { ...base, app: probe('module-state'), seed: 2 } },
];

describe('a session leaves nothing behind for the next one on its worker', () => {
  const fresh = new Map<string, string>();
  let pool: SessionPool;
  beforeAll(async () => {
    pool = createSessionPool({ workers: 1 });
    // Fresh-worker hashes of every session the probes run, each in a worker of its own.
    const specs = [base, ...PROBES.flatMap((p) => [{ ...base, app: probe(p.name) }, p.next])];
    for (const spec of specs) {
      const key = JSON.stringify(spec);
      if (!fresh.has(key)) fresh.set(key, (await runSessionIsolated(spec)).hash);
    }
  });
  afterAll(async () => {
    await pool?.close();
  });

  it.each(PROBES)('$name, then the next session: both hash as on a fresh worker', async ({ name, retires, next }) => {
    const retiredBefore = pool.stats.retired;
    const polluter = (await pool.run({ ...base, app: probe(name) })).result;
    const after = (await pool.run(next)).result;
    expect(polluter.hash).toBe(fresh.get(JSON.stringify({ ...base, app: probe(name) })));
    expect(after.status, after.error?.message).not.toBe('errored');
    expect(after.hash).toBe(fresh.get(JSON.stringify(next)));
    expect(pool.stats.retired - retiredBefore, pool.stats.lastRetireReason ?? '').toBe(retires ? 1 : 0);
  });

  it('module state really differs between a first and a second session in one process (the probe can fail)', async () => {
    const { runSession } = await import('../src/index.js');
    // In this process, apps share module instances (no fresh instances outside session workers).
    const first = await runSession({ ...base, app: probe('module-state') });
    const second = await runSession({ ...base, app: probe('module-state'), seed: 2 });
    expect(first.hash).toBe(fresh.get(JSON.stringify({ ...base, app: probe('module-state') })));
    expect(second.hash).not.toBe(fresh.get(JSON.stringify({ ...base, app: probe('module-state'), seed: 2 })));
  });
});

describe('xrsim sweep --workers 1 over every probe', () => {
  it('gives every session the hash of a fresh worker, in one sweep', async () => {
    const dir = tempDir();
    const { spec } = loadTask('xr/poke-button');
    const taskDir = join(ROOT, 'tasks/xr/poke-button');
    const file = (name: string, app: string) => {
      const path = join(dir, `${name}.json`);
      writeFileSync(path, JSON.stringify({ ...spec, actors: join(taskDir, spec.actors!), apps: { reference: { module: app } } }));
      return path;
    };
    const clean = join(taskDir, 'apps/reference.mjs');
    const followers = new Map<string, string>(); // task file → the app it runs
    const tasks = PROBES.flatMap((p, i) => {
      const app = p.name === 'module-state' ? probe(p.name) : clean;
      const follower = file(`${i}-after`, app);
      followers.set(follower, app);
      return [file(`${i}-${p.name}`, probe(p.name)), follower];
    });
    const out = join(dir, 'out');
    const r = xrsim('sweep', ...tasks, '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--workers', '1', '--keep-streams', 'none', '--out', out, '--json');
    expect(r.json?.sessions, r.stderr).toBe(tasks.length);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const byTask = new Map(lines.map((l) => [l.spec.task as string, l]));
    // Followers with the same app are the same session (task files' paths are not part of a hash): one fresh run each.
    const aloneByApp = new Map<string, string>();
    for (const [task, app] of followers) {
      if (!aloneByApp.has(app)) aloneByApp.set(app, (await runSessionIsolated({ task, seed: 1, dominantHand: 'right', scene: 'office' })).hash);
      expect(byTask.get(task).hash, task).toBe(aloneByApp.get(app));
    }
  });
});
