/**
 * The xrsim CLI as a user meets it: output shapes, exit codes, and clear messages for bad input that
 * name the file and the JSON path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { StreamReader } from '../src/index.js';
import { CHUNK_HEADER_BYTES } from '../src/stream/format.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

let dir: string;
let stream: string;

beforeAll(() => {
  dir = tempDir();
  stream = join(dir, 'run.xrs');
  const run = xrsim('run', '--task', 'physics/stack-settle', '--seed', '3', '--out', stream, '--json');
  expect(run.code).toBe(0);
});

function writeJson(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return path;
}

const sceneFile = (id: string) => JSON.parse(readFileSync(join(ROOT, 'scenes', `${id}.json`), 'utf8'));
const taskFile = (id: string) => JSON.parse(readFileSync(join(ROOT, 'tasks', id, 'task.json'), 'utf8'));

describe('xrsim run', () => {
  it('prints { task, scene, seed, hand, ticks, status, score, hash, milestones, stream } as the last line', () => {
    const r = xrsim('run', '--task', 'physics/rolling-ball-checkpoints', '--seed', '2', '--hand', 'left', '--scene', 'office', '--json');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.json).toMatchObject({ task: 'physics/rolling-ball-checkpoints', scene: 'office', seed: 2, hand: 'left', ticks: 360, status: 'passed', score: 1, stream: null });
    expect(r.json.hash).toMatch(/^[0-9a-f]{16}$/);
    for (const m of r.json.milestones) expect(Object.keys(m)).toEqual(expect.arrayContaining(['id', 'passed', 'score', 'metric', 'threshold', 'ticks']));
  });

  it('prints a readable summary without --json', () => {
    const r = xrsim('run', '--task', 'physics/stack-settle');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/physics\/stack-settle in empty-lab, seed 1, right hand: PASSED/);
    expect(r.stdout).toMatch(/pass +settles-within-1s/);
  });

  it('runs a user task file and exits 1 when its milestones fail', () => {
    const task = taskFile('physics/material-curling');
    // Soft stones: restitution 0.2 shares the momentum badly; the target is not knocked out of the house.
    for (const body of task.bodies) body.restitution = 0.2;
    const path = writeJson('soft-stones.json', task);
    const r = xrsim('run', '--task', path, '--json');
    expect(r.code).toBe(1);
    expect(r.json.status).toBe('failed');
    const takeout = r.json.milestones.find((m: { id: string }) => m.id === 'target-removed-from-house');
    expect(takeout.passed).toBe(false);
    expect(takeout.metric).toBeLessThan(0.6);
    expect(r.json.score).toBeLessThan(1);
  });

  it('runs a user scene file', () => {
    const scene = sceneFile('office');
    scene.id = 'my-office';
    const r = xrsim('run', '--task', 'physics/stack-settle', '--scene', writeJson('my-office.json', scene), '--json');
    expect(r.code).toBe(0);
    expect(r.json.scene).toBe('my-office');
  });
});

describe('bad input exits 2 with a clear message', () => {
  const expectBadInput = (r: ReturnType<typeof xrsim>, pattern: RegExp) => {
    expect(r.code).toBe(2);
    expect(r.json?.status ?? 'errored').toBe('errored');
    const message = r.json?.error?.message ?? r.stderr;
    expect(message).toMatch(pattern);
  };

  it('a malformed scene file names the file, line and column', () => {
    const path = writeJson('broken.json', '{\n  "id": "broken",\n  "name": "x",,\n}');
    expectBadInput(xrsim('run', '--task', 'physics/stack-settle', '--scene', path, '--json'), /broken\.json: invalid JSON at line 3, column \d+/);
  });

  it('a schema-violating scene names the file and the JSON path and says what was expected', () => {
    const scene = sceneFile('kitchen');
    scene.props[1].mass = 'heavy';
    const path = writeJson('bad-mass.json', scene);
    const r = xrsim('run', '--task', 'physics/stack-settle', '--scene', path, '--json');
    expectBadInput(r, /bad-mass\.json: at \$\.props\[1\]\.mass: must be number \(expected number\)/);
    expect(r.json.error).toMatchObject({ kind: 'bad-input', file: path, jsonPath: '$.props[1].mass' });
  });

  it('a scene whose furniture blocks the task area is refused', () => {
    const scene = sceneFile('empty-lab');
    scene.props[0].position = [...scene.anchors['open-floor'].position];
    scene.props[0].position[1] = 0.5;
    expectBadInput(xrsim('run', '--task', 'physics/stack-settle', '--scene', writeJson('cluttered.json', scene), '--json'), /cluttered\.json: at \$\.props\[0\]: .* intrudes into the clear area/);
  });

  it('a malformed task file names the file and line', () => {
    expectBadInput(xrsim('run', '--task', writeJson('broken-task.json', '{"id": "x" "title": 1}'), '--json'), /broken-task\.json: invalid JSON at line 1/);
  });

  it('a schema-violating task names the JSON path', () => {
    const task = taskFile('physics/stack-settle');
    task.validators[0].milestones[0].threshold = 'soon';
    expectBadInput(xrsim('run', '--task', writeJson('bad-threshold.json', task), '--json'), /at \$\.validators\[0\]\.milestones\[0\]\.threshold: must be number/);
  });

  it('a task validator naming an unknown body lists the known ones', () => {
    const task = taskFile('physics/material-curling');
    task.validators[1].body = 'task:stone';
    expectBadInput(xrsim('run', '--task', writeJson('bad-ref.json', task), '--json'), /at \$\.validators\[1\]\.body: no body of the task "task:stone" \(expected one of: task:shooter, task:target\)/);
  });

  it('an unknown task id lists the known tasks', () => {
    expectBadInput(xrsim('run', '--task', 'physics/nope', '--json'), /unknown task "physics\/nope"\. Known tasks: physics\/cube-move, physics\/material-curling, physics\/rolling-ball-checkpoints, physics\/stack-settle, xr\/chime-button, xr\/depth-bounce/);
  });

  it('an unknown scene id lists the known scenes', () => {
    expectBadInput(xrsim('run', '--task', 'physics/stack-settle', '--scene', 'garage', '--json'), /unknown scene "garage"\. Known scenes: empty-lab, kitchen, living-room, office/);
  });

  it.each(['1.5', 'abc', '-3', '1e3', ''])('a non-integer seed %j is refused', (seed) => {
    expectBadInput(xrsim('run', '--task', 'physics/stack-settle', `--seed=${seed}`, '--json'), /--seed must be a non-negative integer/);
  });

  it('an --out path that cannot be written is bad input, and a bad seed is reported as null', () => {
    const r = xrsim('run', '--task', 'physics/stack-settle', '--out', join(dir, 'no-such-folder', 'x.xrs'), '--json');
    expectBadInput(r, /no-such-folder\/x\.xrs: cannot write the stream: ENOENT/);
    expect(xrsim('run', '--task', 'physics/stack-settle', '--seed', 'x', '--json').json.seed).toBeNull();
  });

  it('a missing --task, an unknown option and an unknown command are refused', () => {
    expectBadInput(xrsim('run', '--json'), /missing --task/);
    expect(xrsim('run', '--task', 'physics/stack-settle', '--speed', '2').code).toBe(2);
    expect(xrsim('fly').code).toBe(2);
  });

  it('a truncated stream is refused by inspect and verify', () => {
    const path = join(dir, 'truncated.xrs');
    const bytes = readFileSync(stream);
    writeFileSync(path, bytes.subarray(0, bytes.length - 40));
    for (const command of ['inspect', 'verify']) {
      const r = xrsim(command, path);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/truncated\.xrs: truncated: the stream has no footer/);
    }
  });

  it('a foreign file is refused by inspect and verify', () => {
    const path = writeJson('foreign.xrs', { not: 'a stream' });
    for (const command of ['inspect', 'verify']) {
      const r = xrsim(command, path, '--json');
      expect(r.code).toBe(2);
      expect(r.json.error.message).toMatch(/foreign\.xrs: not an xrsim frame stream/);
    }
  });
});

describe('xrsim inspect', () => {
  it('reports header, channels, ticks, sizes and ratio, and exits 0 when intact', () => {
    const r = xrsim('inspect', stream, '--json');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ frames: 451, ticks: { first: 0, last: 450 }, ok: true, damagedChunks: [] });
    expect(r.json.header).toMatchObject({ task: 'physics/stack-settle', scene: 'empty-lab', seed: 3, formatVersion: 1 });
    expect(r.json.channels.map((c: { name: string }) => c.name)).toEqual(['time', 'bodies', 'head', 'hand-left', 'hand-right', 'contacts', 'events']);
    expect(r.json.ratio).toBeGreaterThan(1);
    const human = xrsim('inspect', stream);
    expect(human.stdout).toMatch(/ratio \d+\.\d+×/);
    expect(human.stdout).toMatch(/6 of 6 intact/);
  });

  it('exits 2 (bad input) on one flipped byte, naming the damaged chunk; earlier chunks stay readable', () => {
    const path = join(dir, 'flipped.xrs');
    const reader = StreamReader.open(stream);
    const offset = reader.chunks[3].offset;
    reader.close();
    const bytes = readFileSync(stream);
    bytes[offset + CHUNK_HEADER_BYTES + 7] ^= 0x40;
    writeFileSync(path, bytes);
    const r = xrsim('inspect', path);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/DAMAGED .*chunk 3 \(ticks 270–359\) is damaged: CRC32 mismatch/);
    expect(r.stdout).toMatch(/readable chunks: 0, 1, 2, 4, 5/);
    const damaged = StreamReader.open(path);
    expect(damaged.frameAt(269).tick).toBe(269);
    damaged.close();
  });
});

describe('xrsim verify', () => {
  it('says "identical" for an untouched stream', () => {
    const r = xrsim('verify', stream);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^identical: 451 frames/);
  });
});

describe('xrsim list', () => {
  it('lists tasks and scenes, as text and as JSON', () => {
    const tasks = xrsim('list', 'tasks', '--json');
    expect(tasks.code).toBe(0);
    const ids = tasks.json.tasks.map((t: { id: string }) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['physics/material-curling', 'physics/rolling-ball-checkpoints', 'physics/stack-settle', 'xr/poke-button']));
    expect(ids.length).toBeGreaterThanOrEqual(15);
    // Each task lists its apps and what each adversarial app is expected to fail.
    const poke = tasks.json.tasks.find((t: { id: string }) => t.id === 'xr/poke-button');
    expect(poke.apps.map((a: { name: string }) => a.name)).toEqual(['reference', 'counts-frames', 'out-of-reach', 'hover-press', 'web-reference', 'web-touch-boolean', 'web-out-of-reach', 'web-no-highlight', 'web-right-hand-only']);
    // Where each app runs: in the session's process, or as a WebXR page in Chromium.
    expect(poke.apps.map((a: { host: string }) => a.host)).toEqual(['process', 'process', 'process', 'process', 'browser', 'browser', 'browser', 'browser', 'browser']);
    expect(poke.apps[8]).toMatchObject({ dir: 'web', page: 'right-hand-only.html', failsWithHand: 'left', expectFail: ['counts-every-press'] });
    // An app that passes every milestone but breaks a design heuristic names it.
    expect(poke.apps[7]).toMatchObject({ page: 'no-highlight.html', expectFail: [], designFlaw: 'interaction-feedback' });
    expect(poke.apps[1].expectFail).toEqual(['counts-every-press', 'no-double-counts']);
    expect(poke.apps[0].expectFail).toEqual([]);
    // ... and the failure mode each adversarial app stands for, with the suite's coverage per category.
    expect(poke.apps.map((a: { category: string | null }) => a.category)).toEqual([null, 'boolean-touch', 'ergonomics', 'boolean-touch', null, 'boolean-touch', 'ergonomics', null, 'hand-asymmetry']);
    const categories = tasks.json.categories as { id: string; apps: string[] }[];
    expect(categories.map((c) => c.id)).toEqual(['late-sensing', 'coordinate-frame', 'hand-asymmetry', 'boolean-touch', 'ergonomics']);
    expect(categories.find((c) => c.id === 'ergonomics')!.apps).toContain('xr/poke-button:out-of-reach');
    const text = xrsim('list', 'tasks').stdout;
    expect(text).toMatch(/out-of-reach \[ergonomics\]/);
    expect(text).toMatch(/web-no-highlight \(browser\) \(design: interaction-feedback\)/);
    const scenes = xrsim('list', 'scenes');
    expect(scenes.code).toBe(0);
    for (const id of ['living-room', 'kitchen', 'office', 'empty-lab']) expect(scenes.stdout).toContain(id);
    expect(xrsim('list', 'planets').code).toBe(2);
  });

  it('prints help', () => {
    expect(xrsim('--help').stdout).toMatch(/usage: xrsim <command>/);
    expect(xrsim('run', '--help').stdout).toMatch(/--task ID\|PATH/);
  });
});
