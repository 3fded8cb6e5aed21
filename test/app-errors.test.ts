/**
 * Whatever app code throws or rejects becomes an app-error event in a defined tick, the session goes on,
 * and the run says how many there were: hostile thrown values, async rejections, and the host's limits.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { createSession, decodeEvents, runSession, sanitizeStack, StreamReader, verifyStream, type SessionSpec } from '../src/index.js';
import { THROWN_TEXT_LIMIT } from '../src/errors.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { runSessionIsolated } from '../src/session/isolated.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const fixture = (name: string) => join(ROOT, 'test/fixtures/apps', name);
interface AppErrorRecord {
  phase: string;
  message: string;
  stack: string;
  async?: boolean;
}

/** Runs a short poke-button session of `app`, recorded, and returns the result and its app-error records by tick. */
async function runRecorded(app: string, extra: Partial<SessionSpec> = {}) {
  const path = join(tempDir(), `${app}.xrs`);
  const result = await runSession({ task: 'xr/poke-button', app: fixture(app), seed: 1, duration: 0.3, record: { path }, ...extra });
  const errors: { tick: number; record: AppErrorRecord }[] = [];
  const reader = StreamReader.open(path);
  for (const frame of reader.framesInOrder()) {
    for (const e of decodeEvents(frame.events, frame.eventWords)) if (e.name === 'app-error') errors.push({ tick: frame.tick, record: readJsonPayload(e.payload, 0) });
  }
  reader.close();
  return { result, errors, path };
}

describe('any thrown value becomes an app-error event', () => {
  it('null-prototype objects, throwing toString and getters, Symbols, revoked proxies, undefined, BigInt and huge strings', async () => {
    const { result, errors } = await runRecorded('throws-anything.mjs');
    expect(result.status).toBe('failed');
    expect(result.ticks).toBe(27);
    // One per frame, frame 0 included, the frames going on.
    expect(errors.map((e) => e.tick)).toEqual(Array.from({ length: 28 }, (_, i) => i));
    const messages = errors.slice(0, 8).map((e) => e.record.message);
    expect(messages[0]).toBe('[object Object] (not convertible to a string)');
    expect(messages[1]).toBe('[object Object] (not convertible to a string)');
    expect(messages[2]).toBe('Symbol(boom)');
    expect(messages[3]).toBe('[object Object]');
    expect(messages[4]).toHaveLength(THROWN_TEXT_LIMIT + ' (998000 more characters)'.length + 1);
    expect(messages[4]).toMatch(/^x{2000}… \(998000 more characters\)$/);
    expect(messages[5]).toBe('a thrown object that cannot be printed');
    expect(messages[6]).toBe('undefined');
    expect(messages[7]).toBe('42');
    expect(result.appErrors).toBe(28);
    expect(result.firstAppError).toEqual({ tick: 0, phase: 'frame', message: '[object Object] (not convertible to a string)' });
  });
});

