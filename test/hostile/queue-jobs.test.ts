/**
 * Queue jobs are data (issue 36, item 1), on a real Redis server (skipped only with XRSIM_SKIP_SYSTEM=1):
 * whoever can write to the queue can put any job in it, so a job that names a command (`agent`, `judge`,
 * `designJudge`), a place to write (`agentDir`, `record`), an inline task, or any field a job does not have
 * is refused by the worker with its key and the field, and nothing of it runs or is written. The commands a
 * worker runs are its operator's (`xrsim worker --agent`), and those do run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTask } from '../../src/index.js';
import { contentHash } from '../../src/model/canonical.js';
import { jobIdOf, sessionJob } from '../../src/queue/payload.js';
import type { SweepEntry } from '../../src/sweep/matrix.js';
import { ROOT, tempDir, xrsim } from '../helpers/cli.js';
import { SKIP_SYSTEM, startRedis, startWorker, type RedisServer, type Running } from '../helpers/redis.js';

const running: Running[] = [];
const servers: RedisServer[] = [];

afterAll(async () => {
  for (const r of running) r.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.stop()));
});

/** A job for `spec` whose key is the spec's own content hash, so only its fields can be refused. */
function jobOf(spec: object, extra: object = {}): { id: string; data: object } {
  const entry: SweepEntry = { key: contentHash(spec).slice(0, 16), spec: spec as SweepEntry['spec'] };
  return { id: jobIdOf(entry.key), data: { ...sessionJob(entry, 60), ...extra } };
}

describe.skipIf(SKIP_SYSTEM)('a queue job that names a command, an output folder or an unknown field', () => {
  it('is refused by the worker with the field named, and nothing it names runs or is written', async () => {
    const redis = await startRedis();
    servers.push(redis);
    const outside = tempDir();
    const marker = (name: string) => join(outside, name);
    const touch = (name: string) => `touch ${JSON.stringify(marker(name))}`;
    const base = { task: 'xr/find-control', seed: 1, scene: 'office', dominantHand: 'right' };
    const findControl = loadTask('xr/find-control').spec;
    const hostile: Record<string, { id: string; data: object }> = {
      agent: jobOf({ ...base, agent: touch('agent-ran') }),
      judge: jobOf({ ...base, judge: { command: touch('judge-ran') } }),
      designJudge: jobOf({ ...base, designJudge: { command: touch('design-judge-ran'), dir: marker('design') } }),
      agentDir: jobOf({ ...base, agentDir: marker('agent-dir') }),
      record: jobOf({ ...base, record: { path: marker('out.xrs') } }),
      unknownSpecField: jobOf({ ...base, shell: touch('shell-ran') }),
      unknownJobField: jobOf(base, { hooks: touch('hook-ran') }),
      inlineTask: jobOf({ task: { ...findControl, id: 'inline/find', agent: touch('inline-agent-ran') }, seed: 1, dominantHand: 'right' }),
    };
    const expected: Record<string, RegExp> = {
      agent: /names "agent", a command/,
      judge: /names "judge", a command/,
      designJudge: /names "designJudge", a command/,
      agentDir: /names "agentDir", an output folder/,
      record: /names "record", an output path/,
      unknownSpecField: /names "shell", which a job may not name/,
      unknownJobField: /a field "hooks" that no xrsim session job has/,
      inlineTask: /an inline task/,
    };
    // The operator's own agent: it leaves a mark, then answers (with a verb the actor refuses: that is the app's verdict, not ours).
    const agentMark = join(tempDir(), 'worker-agent-ran');
    // The operator's agent answers a valid action (done), so the clean job's session runs to its verdict.
    const operatorAgent = `touch ${JSON.stringify(agentMark)}; echo '{"verb":"done"}'`;
    const clean = jobOf({ ...base, seed: 2 }); // not unknownJobField's key: a job id is added once
    const queue = new Queue('hostile', { connection: { host: '127.0.0.1', port: redis.port } });
    for (const job of [...Object.values(hostile), clean]) await queue.add('session', job.data, { jobId: job.id });
    const streams = tempDir();
    const worker = startWorker(redis.url, ['--queue-name', 'hostile', '--agent', operatorAgent, '--streams-dir', streams, '--idle-exit', '2', '--json']);
    running.push(worker);
    expect(await worker.exited, worker.stderr()).toBe(0);
    for (const [name, job] of Object.entries(hostile)) {
      const line = (await Job.fromId(queue, job.id))!.returnvalue;
      expect(line, name).toMatchObject({ status: 'errored', error: { kind: 'bad-input' } });
      expect(line.error.message, name).toContain(`job ${job.id}`);
      expect(line.error.message, name).toMatch(expected[name]);
    }
    // Nothing a hostile job named ran or was written: the folder holds only what the test put there (nothing).
    expect(readdirSync(outside)).toEqual([]);
    // The worker's own agent answered the clean job, and its files went to the worker's folder.
    const cleanLine = (await Job.fromId(queue, clean.id))!.returnvalue;
    expect(cleanLine.status, JSON.stringify(cleanLine.error)).not.toBe('errored');
    expect(existsSync(agentMark)).toBe(true);
    expect(readdirSync(streams)).toContain(`${clean.id.slice(2)}.agent`);
    await queue.close();
    expect(JSON.parse(worker.stdout().trim().split('\n').pop()!)).toMatchObject({ refused: Object.keys(hostile).length, completed: 1 });
  });
});

describe.skipIf(SKIP_SYSTEM)("the Redis set-up of docs/FLEET.md", () => {
  it("its ACL user runs a queue sweep, and may touch no key but BullMQ's nor run admin commands", async () => {
    const rule = /^user xrsim on >\S+ (.+)$/m.exec(readFileSync(join(ROOT, 'docs/FLEET.md'), 'utf8'));
    expect(rule, 'docs/FLEET.md shows the ACL line').not.toBeNull();
    const password = 'fleet-Acl-test-9';
    const redis = await startRedis({ user: { name: 'xrsim', password, rules: rule![1].split(' ') }, defaultUserOff: true });
    servers.push(redis);
    const url = `redis://xrsim:${password}@127.0.0.1:${redis.port}`;
    const worker = startWorker(url, ['--idle-exit', '3']);
    running.push(worker);
    const sweep = xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--queue', url, '--out', join(tempDir(), 'out'), '--json');
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.json).toMatchObject({ sessions: 1, passed: 1 });
    expect(await worker.exited, worker.stderr()).toBe(0);
    expect(redis.cli('set', 'not-bull', '1')).toMatch(/NOPERM/);
    expect(redis.cli('flushall')).toMatch(/NOPERM/);
    expect(redis.cli('config', 'get', 'dir')).toMatch(/NOPERM/);
  });
});
