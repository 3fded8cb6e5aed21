/**
 * What a queue sweep checks before it touches Redis or a file (no server needed): queue URLs and their
 * hidden passwords, the reconnection backoff, session jobs read as untrusted data, and a worker's task roots.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask } from '../src/index.js';
import { reconnectDelay, scrub } from '../src/queue/connection.js';
import { jobIdOf, readSessionJob, sessionJob } from '../src/queue/payload.js';
import { TaskRoots } from '../src/queue/task-roots.js';
import { hidePassword, parseQueueUrl } from '../src/queue/url.js';
import { expandMatrix } from '../src/sweep/matrix.js';
import { queueUrlArg } from '../src/cli/queue-args.js';
import { ROOT, tempDir } from './helpers/cli.js';

describe('queue URLs', () => {
  it('parses host, port, database, credentials and TLS, and shows the URL only with the password hidden', () => {
    expect(parseQueueUrl('redis://127.0.0.1:6390/2')).toEqual({ host: '127.0.0.1', port: 6390, db: 2, tls: false, display: 'redis://127.0.0.1:6390/2' });
    expect(parseQueueUrl('redis://queue.example')).toMatchObject({ port: 6379, db: 0 });
    const t = parseQueueUrl('rediss://alice:p%40ss%2Fw0rd@redis.internal:6380');
    expect(t).toMatchObject({ host: 'redis.internal', port: 6380, username: 'alice', password: 'p@ss/w0rd', tls: true });
    expect(t.display).toBe('rediss://alice:***@redis.internal:6380');
    expect(parseQueueUrl('redis://:s3cret@[::1]:7000').display).toBe('redis://:***@[::1]:7000');
    expect(scrub('AUTH p@ss/w0rd and p%40ss%2Fw0rd', t)).toBe('AUTH *** and ***');
  });

  it('refuses other schemes, bad ports and databases, queries; the message never holds the password', () => {
    const bad: [string, RegExp][] = [
      ['http://u:hunter2@127.0.0.1:6379', /the scheme must be redis:\/\/ or rediss:\/\//],
      ['redis://u:hunter2@127.0.0.1:99999', /not a URL|port/],
      ['redis://u:hunter2@127.0.0.1:6379/x', /database number/],
      ['redis://u:hunter2@127.0.0.1:6379/0?tls=1', /query strings/],
      ['hunter2', /not a URL/],
      ['', /no URL given/],
    ];
    for (const [url, why] of bad) {
      let message = '';
      try {
        parseQueueUrl(url);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).toMatch(why);
      if (url.includes('@')) expect(message, url).not.toContain('hunter2');
    }
    expect(hidePassword('redis://u:a@b/c@host:1')).toBe('redis://u:***@host:1');
  });

  it('takes the password from XRSIM_QUEUE_PASSWORD, never twice', () => {
    expect(parseQueueUrl(queueUrlArg('redis://bob@10.0.0.5:6379/1', { XRSIM_QUEUE_PASSWORD: 'p@ss word' }))).toMatchObject({ username: 'bob', password: 'p@ss word', db: 1 });
    expect(() => queueUrlArg('redis://bob:x@h:1', { XRSIM_QUEUE_PASSWORD: 'y' })).toThrow(/has a password and XRSIM_QUEUE_PASSWORD is set too/);
    expect(() => queueUrlArg(undefined)).toThrow(/--queue URL is required/);
  });

  it('backs off from 250 ms, doubling to 5 s, and gives up when the window is spent', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => reconnectDelay(n, 60_000))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    expect(reconnectDelay(1, 0)).toBeNull();
    expect(reconnectDelay(3, 1000)).toBeNull(); // 250 + 500 spent, 1000 more would pass 1 s
    let total = 0;
    for (let n = 1; reconnectDelay(n, 60_000) !== null; n++) total += reconnectDelay(n, 60_000)!;
    expect(total).toBeLessThanOrEqual(60_000);
    expect(total).toBeGreaterThan(55_000);
  });
});

describe('session jobs are read as untrusted data', () => {
  const [entry] = expandMatrix({ tasks: ['physics/stack-settle'], seeds: [1], hands: ['right'], scenes: ['office'] });
  const job = sessionJob(entry, 300);

  it('accepts the job a coordinator makes', () => {
    expect(readSessionJob(JSON.parse(JSON.stringify(job)), jobIdOf(entry.key)).job).toEqual(job);
    expect(jobIdOf('1234567890123456')).toBe('s-1234567890123456'); // BullMQ refuses ids that read as integers
  });

  it('refuses foreign data, another kernel, a wrong key, an output path and a malformed spec', () => {
    const refused = (data: unknown, id = jobIdOf(entry.key)) => readSessionJob(data, id).refused?.message ?? 'accepted';
    expect(refused(null)).toMatch(/not an xrsim session job/);
    expect(refused({ ...job, format: 'other' })).toMatch(/format version 1/);
    expect(refused({ ...job, kernel: '0' })).toMatch(/kernel version "0" and this worker runs kernel version/);
    expect(refused(job, entry.key)).toMatch(/matching its job id/);
    expect(refused({ ...job, spec: { ...job.spec, seed: 2 } })).toMatch(/not the content hash of its spec/);
    expect(refused({ ...job, spec: { ...job.spec, record: { path: '/etc/cron.d/x' } } })).toMatch(/names "record", an output path/);
    expect(refused({ ...job, spec: { ...job.spec, evil: 1 } })).toMatch(/names "evil", which a job may not name/);
    expect(refused({ ...job, extra: 1 })).toMatch(/a field "extra" that no xrsim session job has/);
    expect(refused({ ...job, timeLimitSeconds: -1 })).toMatch(/time limit/);
  });
});

describe('task roots', () => {
  const dir = tempDir();
  const outside = tempDir();
  const secret = join(outside, 'task.json');
  writeFileSync(secret, 'TOPSECRET-not-a-task');
  const { spec } = loadTask('physics/stack-settle');
  mkdirSync(join(dir, 'mine'));
  writeFileSync(join(dir, 'mine', 'task.json'), JSON.stringify({ ...spec, id: 'mine/task' }));
  const poke = loadTask('xr/poke-button').spec;
  writeFileSync(join(outside, 'evil.mjs'), 'export function frame() {}\n');
  // A task inside a root whose app module lies outside it.
  writeFileSync(join(dir, 'escapes.json'), JSON.stringify({ ...poke, id: 'mine/escapes', actors: join(ROOT, 'tasks/xr/poke-button/actors.mjs'), apps: { reference: { module: join(outside, 'evil.mjs'), description: 'outside' } } }));
  symlinkSync(outside, join(dir, 'link-out'));
  const roots = TaskRoots.create([dir]);

  it('passes the suite, library scenes and hand models, and files inside an added root', () => {
    expect(roots.refusal({ task: 'xr/poke-button', app: 'counts-frames', scene: 'office', seed: 1 })).toBeNull();
    expect(roots.refusal({ task: join(dir, 'mine/task.json'), seed: 1, handModel: 'large' })).toBeNull();
    expect(roots.refusal({ task: join(dir, 'mine'), seed: 1, scene: join(ROOT, 'scenes/office.json'), handModel: join(ROOT, 'hand-models/small.json') })).toBeNull();
  });

  it('refuses task files, apps, actor modules, scenes and hand models outside the roots, without reading them', () => {
    const refusal = (s: object) => roots.refusal({ seed: 1, ...s } as never) ?? 'accepted';
    expect(refusal({ task: secret })).toMatch(/its task file ".*task.json" is outside the worker's task roots/);
    expect(refusal({ task: outside })).toMatch(/its task file/);
    expect(refusal({ task: join(dir, 'link-out/task.json') })).toMatch(/its task file/); // a link out of a root is outside
    expect(refusal({ task: join(dir, '../', 'x.json') })).toMatch(/its task file/);
    expect(refusal({ task: 'xr/poke-button', app: join(outside, 'evil.mjs') })).toMatch(/its app module ".*evil.mjs" is outside/);
    expect(refusal({ task: join(dir, 'escapes.json') })).toMatch(/its app module ".*evil.mjs" is outside/);
    expect(refusal({ task: { ...spec, id: 'inline/x', actors: join(outside, 'evil.mjs') } })).toMatch(/its actor script ".*evil.mjs" is outside/);
    expect(refusal({ task: 'physics/stack-settle', scene: join(outside, 'task.json') })).toMatch(/its scene file/);
    expect(refusal({ task: 'physics/stack-settle', handModel: secret })).toMatch(/its hand-model file/);
    for (const s of [{ task: secret }, { task: 'physics/stack-settle', scene: secret }]) expect(refusal(s)).not.toContain('TOPSECRET');
    expect(TaskRoots.create().refusal({ task: join(dir, 'mine/task.json'), seed: 1 })).toMatch(/outside the worker's task roots/); // the default roots are the package's
    expect(() => TaskRoots.create([join(outside, 'none')])).toThrow(/--task-root .* is not a folder/);
  });
});
