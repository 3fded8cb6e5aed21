// A/B of the sweep coordinator's CPU per tiny session between two built xrsim checkouts (each a folder
// with package.json and dist/), run alternately so that both see the same machine load:
//
//   node scripts/coordinator-ab.mjs /path/to/main /path/to/branch [sessions=8000] [rounds=3]
//
// Each run is a fresh process: a warm 2-worker pool, 2000 warm-up sessions, then `sessions` five-tick
// sessions through runSweep. It prints the coordinator's process.cpuUsage() per session, the workers' CPU
// per session (/proc), the rate (wall clock: noisy on a shared machine), the IPC messages per 10,000 jobs,
// and a digest of every session's key, status, hash and score, which must be equal across builds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCENES = ['empty-lab', 'living-room', 'kitchen', 'office'];

if (process.argv[2] === '--child') {
  const [root, task, sessions] = process.argv.slice(3);
  const x = await import(join(root, 'dist/src/index.js'));
  const pool = x.createSessionPool(2);
  const procCpuMs = (pid) => {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  const sweep = async (n, seed) => {
    const out = mkdtempSync(join(tmpdir(), 'xrsim-coordinator-ab-'));
    const pids = pool.workerPids;
    const workersBefore = pids.map(procCpuMs);
    const cpu = process.cpuUsage();
    const start = performance.now();
    let done = 0;
    const it = x.runSweep({ tasks: [task], seeds: { from: seed, to: seed + Math.ceil(n / SCENES.length) - 1 }, scenes: SCENES, hands: ['right'], keepStreams: 'none', out, executor: pool });
    for (let step = await it.next(); !step.done; step = await it.next()) done++;
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - start) / 1000;
    const same = pool.workerPids.join() === pids.join();
    const workerMs = same ? (pool.workerPids.map(procCpuMs).reduce((a, b) => a + b) - workersBefore.reduce((a, b) => a + b)) / done : null;
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const digest = createHash('sha256').update(lines.map((r) => `${r.key} ${r.status} ${r.hash} ${r.score}`).sort().join('\n')).digest('hex').slice(0, 12);
    rmSync(out, { recursive: true, force: true });
    return { coordinatorMs: (used.user + used.system) / 1000 / done, workerMs, rate: done / seconds, digest };
  };
  await sweep(2000, 100_000);
  const before = { ...pool.stats };
  const result = await sweep(Number(sessions), 200_000);
  const jobs = pool.stats.jobsSent - before.jobsSent;
  result.messagesPer10k = Math.round(((pool.stats.runMessages - before.runMessages + pool.stats.replies - before.replies) * 10_000) / jobs);
  await pool.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const [a, b, sessions = '8000', rounds = '3'] = process.argv.slice(2);
  if (!a || !b) throw new Error('usage: node scripts/coordinator-ab.mjs BUILD_A BUILD_B [sessions] [rounds]');
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-coordinator-ab-'));
  const x = await import(join(resolve(a), 'dist/src/index.js'));
  const { spec } = x.loadTask('physics/rolling-ball-checkpoints');
  const task = join(dir, 'tiny.json'); // one task path for both builds: it is part of every session key
  writeFileSync(task, JSON.stringify({ ...spec, id: 'bench/tiny-rolling-ball', duration: 5 / 90 }));
  const round3 = (v) => (v === null ? null : Number(v.toPrecision(3)));
  for (let r = 0; r < Number(rounds); r++) {
    for (const build of [a, b]) {
      const out = execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--child', resolve(build), task, sessions], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      const m = JSON.parse(out.trim().split('\n').pop());
      console.log(`${build}\tcoordinator ${round3(m.coordinatorMs)} ms\tworker ${round3(m.workerMs)} ms\t${Math.round(m.rate)}/s\tmessages/10k ${m.messagesPer10k}\tdigest ${m.digest}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