describe('a rejected promise from an async setup or frame is recorded in its own tick', () => {
  it('records each rejection in the frame of the tick that returned the promise, as async, and the stream verifies', async () => {
    const { result, errors, path } = await runRecorded('async-rejects.mjs');
    expect((await verifyStream(path)).identical).toBe(true);
    expect(errors.map((e) => [e.tick, e.record.phase, e.record.message, e.record.async])).toEqual([
      [0, 'setup', 'setup rejected', true],
      [3, 'frame', 'frame 3 rejected', true],
      [13, 'frame', 'frame 13 rejected', true],
      [23, 'frame', 'frame 23 rejected', true],
    ]);
    expect(errors[1].record.stack).toMatch(/async-rejects\.mjs/);
    expect(result.appErrors).toBe(4);
    expect(result.firstAppError).toEqual({ tick: 0, phase: 'setup', message: 'setup rejected' });
  });

  it('gives one hash in two runs, in process and in a worker thread', async () => {
    const spec: SessionSpec = { task: 'xr/poke-button', app: fixture('async-rejects.mjs'), seed: 1, duration: 0.3 };
    const [a, b, worker] = [await runSession(spec), await runSession(spec), await runSessionIsolated(spec, { timeLimitSeconds: 60 })];
    expect(a.status).toBe('failed');
    expect(b.hash).toBe(a.hash);
    expect(worker.hash).toBe(a.hash);
    expect(worker.appErrors).toBe(4);
  });

  it("keeps the app's frames and none of xrsim's or its caller's (they change with every edit of xrsim)", async () => {
    const path = join(tempDir(), 'throws.xrs');
    await runSession({ task: 'physics/cube-move', app: fixture('passes-but-throws.mjs'), seed: 1, duration: 0.05, record: { path } });
    const reader = StreamReader.open(path);
    const first = reader.frameAt(0);
    reader.close();
    const record = decodeEvents(first.events, first.eventWords).find((e) => e.name === 'app-error')!;
    const lines = readJsonPayload<AppErrorRecord>(record.payload, 0).stack.split('\n');
    expect(lines[0]).toMatch(/^Error: frame 0 done, then/);
    // Below the app's frame: nothing (the host, the session and this test file are cut off).
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^at (Module\.)?frame \(passes-but-throws\.mjs:8:9\)$/);
  });

  it('leaves out xrsim frames above the app (a refused argument) and stops at the host below it', () => {
    const lib = (file: string) => pathToFileURL(join(ROOT, 'src', file)).href;
    const stack = [
      'TypeError: bad tag',
      `    at TagRegistry.tag (${lib('app/tags.ts')}:40:11)`,
      '    at frame (file:///home/someone/app.mjs:3:7)',
      '    at helper (/home/someone/util.mjs:9:2)',
      `    at AppHost.frame (${lib('app/host.ts')}:100:3)`,
      `    at Session.step (${join(ROOT, 'src/session/session.ts')}:5:5)`,
    ].join('\n');
    expect(sanitizeStack(stack)).toBe('TypeError: bad tag\nat frame (app.mjs:3:7)\nat helper (util.mjs:9:2)');
  });

  it('a session stepped by hand records a rejection in the first tick after it settles', async () => {
    const session = await createSession({ task: 'xr/poke-button', app: fixture('async-rejects.mjs'), seed: 1, duration: 0.3 });
    expect(session.app!.errors).toBe(1); // setup's, settled before frame 0 committed
    for (let tick = 1; tick <= 4; tick++) {
      session.step();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Tick 3's rejection settled between the steps and was recorded by tick 4's app stage.
    expect(session.app!.errors).toBe(2);
    session.dispose();
  });
});

describe("the host's record limits give clear app errors instead of crashing the session", () => {
  it('tagging 10,000 objects stops at 4,096 tags; an event of a megabyte is refused; the session completes', async () => {
    const { result, errors } = await runRecorded('limits.mjs');
    expect(result.status).not.toBe('errored');
    expect(errors.map((e) => [e.tick, e.record.phase])).toEqual([
      [0, 'setup'],
      [2, 'frame'],
    ]);
    expect(errors[0].record.message).toBe('ctx.tag: an app may hold at most 4096 tags at once; untag some before tagging more');
    expect(errors[1].record.message).toMatch(/^ctx\.emit\(name, data\): an event record holds at most 262108 bytes of JSON; this one is 1000025$/);
  });
});

describe('xrsim run shows app errors', () => {
  it('a passing app that throws on every frame: PASSED, with the count and the first message, in text and JSON', () => {
    const text = xrsim('run', '--task', 'physics/cube-move', '--app', fixture('passes-but-throws.mjs'));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/PASSED/);
    // Control characters from app code are escaped, never sent to the terminal.
    expect(text.stdout).toMatch(/app errors: 541 \(the first at tick 0, in frame: frame 0 done, then \\x1b\[31mthrew\\x1b\[0m\)/);
    expect(text.stdout).not.toContain('\x1b');
    const json = xrsim('run', '--task', 'physics/cube-move', '--app', fixture('passes-but-throws.mjs'), '--json');
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ status: 'passed', appErrors: 541, firstAppError: { tick: 0, phase: 'frame', message: 'frame 0 done, then \x1b[31mthrew\x1b[0m' } });
  });

  it('a clean app reports no app errors', () => {
    const r = xrsim('run', '--task', 'physics/cube-move', '--json');
    expect(r.json).toMatchObject({ status: 'passed', appErrors: 0, firstAppError: null });
    expect(xrsim('run', '--task', 'physics/cube-move').stdout).not.toMatch(/app errors/);
  });
});
