/**
 * A queue sweep's bad input and broken infrastructure, on real Redis servers (skipped only with
 * XRSIM_SKIP_SYSTEM=1): bad URLs, a refused connection, wrong and missing credentials (exit 2, nothing
 * written, the password never printed); AUTH and TLS that work, with the password in no output, result or
 * report; jobs naming files outside a worker's task roots (errored, the file neither run nor echoed); and a
 * Redis lost mid-run (bounded retries, a clear failure, every written result kept, then resumed).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTask } from '../src/index.js';
import { jobIdOf, sessionJob } from '../src/queue/payload.js';
import { contentHash } from '../src/model/canonical.js';
import { expandMatrix, type SweepEntry } from '../src/sweep/matrix.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';
import { freePort, makeCertificates, resultLines, SKIP_SYSTEM, startRedis, startWorker, startXrsim, waitUntil, type RedisServer, type Running } from './helpers/redis.js';

const SMALL = ['physics/stack-settle', '--seeds', '1..2', '--hands', 'right', '--scenes', 'office'];
const running: Running[] = [];
const servers: RedisServer[] = [];
const track = <T extends Running>(r: T) => (running.push(r), r);

afterAll(async () => {
  for (const r of running) r.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.stop()));
});

describe.skipIf(SKIP_SYSTEM)('bad queue URLs and unreachable servers', () => {
  it('exit 2 with a clear reason, quickly, and write nothing', async () => {
    const closed = await freePort();
    const cases: [string[], RegExp][] = [
      [['sweep', ...SMALL, '--queue', 'http://u:hunter2@127.0.0.1:6379'], /the scheme must be redis:\/\/ or rediss:\/\//],
      [['sweep', ...SMALL, '--queue', 'redis://127.0.0.1:6379/db'], /database number/],
      [['sweep', ...SMALL, '--queue', `redis://u:hunter2@127.0.0.1:${closed}`], /cannot use Redis at redis:\/\/u:\*\*\*@127\.0\.0\.1:\d+: connection refused/],
      [['worker', '--queue', `redis://127.0.0.1:${closed}`], /cannot use Redis at redis:\/\/127\.0\.0\.1:\d+: connection refused/],
      [['sweep', ...SMALL, '--queue', `redis://127.0.0.1:${closed}`, '--workers', '2'], /--workers is the workers' choice in a queue sweep/],
      [['sweep', ...SMALL, '--queue', `redis://127.0.0.1:${closed}`, '--keep-streams', 'all'], /--keep-streams is the workers' choice/],
      [['sweep', ...SMALL, '--queue-name', 'x'], /--queue-name needs --queue URL/],
      [['sweep', ...SMALL, '--queue', `redis://127.0.0.1:${closed}`, '--queue-name', 'a:b'], /--queue-name must be/],
      [['worker', '--queue', `redis://127.0.0.1:${closed}`, '--keep-streams', 'all'], /needs --streams-dir DIR/],
    ];
    for (const [args, why] of cases) {
      const out = join(tempDir(), 'out');
      const started = Date.now();
      const r = xrsim(...args, ...(args[0] === 'sweep' ? ['--out', out] : []));
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toContain('hunter2');
      expect(r.stderr).not.toMatch(/    at /); // no stack trace
      expect(existsSync(out)).toBe(false);
      expect(Date.now() - started).toBeLessThan(30_000);
    }
  });
});

describe.skipIf(SKIP_SYSTEM)('credentials', () => {
  const PASSWORD = 'Wr0ng-Horse-Battery-42';
  const USER_PASSWORD = 'al1ce-S3cret-pass';

  it('wrong or missing credentials exit 2 without printing them; right ones work and leave no trace of the password', async () => {
    const redis = await startRedis({ password: PASSWORD, user: { name: 'alice', password: USER_PASSWORD } });
    servers.push(redis);
    const at = `127.0.0.1:${redis.port}`;
    const refused = [
      [`redis://${at}`, /requires a password/],
      [`redis://:not-${PASSWORD}@${at}`, /refused the user name or password \(WRONGPASS\)/],
      [`redis://alice:${PASSWORD}@${at}`, /refused the user name or password/],
    ] as const;
    for (const [url, why] of refused) {
      const r = xrsim('sweep', ...SMALL, '--queue', url, '--out', join(tempDir(), 'out'));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toContain(PASSWORD);
    }
    // The worker gets the password from the environment, the coordinator from the URL (an ACL user).
    const worker = track(startWorker(`redis://${at}`, ['--json', '--idle-exit', '3'], { XRSIM_QUEUE_PASSWORD: PASSWORD }));
    const out = join(tempDir(), 'out');
    const reports = tempDir();
    const r = xrsim('sweep', ...SMALL, '--queue', `redis://alice:${USER_PASSWORD}@${at}`, '--out', out, '--junit', join(reports, 'junit.xml'), '--html', join(reports, 'report.html'), '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ sessions: 2, passed: 2 });
    expect(await worker.exited).toBe(0);
    expect(worker.stderr()).toContain(`redis://:***@${at}`);
    const texts = [r.stdout, r.stderr, worker.stdout(), worker.stderr(), ...[out, reports].flatMap((d) => readdirSync(d).filter((f) => f.includes('.')).map((f) => readFileSync(join(d, f), 'utf8')))];
    expect(texts.length).toBeGreaterThanOrEqual(8);
    for (const text of texts) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(USER_PASSWORD);
      expect(text).not.toContain(encodeURIComponent(PASSWORD));
    }
  });

  it('rediss:// connects over TLS, trusting a private CA through NODE_EXTRA_CA_CERTS', async () => {
    const certs = makeCertificates(tempDir());
    const redis = await startRedis({ tls: certs });
    servers.push(redis);
    const untrusted = xrsim('sweep', ...SMALL, '--queue', redis.url, '--out', join(tempDir(), 'out'));
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toMatch(/cannot use Redis at rediss:\/\/127\.0\.0\.1:\d+: the TLS handshake failed .*NODE_EXTRA_CA_CERTS/);
    const plain = xrsim('sweep', ...SMALL, '--queue', redis.url.replace('rediss', 'redis'), '--out', join(tempDir(), 'out'));
    expect(plain.code).toBe(2);
    const env = { NODE_EXTRA_CA_CERTS: certs.ca };
    track(startWorker(redis.url, ['--idle-exit', '3'], env));
    const sweep = track(startXrsim(['sweep', ...SMALL, '--queue', redis.url, '--out', join(tempDir(), 'out'), '--json'], env));
    expect(await sweep.exited, sweep.stderr()).toBe(0);
    expect(JSON.parse(sweep.stdout().trim().split('\n').pop()!)).toMatchObject({ sessions: 2, passed: 2 });
  });
});

describe.skipIf(SKIP_SYSTEM)('jobs outside the task roots', () => {
  it('are errored (bad input) with the reason; the file is neither run nor echoed, and a job inside a root runs', async () => {
    const redis = await startRedis();
    servers.push(redis);
    const outside = tempDir();
    const marker = join(outside, 'ran');
    writeFileSync(join(outside, 'task.json'), 'TOPSECRET-contents');
    writeFileSync(join(outside, 'evil.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport function frame() {}\n`);
    const root = tempDir();
    const { spec } = loadTask('physics/stack-settle');
    writeFileSync(join(root, 'mine.json'), JSON.stringify({ ...spec, id: 'mine/stack' }));
    const poke = loadTask('xr/poke-button').spec;
    // A task inside a root whose actor script lies outside it.
    writeFileSync(join(root, 'escapes.json'), JSON.stringify({ ...poke, id: 'mine/escapes', actors: join(outside, 'evil.mjs'), apps: undefined }));
    const entry = (s: object): SweepEntry => ({ key: contentHash(s).slice(0, 16), spec: s as SweepEntry['spec'] });
    const jobs: Record<string, SweepEntry> = {
      taskFile: entry({ task: join(outside, 'task.json'), seed: 1, scene: 'office', dominantHand: 'right' }),
      appModule: entry({ task: 'xr/poke-button', app: join(outside, 'evil.mjs'), seed: 1, scene: 'office', dominantHand: 'right' }),
      actorsOutside: entry({ task: join(root, 'escapes.json'), seed: 1, scene: 'office', dominantHand: 'right' }),
      scene: entry({ task: 'physics/stack-settle', scene: join(outside, 'task.json'), seed: 1, dominantHand: 'right' }),
      handModel: entry({ task: 'physics/stack-settle', handModel: join(outside, 'task.json'), seed: 1, dominantHand: 'right' }),
      inside: entry({ task: join(root, 'mine.json'), seed: 1, scene: 'office', dominantHand: 'right' }),
    };
    const queue = new Queue('roots', { connection: { host: '127.0.0.1', port: redis.port } });
    for (const e of Object.values(jobs)) await queue.add('session', sessionJob(e, 60), { jobId: jobIdOf(e.key) });
    const output = sessionJob(expandMatrix({ tasks: ['physics/stack-settle'], seeds: [9], hands: ['right'], scenes: ['office'] })[0], 60);
    const recordSpec = { ...output.spec, record: { path: join(outside, 'out.xrs') } };
    const recordKey = contentHash(recordSpec).slice(0, 16);
    await queue.add('session', { ...output, spec: recordSpec, key: recordKey }, { jobId: jobIdOf(recordKey) });
    const worker = track(startWorker(redis.url, ['--queue-name', 'roots', '--task-root', root, '--idle-exit', '2', '--json']));
    expect(await worker.exited, worker.stderr()).toBe(0);
    const returned = async (key: string) => (await Job.fromId(queue, jobIdOf(key)))!.returnvalue;
    for (const name of ['taskFile', 'appModule', 'actorsOutside', 'scene', 'handModel']) {
      const line = await returned(jobs[name].key);
      expect(line, name).toMatchObject({ status: 'errored', error: { kind: 'bad-input' } });
      expect(line.error.message, name).toMatch(/the worker refuses this job: its (task file|app module|actor script|scene file|hand-model file) .* is outside the worker's task roots/);
      expect(JSON.stringify(line)).not.toContain('TOPSECRET');
    }
    expect((await returned(recordKey)).error.message).toMatch(/names "record", an output path/);
    expect(await returned(jobs.inside.key)).toMatchObject({ status: 'passed', task: 'mine/stack' });
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(outside, 'out.xrs'))).toBe(false);
    expect(JSON.parse(worker.stdout().trim().split('\n').pop()!)).toMatchObject({ refused: 6, completed: 1 });
    await queue.close();
  });
});

describe.skipIf(SKIP_SYSTEM)('Redis lost during a run', () => {
  it('retries for --queue-reconnect seconds, then exits 2 keeping every written result; the same command resumes', async () => {
    let redis = await startRedis();
    const args = ['sweep', 'physics/stack-settle', '--seeds', '1..12', '--hands', 'right', '--scenes', 'office', '--queue', redis.url, '--queue-reconnect', '2', '--out', join(tempDir(), 'out')];
    const out = args[args.length - 1];
    const worker = track(startWorker(redis.url, ['--queue-reconnect', '2']));
    const sweep = track(startXrsim(args));
    await waitUntil(() => resultLines(out).length >= 2, 90, 'two results');
    await redis.kill();
    const started = Date.now();
    expect(await sweep.exited).toBe(2);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(sweep.stderr()).toMatch(/lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ and could not get it back in 2 s .*every result already written is kept/);
    expect(await worker.exited).toBe(2);
    expect(worker.stderr()).toMatch(/lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ and could not get it back in 2 s/);
    const kept = resultLines(out);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    // A new server on the same port (empty: no persistence), new workers, the same command.
    redis = await startRedis({ port: redis.port });
    servers.push(redis);
    track(startWorker(redis.url, ['--idle-exit', '3']));
    const again = xrsim(...args, '--json');
    expect(again.code, again.stderr).toBe(0);
    const lines = resultLines(out);
    expect(lines).toHaveLength(12);
    expect(new Set(lines.map((l) => l.key)).size).toBe(12);
    expect(lines.slice(0, kept.length)).toEqual(kept);
  });
});
